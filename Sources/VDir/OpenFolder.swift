import CFileSystem
import Foundation
import Synchronization

/// A folder held open while many files are created in it.
///
/// Each file is then made and named relative to the open folder (`AtomicFile.create(named:in:)`),
/// so the kernel does not walk the folder's path from the root twice per file: at 100,000 files,
/// as a first pull creates them, those walks were a tenth of the kernel's work.
public final class OpenFolder: Sendable {
    /// The folder's path, for messages.
    public let path: String
    let descriptor: Int32

    /// Opens the folder at `path`.
    /// - Throws: `AtomicFileError`, with code `ENOENT` when the folder is missing.
    public init(path: String) throws {
        descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw AtomicFileError(path: path, step: "open the folder", errno: errno) }
        self.path = path
    }

    deinit { close(descriptor) }

    /// fsyncs the folder, so the names made in it survive a crash.
    func sync() { fsync(descriptor) }
}

extension AtomicFile {
    /// `create(at:bytes:syncContent:syncFolder:)` for the file `name` in `folder`.
    public static func create(
        named name: String, in folder: OpenFolder, bytes: UnsafeBufferPointer<UInt8>,
        syncContent: Bool, syncFolder: Bool
    ) throws -> FileSignature {
        // The path is for messages (and the fallback) only: not made for every file written.
        var path: String { String(joining: folder.path, "/", name) }
        let fd = cfs_open_unnamed_in(folder.descriptor, 0o644)
        guard fd >= 0 else {
            guard [EOPNOTSUPP, EISDIR, EINVAL, ENOSYS].contains(errno) else {
                throw AtomicFileError(path: path, step: "create", errno: errno)
            }
            return try create(at: path, bytes: bytes, syncContent: syncContent, syncFolder: syncFolder)
        }
        defer { close(fd) }
        try writeAll(bytes, to: fd, path: path)
        guard !syncContent || fsync(fd) == 0 else { throw AtomicFileError(path: path, step: "fsync", errno: errno) }
        guard link(fd, named: name, in: folder) == 0 else {
            throw AtomicFileError(path: path, step: "create", errno: errno)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw AtomicFileError(path: path, step: "stat", errno: errno) }
        if syncFolder { folder.sync() }
        return FileSignature(info)
    }

    /// Whether an unnamed file is named from its descriptor (`AT_EMPTY_PATH`), until the kernel
    /// first refuses that to this process; then through `/proc/self/fd`.
    static let linksByDescriptor = Atomic<Bool>(true)

    /// Names the unnamed file open at `fd`; 0, or -1 with errno set.
    static func link(_ fd: Int32, named name: String, in folder: OpenFolder) -> Int32 {
        if linksByDescriptor.load(ordering: .relaxed) {
            if cfs_link_unnamed_in(fd, folder.descriptor, name, 1) == 0 { return 0 }
            // ENOENT is also the answer for a folder deleted meanwhile; the path below tells.
            guard errno == ENOENT || errno == EPERM else { return -1 }
            let refused = cfs_link_unnamed_in(fd, folder.descriptor, name, 0)
            if refused == 0 { linksByDescriptor.store(false, ordering: .relaxed) }
            return refused
        }
        return cfs_link_unnamed_in(fd, folder.descriptor, name, 0)
    }
}
