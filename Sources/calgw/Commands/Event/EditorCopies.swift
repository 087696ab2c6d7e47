import Foundation

/// The private folders that hold the editor's copies: `calgw-edit-PID-RANDOM` in the
/// temporary folder, mode 0700. A run ended by a signal removes its own (see
/// `cstop_remove_on_signals`); one killed outright leaves it, and the next `event open` removes
/// the folders of processes that are gone.
struct EditorCopies {
    var parent = FileManager.default.temporaryDirectory
    static let prefix = "calgw-edit-"

    func makeFolder() throws -> URL {
        let folder = parent.appendingPathComponent("\(Self.prefix)\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return folder
    }

    /// Removes this user's copy folders whose process has ended.
    func sweepLeftovers() {
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
