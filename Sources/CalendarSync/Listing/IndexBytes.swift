import Foundation

/// A stored index's bytes, mapped from its file instead of read into memory: the pages are the
/// page cache's own, mapped at once (`MAP_POPULATE`), where reading copied 11 MB into new pages
/// that each cost a fault (0.5 ms against 5–7 ms for the alarms index of 100,000 files).
///
/// The mapping is private and read-only. An index file is only ever replaced by a rename, never
/// written in place or cut short, so the mapped bytes stay what was checked; a file cut short
/// by another program while mapped would end the process (`SIGBUS`), as reading a file another
/// program truncates can fail, with nothing of the user's lost: the index is a cache.
///
/// Sendable: the bytes are read-only and never change while it lives.
final class IndexBytes: @unchecked Sendable {
    /// No bytes: an index that holds nothing.
    static let empty = IndexBytes()

    /// The bytes, valid while this object lives: a mapping, unmapped at the end (none for
    /// ``empty``).
    let raw: UnsafeRawBufferPointer

    private init() { raw = UnsafeRawBufferPointer(start: nil, count: 0) }

    /// The bytes of the regular file at `path`; nil when it cannot be opened or mapped, is not
    /// a regular file, or is empty (no index is).
    init?(mapping path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 else { return nil }
        let size = Int(info.st_size)
        #if os(Linux)
            let flags = MAP_PRIVATE | MAP_POPULATE
        #else
            let flags = MAP_PRIVATE
        #endif
        guard let start = mmap(nil, size, PROT_READ, flags, fd, 0), start != UnsafeMutableRawPointer(bitPattern: -1)
        else {
            return nil
        }
        raw = UnsafeRawBufferPointer(start: start, count: size)
    }

    deinit {
        guard let start = raw.baseAddress else { return }
        munmap(UnsafeMutableRawPointer(mutating: start), raw.count)
    }

    /// How many bytes there are.
    var count: Int { raw.count }

    /// Calls `body` with the bytes.
    func withUnsafeBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T { try body(raw) }
}
