import Foundation

/// The built `calgw` executable, run as a user would: for stdout, stderr and exit codes.
public enum CalgwBinary {
    /// The executable beside the running test bundle (same build folder and configuration).
    public static var url: URL {
        let me =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: me).deletingLastPathComponent()
        // On macOS the test binary sits inside an .xctest bundle.
        while folder.pathExtension == "xctest" || folder.lastPathComponent == "MacOS"
            || folder.lastPathComponent == "Contents"
        {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("calgw")
    }

    /// Runs `calgw` with `arguments`; the environment gets `NO_COLOR` so output is plain, and
    /// `XDG_CACHE_HOME` (where `list` keeps its index) in the temporary folder unless given.
    public static func run(
        _ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:],
        in folder: URL? = nil
    ) async throws -> ProcessRunner.Result {
        let defaults = ["NO_COLOR": "1", "XDG_CACHE_HOME": cacheFolder.path]
        return try await ProcessRunner.run(
            url.path, arguments, stdin: stdin, environment: environment.merging(defaults) { a, _ in a },
            currentDirectory: folder)
    }

    /// The tests' cache folder: a cache is no business of the person running them.
    static let cacheFolder = FileManager.default.temporaryDirectory.appendingPathComponent("calgw-test-cache")
}
