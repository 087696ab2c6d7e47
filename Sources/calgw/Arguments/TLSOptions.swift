import ArgumentParser
import CalendarSync
import Foundation

/// The TLS options of the commands that reach a server before any pair names it (`discover`,
/// `init`): a CA bundle to trust and a public key to pin. A pair in the config file has the
/// same settings as `ca_file` and `verify_fingerprint`, which `init` writes from these.
struct TLSOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp("A PEM file of CA certificates to trust instead of the system's.", valueName: "path"),
        completion: .file(extensions: ["pem", "crt"]))
    var caFile: String?

    @Option(
        help: ArgumentHelp("Pin the server's public key: sha256//BASE64 of its SubjectPublicKeyInfo.", valueName: "pin")
    )
    var pinnedPublicKey: String?

    func validate() throws {
        if let pin = pinnedPublicKey, !pin.hasPrefix("sha256//") {
            throw ValidationError(
                "--pinned-public-key must be sha256//BASE64, the SHA-256 of the server's public key (as curl's --pinnedpubkey)"
            )
        }
    }

    /// The CA file as an absolute path, `~` expanded, so that a config written from it works
    /// from any folder.
    var caFilePath: String? {
        caFile.map { URL(fileURLWithPath: ConfigPaths().expandTilde($0)).standardizedFileURL.path }
    }

    /// The settings of a server reached with these options, signed in to with `signIn`.
    func server(signIn: SignIn) -> ServerSettings {
        ServerSettings(signIn: signIn, caFile: caFilePath, pinnedPublicKey: pinnedPublicKey)
    }

    /// The same options as config keys of a pair.
    var configLines: String {
        var lines = ""
        if let caFilePath { lines += "ca_file = \(TOMLText.string(caFilePath))\n" }
        if let pinnedPublicKey { lines += "verify_fingerprint = \(TOMLText.string(pinnedPublicKey))\n" }
        return lines
    }
}
