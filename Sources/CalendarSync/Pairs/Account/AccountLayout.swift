import Foundation
import VDir

/// Where an account pair keeps its state, and which calendars it holds as far as the disk
/// tells: the journals and the collection mapping live in `<journal>.d/`, the calendars in
/// subfolders of `local`.
struct AccountLayout {
    var pair: Pair
    /// The folder holding one vdir per calendar (the pair's local side).
    var root: URL

    /// `<journal>.d/`: one journal per calendar, the mapping, the account's lock.
    var stateFolder: URL { pair.journal.deletingPathExtension().appendingPathExtension("d") }

    /// Which folder holds which server calendar (``CollectionMapping``).
    var mappingFile: URL { stateFolder.appendingPathComponent("collections.json") }

    /// The lock every run of the account holds.
    var lockFile: URL { stateFolder.appendingPathComponent("account") }

    /// The journal of the calendar in folder `name`.
    func journal(_ name: String) -> URL { stateFolder.appendingPathComponent("\(name).sqlite") }

    /// Removes the journal of the calendar in folder `name` (and its lock and SQLite side files).
    func forgetJournal(_ name: String) {
        let prefix = "\(name).sqlite"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: stateFolder.path)) ?? []
        for file in names where file == prefix || file.hasPrefix(prefix + "-") || file.hasPrefix(prefix + ".") {
            try? FileManager.default.removeItem(at: stateFolder.appendingPathComponent(file))
        }
    }

    /// The vdir of the calendar in folder `name`.
    func folder(_ name: String) -> URL { root.appendingPathComponent(name, isDirectory: true) }

    /// Whether the pair's `collections` list takes in this folder.
    func listed(_ name: String) -> Bool {
        if case .named(let names) = pair.collections { return names.contains(name) }
        return true
    }

    /// The calendars known without asking the server: the mapped ones and the folders of
    /// `local`, as far as the pair's list takes them in; sorted.
    func knownCalendars() -> [String] {
        let mapped = ((try? CollectionMapping.load(from: mappingFile))?.entries ?? []).map(\.name)
        let folders = (try? Self.subfolders(of: root)) ?? []
        return Set(mapped + folders).filter(listed).sorted()
    }

    /// The visible subfolders of `folder`.
    /// - Throws: `VDirError` (`.io`) naming the folder and the system's reason.
    static func subfolders(of folder: URL) throws -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            let number = underlying?.domain == NSPOSIXErrorDomain ? Int32(underlying!.code) : EIO
            throw VDirError(
                .io, "cannot list the calendars' folders in \(folder.path): \(String(cString: strerror(number)))",
                recovery: SystemError(number)?.recovery(at: folder.path)
                    ?? "check that calgw may read \(folder.path), then run again",
                errno: number, path: folder.path)
        }
        return names.filter { name in
            var isDirectory: ObjCBool = false
            return !name.hasPrefix(".")
                && FileManager.default.fileExists(
                    atPath: folder.appendingPathComponent(name).path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }
    }
}
