import Foundation
import VDir

/// Folders the library makes for a pair (an account's state folder, the folder of its
/// calendars), made with `mkdir(2)` so that a failure keeps the system's reason: a person is
/// told which folder and why, never Foundation's bare "the operation could not be completed".
enum FolderCreation {
    /// Makes `url` and the folders above it that are missing, with `permissions` (a mode such
    /// as `0o700`) when given. A folder already there is left as it is.
    /// - Parameter what: what the folder is, for the message (`the account's state folder`).
    /// - Throws: `VDirError` (`.io`) naming the folder and the system's reason, with what to do
    ///   (free space, fix permissions, move a file out of the way); the system call's error
    ///   number is kept, so a full disk is told apart as any other file error is.
    static func make(_ url: URL, permissions: mode_t? = nil, what: String) throws {
        let path = url.standardizedFileURL.path
        guard let number = makeFolders(path, mode: permissions ?? 0o777) else { return }
        let reason = String(cString: strerror(number))
        throw VDirError(
            .io, "cannot make \(what) \(path): \(reason)",
            recovery: SystemError(number)?.recovery(at: path)
                ?? "move what is in the way, or check that calgw may write in \(url.deletingLastPathComponent().path), then run again",
            errno: number, path: path)
    }

    /// Makes `path` and the missing folders above it; the error number of the first
    /// `mkdir(2)` that failed, nil when the folder is there.
    private static func makeFolders(_ path: String, mode: mode_t) -> Int32? {
        var info = stat()
        if stat(path, &info) == 0 { return (info.st_mode & S_IFMT) == S_IFDIR ? nil : ENOTDIR }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path, let number = makeFolders(parent, mode: mode) { return number }
        if mkdir(path, mode) == 0 { return nil }
        let number = errno
        // Made meanwhile by another process: as good as made here.
        if number == EEXIST, stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return nil }
        return number
    }
}
