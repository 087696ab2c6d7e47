import Foundation
import VDir

extension ListedFiles {
    /// The item files of the vdir `path`, as a sync's scan lists them (`VDirectory.list()`):
    /// names ``ItemFileName`` takes, of regular files (links followed) named in UTF-8, in the
    /// order of their bytes; appended to `self` as the folder `relative` below the root.
    /// - Returns: false when the folder cannot be read.
    mutating func addVDir(_ path: String, relative: String, calendar: String?) -> Bool {
        guard
            var names = FolderNames(
                path: path,
                keep: { name, type in
                    // A folder (or other non-file) known from the entry itself is passed over.
                    (type == UInt8(DT_REG) || type == UInt8(DT_LNK) || type == UInt8(DT_UNKNOWN))
                        && ItemFileFilter.isItem(name)
                })
        else { return false }
        names.sortByBytes()
        let folder = folders.count
        folders.append(Folder(path: path, relative: relative, calendar: calendar))
        for (i, stamp) in names.stamps(in: path).enumerated() where stamp != nil && names.isUTF8(at: i) {
            names.withName(at: i) { append(folder: folder, name: $0, stamp: stamp) }
        }
        return true
    }

    /// What `list --local FOLDER` lists: the folder's item files and those of its immediate
    /// subfolders (one vdir per calendar), in the order of their names, a subfolder's files
    /// where the subfolder's name falls. Names starting with "." are passed over, and links
    /// to folders are not followed. A name ``ItemFileName`` takes is listed whatever it names
    /// (a file that cannot be read, or a name that is not UTF-8, is then reported as such).
    public static func local(folder url: URL) -> ListedFiles {
        let root = url.standardizedFileURL.path
        var listing = ListedFiles(root: root)
        guard var names = FolderNames(path: root, keep: { name, _ in name.first != UInt8(ascii: ".") }) else {
            return listing
        }
        names.sortByName()
        var plain: [(position: Int, name: String)] = []
        var entries: [(name: String, subfolder: Bool)] = []
        for i in 0..<names.count {
            let name = names.repairedName(at: i)
            let subfolder = names.isFolder(at: i, in: root)
            if !subfolder && !ItemFileName.isItem(name) { continue }
            entries.append((name, subfolder))
            if !subfolder { plain.append((i, name)) }
        }
        listing.folders.append(Folder(path: root, relative: "", calendar: nil))
        var rootStamps = names
        rootStamps.keep(plain.map(\.position))
        var stamps = rootStamps.stamps(in: root).makeIterator()
        for entry in entries {
            if !entry.subfolder {
                listing.append(folder: 0, name: entry.name, stamp: stamps.next() ?? nil)
                continue
            }
            let path = (root.hasSuffix("/") ? root : root + "/") + entry.name
            guard var inner = FolderNames(path: path, keep: { name, _ in ItemFileFilter.isItem(name) }) else {
                continue
            }
            inner.sortByName()
            let folder = listing.folders.count
            listing.folders.append(Folder(path: path, relative: entry.name + "/", calendar: nil))
            for (i, stamp) in inner.stamps(in: path).enumerated() {
                listing.append(folder: folder, name: inner.repairedName(at: i), stamp: stamp)
            }
        }
        return listing
    }
}

extension FolderNames {
    /// Puts the names in `String` order (the order of their bytes when they are all ASCII).
    mutating func sortByName() {
        if isASCII { return sortByBytes() }
        let names = (0..<count).map(repairedName(at:))
        keep(names.indices.sorted { names[$0] < names[$1] })
    }
}
