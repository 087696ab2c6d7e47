import Foundation

/// A calgw pair of a vdir and a collection on a test server, signed in as the server's user:
/// the folder `NAME/`, the config `NAME.toml` and the journal `NAME.sqlite` in a test's folder.
/// Several pairs on one collection are several clients of one calendar.
///
/// ```swift
/// let a = try ServerPair(folder, "a", server: server, collection: collection)
/// try TestEvent.data(uid: "e1", summary: "v1", end: "20260310T110000Z").write(to: a.vdir.appendingPathComponent("e1.ics"))
/// let result = try await a.run("sync", password: server.password)
/// ```
public struct ServerPair: Sendable {
    /// The test's folder, which holds the pair's files.
    public let folder: URL
    /// The config file naming the pair.
    public let config: URL
    /// The pair's `local` folder.
    public let vdir: URL

    /// Makes the vdir and writes the config of the pair `name` in `folder`, with the `extra`
    /// `key = value` lines (`api = "google"`).
    public init(
        _ folder: TemporaryFolder, _ name: String, server: TestServer, collection: URL, extra: [String] = []
    ) throws {
        vdir = folder.file(name)
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        config = folder.file("\(name).toml")
        try TestPairConfig(
            name: name, local: vdir, collection: collection,
            journal: folder.file("\(name).sqlite"), server: server, extra: extra
        ).write(to: config)
        self.folder = folder.url
    }

    /// No item file of the vdir holds the UID.
    public struct NoSuchItem: Error, Sendable { public var uid: String }

    /// `calgw COMMAND --config CONFIG EXTRA...`, with the server's password in the environment.
    public func run(_ command: String, _ extra: [String] = [], password: String) async throws -> ProcessRunner.Result {
        try await CalgwBinary.run(
            [command, "--config", config.path] + extra, environment: ["CALGW_TEST_PASSWORD": password])
    }

    /// UID → SUMMARY of the vdir's item files.
    public func summaries() throws -> [String: String] {
        var out: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: vdir.path) where name.hasSuffix(".ics") {
            let lines = try Self.lines(vdir.appendingPathComponent(name))
            let uid = lines.first { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) } ?? name
            out[uid] = lines.first { $0.hasPrefix("SUMMARY:") }.map { String($0.dropFirst(8)) } ?? ""
        }
        return out
    }

    /// Unfolded lines; files from a server may end lines with LF only (XML normalises CRLF).
    public static func lines(_ url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "\r\n", with: "\n")
            .replacingOccurrences(of: "\n ", with: "").components(separatedBy: "\n")
    }

    /// The vdir's item file holding `uid`.
    /// - Throws: ``NoSuchItem`` when none does.
    public func file(uid: String) throws -> URL {
        for name in try FileManager.default.contentsOfDirectory(atPath: vdir.path) where name.hasSuffix(".ics") {
            let url = vdir.appendingPathComponent(name)
            if try Self.lines(url).contains("UID:\(uid)") { return url }
        }
        throw NoSuchItem(uid: uid)
    }
}
