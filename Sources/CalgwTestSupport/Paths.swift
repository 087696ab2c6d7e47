import Foundation

/// Locations of the project's and the shared conformance data, for tests.
public enum TestPaths {
    /// The package root (the folder holding Package.swift).
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// `Fixtures/` in the package.
    public static var fixtures: URL { packageRoot.appendingPathComponent("Fixtures") }

    /// `../shared/corpora/` beside the checkout: outside conformance data read in place.
    public static var corpora: URL {
        packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpora")
    }

    /// The environment for a program a test starts: this process's, with the project's Python
    /// environment (`.venv/bin`, made by Scripts/setup from pinned requirements) first on PATH,
    /// so that `python3`, the servers and the reference tools are the pinned ones even when the
    /// tests run under a bare `swift test`.
    public static var childEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        let bin = packageRoot.appendingPathComponent(".venv/bin").path
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        if FileManager.default.isExecutableFile(atPath: bin + "/python3")
            && !path.split(separator: ":").contains(Substring(bin))
        {
            environment["PATH"] = bin + ":" + path
        }
        return environment
    }
}
