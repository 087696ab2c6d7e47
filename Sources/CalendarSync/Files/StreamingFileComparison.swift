import Foundation

/// Compares a file with bytes produced in pieces, reading the file alongside.
final class StreamingFileComparison {
    private let handle: FileHandle
    private(set) var equalSoFar = true

    init(_ url: URL) throws {
        handle = try FileHandle(forReadingFrom: url)
    }

    deinit { try? handle.close() }

    func feed(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        guard equalSoFar, bytes.count > 0 else { return }
        guard let chunk = try handle.read(upToCount: bytes.count), chunk.count == bytes.count else {
            equalSoFar = false
            return
        }
        equalSoFar = chunk.withUnsafeBytes { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
    }

    /// True when the file held exactly the bytes fed, nothing more.
    func finish() throws -> Bool {
        guard equalSoFar else { return false }
        let rest = try handle.read(upToCount: 1) ?? Data()
        return rest.isEmpty
    }
}
