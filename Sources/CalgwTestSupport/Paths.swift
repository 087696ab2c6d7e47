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
}
