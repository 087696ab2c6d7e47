import Foundation

/// A run's error lines as people read them: the errors of one cause (a full disk, a read-only
/// folder, a permission refused) told once, not once per item.
///
/// A pull onto a full disk fails every item alike; instead of 271 lines ending in "No space
/// left on device", the first three items' lines are shown, then one line for the rest
/// naming the cause and the place, with one hint. Errors without such a cause stay as they
/// are, in order; a group stands where its first error stood. `--json` keeps every line.
///
///     ev1: /cal/ev1.ics: could not write: No space left on device
///     ev2: /cal/ev2.ics: could not write: No space left on device
///     ev3: /cal/ev3.ics: could not write: No space left on device
///     … and 268 more: No space left on device (the file system mounted at /cal)
///     hint: free space on the file system mounted at /cal (df -h /cal), then run again; …
public struct ErrorGroup: Sendable, Equatable {
    /// One line to print, and its hint (printed after it) if any.
    public var message: String
    /// What to do about it, printed as `hint: …` after the message; nil for none.
    public var hint: String?

    /// A line to print as it is, with `hint` after it if given.
    public init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    /// A report's error line as printed: a hint it ends with (`… (hint: fix that line)`, as the
    /// JSON `errors` hold it) goes on a line of its own, as every other error's does.
    public init(splitting line: String) {
        guard line.hasSuffix(")"), let open = line.range(of: " (hint: ", options: .backwards) else {
            self.init(line)
            return
        }
        self.init(String(line[..<open.lowerBound]), hint: String(line[open.upperBound...].dropLast()))
    }

    /// How many of a cause's errors are shown in full before the count of the rest.
    public static let shownPerCause = 3

    /// Groups `errors` by their shared causes.
    /// - Returns: the lines to print, each with its hint.
    public static func lines(_ errors: [ReportedError], shown: Int = shownPerCause) -> [ErrorGroup] {
        struct Key: Hashable { var errno: Int32; var place: String }
        var members: [Key: [String]] = [:]
        for error in errors {
            guard let cause = error.cause else { continue }
            members[Key(errno: cause.errno, place: cause.place), default: []].append(error.line)
        }
        var out: [ErrorGroup] = []
        var done: Set<Key> = []
        for error in errors {
            guard let cause = error.cause else {
                out.append(ErrorGroup(splitting: error.line))
                continue
            }
            let key = Key(errno: cause.errno, place: cause.place)
            guard done.insert(key).inserted, let all = members[key] else { continue }
            let hint = hint(for: cause)
            let head = all.prefix(max(1, shown)).map { ErrorGroup($0) }
            out += head
            if all.count > head.count {
                out.append(ErrorGroup("… and \(all.count - head.count) more: \(summary(of: cause))", hint: hint))
            } else {
                out[out.count - 1].hint = hint
            }
        }
        return out
    }

    /// The cause in a few words, with its place: `No space left on device (the file system mounted at /cal)`.
    static func summary(of cause: ErrorCause) -> String {
        let reason = String(cString: strerror(cause.errno))
        return switch cause.errno {
        case EACCES, EPERM: "\(reason) (in \(cause.place))"
        default: "\(reason) (the file system mounted at \(cause.place))"
        }
    }

    /// What to do about a cause.
    static func hint(for cause: ErrorCause) -> String {
        let p = cause.place
        let after = "then run again; nothing was lost, what was not written is still pending"
        return switch cause.errno {
        case ENOSPC: "free space on the file system mounted at \(p) (df -h \(p)), \(after)"
        case EDQUOT: "your disk quota on \(p) is used up: free space or raise the quota (quota -s), \(after)"
        case EROFS:
            "the file system mounted at \(p) is read-only: remount it read-write (mount -o remount,rw \(p)) or point the pair at a writable folder, \(after)"
        default:
            "calgw may not write in \(p): check its owner and permissions (ls -ld \(p)) and whether files are marked immutable (lsattr \(p)), \(after)"
        }
    }
}
