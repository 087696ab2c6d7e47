import Foundation

/// A regular file read whole with `open` and `read`: for the thousands of small files a
/// listing reads, a few system calls each and none of Foundation's work around them.
public enum WholeFile {
    /// The bytes of the regular file at `path`; nil when it cannot be opened, is not a regular
    /// file (a FIFO is not waited for), or a read fails: the caller then reads it the way
    /// that explains the failure.
    /// - Parameter sized: whether the file's size says how much it holds (not so for /proc).
    public static func read(_ path: String, sized: Bool = true) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        // A byte more than the size, to see the end of the file in the same read.
        var bytes: [UInt8] = []
        var chunk = sized ? Int(info.st_size) + 1 : 65_536
        while true {
            guard let (more, ended) = readUpTo(chunk, from: fd) else { return nil }
            if bytes.isEmpty { bytes = more } else { bytes += more }
            if ended { return bytes }
            chunk = max(chunk, bytes.count)
        }
    }

    /// Up to `limit` bytes read from `fd` into a new array, uninitialised memory filled once;
    /// and whether the end of the file was reached. Nil on a read error.
    static func readUpTo(_ limit: Int, from fd: Int32) -> ([UInt8], ended: Bool)? {
        var failed = false, ended = false
        let bytes = [UInt8](unsafeUninitializedCapacity: limit) { buffer, count in
            var done = 0
            while done < limit {
                let n = Foundation.read(fd, buffer.baseAddress! + done, limit - done)
                if n < 0 { failed = true; break }
                if n == 0 { ended = true; break }
                done += n
            }
            count = done
        }
        return failed ? nil : (bytes, ended)
    }
}
