#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import Foundation

/// Watches vdir folders with Linux inotify and reports which watched folder saw a change to
/// an item file (what the caller's ``isItem`` accepts: `*.ics`, not a dotfile or an editor's
/// leftover).
///
/// The watcher is read without blocking: ``fileDescriptor`` goes into `poll(2)` beside other
/// descriptors, and ``drain()`` collects what arrived. Folders created inside a watched root
/// (a new calendar of an account pair) are watched as they appear.
public final class InotifyWatcher {
    /// The inotify descriptor, for `poll(2)`.
    public let fileDescriptor: Int32
    /// Whether a file name is an item's: only changes to those count.
    private let isItem: (String) -> Bool
    /// Watch descriptor → (tag given by the caller, folder).
    private var watches: [Int32: (tag: String, folder: String, isRoot: Bool)] = [:]

    /// What an item change looks like to inotify: written and closed, moved in or out, deleted,
    /// or a name made for a file: khal writes a temporary file and `link()`s it into place, and
    /// a file made with `O_TMPFILE` appears by `linkat()`, which show as IN_CREATE alone.
    public static let itemMask =
        UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM)
        | UInt32(IN_CREATE)

    /// A watcher counting changes to files whose names `isItem` accepts.
    /// - Throws: ``KernelEventError`` when inotify is unavailable (too many instances, no kernel support).
    public init(isItem: @escaping (String) -> Bool) throws {
        self.isItem = isItem
        let fd = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
        guard fd >= 0 else {
            throw KernelEventError(
                .inotifyUnavailable, "cannot start inotify: \(String(cString: strerror(errno)))",
                recovery: "raise fs.inotify.max_user_instances, or run `calgw sync` from a timer instead")
        }
        fileDescriptor = fd
    }

    deinit { close(fileDescriptor) }

    /// Watches `folder` and its immediate subfolders (the collections of an account pair).
    /// - Throws: ``KernelEventError`` when the folder cannot be watched (missing, no permission, limit reached).
    public func watch(_ folder: URL, tag: String) throws {
        try add(folder.path, tag: tag, isRoot: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where !name.hasPrefix(".") {
            var isDirectory: ObjCBool = false
            let path = folder.appendingPathComponent(name).path
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                try add(path, tag: tag, isRoot: false)
            }
        }
    }

    private func add(_ path: String, tag: String, isRoot: Bool) throws {
        let mask = Self.itemMask | UInt32(IN_ONLYDIR)
        let wd = inotify_add_watch(fileDescriptor, path, mask)
        guard wd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw KernelEventError(
                .cannotWatch, "cannot watch \(path): \(reason)",
                recovery: errno == ENOSPC
                    ? "raise fs.inotify.max_user_watches" : "check that the vdir exists and is readable")
        }
        watches[wd] = (tag, path, isRoot)
    }

    /// Reads every pending event; returns the tags of the folders where an item changed.
    public func drain() -> Set<String> {
        var changed = Set<String>()
        let size = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = read(fileDescriptor, buffer, size)
            guard count > 0 else { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = offset + MemoryLayout<inotify_event>.size
                let name =
                    event.len > 0
                    ? String(cString: buffer.advanced(by: nameStart).assumingMemoryBound(to: CChar.self)) : ""
                offset = nameStart + Int(event.len)
                guard let watch = watches[event.wd] else { continue }
                if event.mask & UInt32(IN_IGNORED) != 0 { watches[event.wd] = nil; continue }
                if event.mask & UInt32(IN_ISDIR) != 0 {
                    if watch.isRoot, event.mask & (UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) != 0, !name.hasPrefix(".") {
                        try? add(watch.folder + "/" + name, tag: watch.tag, isRoot: false)
                        changed.insert(watch.tag)
                    }
                    continue
                }
                if event.mask & Self.itemMask != 0, isItem(name) { changed.insert(watch.tag) }
            }
        }
        return changed
    }
}
