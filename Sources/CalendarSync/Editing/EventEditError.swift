/// Why an editing command could not find or change an event.
public enum EventEditError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No resource in the vdir holds the UID.
    case notFound(uid: String, folder: String)
    /// Two files hold the same UID (one was copied from the other): neither is touched.
    case duplicateUID(uid: String, files: [String])
    /// The only file that names the UID cannot be read (broken iCalendar at `line`).
    case unreadable(uid: String, file: String, line: Int, reason: String)

    /// What failed, naming the UID and the folder or files.
    public var description: String {
        switch self {
        case .notFound(let uid, let folder): "no event with UID \(uid) in \(folder)"
        case .duplicateUID(let uid, let files): "UID \(uid) is in more than one file: \(files.joined(separator: ", "))"
        case .unreadable(let uid, let file, let line, let reason):
            "the file naming \(uid) cannot be read: \(file):\(line): \(reason)"
        }
    }

    /// What the person can do about it.
    public var recovery: String? {
        switch self {
        case .notFound: "`calgw list --json` shows the UIDs; run `calgw pull` if the event was made elsewhere"
        case .duplicateUID: "give one of the files a new UID, or delete the copy"
        case .unreadable(_, let file, _, _):
            "fix that line (`calgw lint \(file)` lists the problems), then run the command again"
        }
    }
}
