import Foundation
import VDir

/// The cause of an item's failure when it is one that stops every other write to the same
/// place alike: a full disk (or quota), a read-only file system, a permission refused. A run
/// onto a full disk fails once per item; the cause lets the CLI say it once, with what to do
/// (see ``ErrorGroup``).
public struct ErrorCause: Sendable, Hashable {
    /// The system error number: `ENOSPC`, `EDQUOT`, `EROFS`, `EACCES` or `EPERM`.
    public var errno: Int32
    /// Where the writes went: the mount point of the file system (full or read-only), or the
    /// folder (permission refused).
    public var place: String
    /// The item the error line is about, as the line names it.
    public var item: String

    /// The cause `errno` at `place`, of the error about `item`.
    public init(errno: Int32, place: String, item: String) {
        self.errno = errno
        self.place = place
        self.item = item
    }

    /// The error numbers that are causes shared by many items.
    static let shared: Set<Int32> = [ENOSPC, EDQUOT, EROFS, EACCES, EPERM]

    /// The cause of `error`, when it is a file system failure of a kind many items share.
    /// - Parameter item: the item the failure stopped.
    public static func of(_ error: any Error, item: String) -> ErrorCause? {
        guard let failure = error as? any FileSystemFailure, let number = failure.systemErrorNumber,
            let path = failure.failedPath, shared.contains(number)
        else { return nil }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let place = number == EACCES || number == EPERM ? folder : mountPoint(of: path)
        return ErrorCause(errno: number, place: place, item: item)
    }

    /// The mount point of the file system holding `path` (or its nearest existing ancestor):
    /// the longest mount point in `/proc/self/mountinfo` above it (a bind mount included),
    /// else the last ancestor on the same device.
    static func mountPoint(of path: String) -> String {
        var current = URL(fileURLWithPath: path).standardizedFileURL
        var info = stat()
        while stat(current.path, &info) != 0 && current.path != "/" { current = current.deletingLastPathComponent() }
        let resolved = current.resolvingSymlinksInPath().path
        if let table = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8),
            let best = mountPoints(inMountInfo: table).filter({ contains($0, resolved) }).max(by: {
                $0.count < $1.count
            })
        {
            return best
        }
        let device = info.st_dev
        while current.path != "/" {
            let parent = current.deletingLastPathComponent()
            var parentInfo = stat()
            guard stat(parent.path, &parentInfo) == 0, parentInfo.st_dev == device else { break }
            current = parent
        }
        return current.path
    }

    /// The mount points listed in a `mountinfo` table (its fifth field, `\040` and the like unescaped).
    static func mountPoints(inMountInfo table: String) -> [String] {
        table.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count > 4 else { return nil }
            var out = "", rest = Substring(fields[4])
            while let slash = rest.firstIndex(of: "\\") {
                out += rest[..<slash]
                let code = rest[rest.index(after: slash)...].prefix(3)
                if code.count == 3, let byte = UInt8(code, radix: 8) {
                    out.append(Character(UnicodeScalar(byte)))
                    rest = rest[rest.index(slash, offsetBy: 4)...]
                } else {
                    out.append("\\")
                    rest = rest[rest.index(after: slash)...]
                }
            }
            return out + rest
        }
    }

    /// True when `path` is `folder` or lies below it.
    static func contains(_ folder: String, _ path: String) -> Bool {
        folder == "/" || path == folder || path.hasPrefix(folder + "/")
    }
}
