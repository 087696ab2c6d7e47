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

    /// Runs `calgw` with `arguments`; the environment gets `NO_COLOR` so output is plain.
    public static func run(
        _ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:],
        in folder: URL? = nil
    ) throws -> ProcessRunner.Result {
        try ProcessRunner.run(
            url.path, arguments, stdin: stdin, environment: environment.merging(["NO_COLOR": "1"]) { a, _ in a },
            currentDirectory: folder)
    }
}
