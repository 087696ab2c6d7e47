import Foundation

/// Compares a file with bytes produced in pieces, reading the file alongside.
final class StreamingFileComparison {
    private let handle: FileHandle
    private(set) var equalSoFar = true

    init(_ url: URL) throws {
        handle = try FileHandle(forReadingFrom: url)
    }

    deinit { try? handle.close() }

    /// Where the file's bytes are read to be compared, kept from piece to piece (a `Data`
    /// made for each, as `FileHandle.read` makes it, cost a mapping of memory per piece).
    private var scratch: [UInt8] = []

    func feed(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        guard equalSoFar, bytes.count > 0 else { return }
        if scratch.count < bytes.count { scratch = [UInt8](repeating: 0, count: bytes.count) }
        let got = try scratch.withUnsafeMutableBytes { try readFully(into: $0.baseAddress!, count: bytes.count) }
        equalSoFar =
            got == bytes.count && scratch.withUnsafeBytes { memcmp($0.baseAddress!, bytes.baseAddress!, got) == 0 }
    }

    /// True when the file held exactly the bytes fed, nothing more.
    func finish() throws -> Bool {
        guard equalSoFar else { return false }
        var byte: UInt8 = 0
        return try readFully(into: &byte, count: 1) == 0
    }

    /// Reads up to `count` bytes (fewer only at the end of the file); how many were read.
    private func readFully(into target: UnsafeMutableRawPointer, count: Int) throws -> Int {
        var done = 0
        while done < count {
            let n = read(handle.fileDescriptor, target + done, count - done)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw CocoaError(.fileReadUnknown) }
            if n == 0 { break }
            done += n
        }
        return done
    }
}
