import Foundation

/// The private folders that hold the editor's copies: `calgw-edit-PID-RANDOM` in the
/// temporary folder, mode 0700. A run ended by a signal removes its own (see
/// `cstop_remove_on_signals`); one killed outright leaves it, and the next `event open` removes
/// the folders of processes that are gone.
public struct EditorCopies {
    /// Where the folders are made: the temporary folder.
    public var parent = FileManager.default.temporaryDirectory
    static let prefix = "calgw-edit-"

    /// The folders in the temporary folder.
    public init() {}

    /// Makes this process's folder for a copy, mode 0700.
    public func makeFolder() throws -> URL {
        let folder = parent.appendingPathComponent("\(Self.prefix)\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return folder
    }

    /// Removes this user's copy folders whose process has ended.
    public func sweepLeftovers() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        for name in names where name.hasPrefix(Self.prefix) {
            guard let pid = Int32(name.dropFirst(Self.prefix.count).prefix { $0 != "-" }), pid != getpid() else {
                continue
            }
            let path = parent.appendingPathComponent(name).path
            var info = stat()
            guard stat(path, &info) == 0, info.st_uid == getuid(), kill(pid, 0) == -1, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}

/// Names made from an event's UID for files outside the vdir.
public enum SafeName {
    /// A temporary file name that shows the event in the editor's title.
    public static func forTemporaryFile(_ uid: String) -> String {
        let kept = uid.unicodeScalars.prefix(40).map { CharacterSet.alphanumerics.contains($0) ? Character($0) : "_" }
        return "calgw-" + String(kept) + ".ics"
    }
}
