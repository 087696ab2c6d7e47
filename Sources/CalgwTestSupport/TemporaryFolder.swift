import Foundation

/// A fresh folder under the system's temporary directory, removed by `remove()`.
public struct TemporaryFolder: Sendable {
    /// The folder.
    public let url: URL

    /// Makes a new folder named `<prefix>-<UUID>`.
    public init(prefix: String = "calgw-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the folder.
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Removes the folder and everything in it; a folder already gone is not an error.
    public func remove() { try? FileManager.default.removeItem(at: url) }
}
