import Foundation
import VDir

extension ListedFiles {
    /// The item files of the vdir `path`, as a sync's scan lists them (`VDirectory.list()`):
    /// names ``ItemFileName`` takes, of regular files (links followed) named in UTF-8, in the
    /// order of their bytes; appended to `self` as the folder `relative` below the root.
    /// - Returns: false when the folder cannot be read.
    mutating func addVDir(_ path: String, relative: String, calendar: String?) -> Bool {
        guard
            let names = names(
                of: path, key: ScannedFolder.key(relative: relative, kind: "vdir"),
                keep: { name, type in
                    // A folder (or other non-file) known from the entry itself is passed over.
                    (type == UInt8(DT_REG) || type == UInt8(DT_LNK) || type == UInt8(DT_UNKNOWN))
                        && ItemFileFilter.isItem(name)
                }, sort: { $0.sortByBytes() })
        else { return false }
        folders.append(Folder(path: path, relative: relative, calendar: calendar))
        let stamps = names.stamps(in: path)
        // Names all ASCII (nearly always) need no check one by one.
        let ascii = names.isASCII
        append(names, folder: folders.count - 1, stamps: stamps) {
            stamps[$0] != nil && (ascii || names.isUTF8(at: $0))
        }
        return true
    }

    /// What `list --local FOLDER` lists: the folder's item files and those of its immediate
    /// subfolders (one vdir per calendar), in the order of their names, a subfolder's files
    /// where the subfolder's name falls. Names starting with "." are passed over, and links
    /// to folders are not followed. A name ``ItemFileName`` takes is listed whatever it names
    /// (a file that cannot be read, or a name that is not UTF-8, is then reported as such).
    /// - Parameter cache: where the index is kept; nil for none.
    public static func local(folder url: URL, cache: ListingCache? = nil) -> ListedFiles {
        let root = url.standardizedFileURL.path
        var listing = ListedFiles(root: root)
        listing.openIndex(cache)
        defer { listing.checkIndex() }
        guard
            let names = listing.names(
                of: root, key: ScannedFolder.key(relative: "", kind: "local"),
                keep: { name, _ in name.first != UInt8(ascii: ".") }, sort: { $0.sortByName() })
        else { return listing }
        // A name's bytes decide whether it is an item's (as its repaired string would: a
        // replaced byte is never a dot, a tilde, a slash or a letter of ".ics").
        var plain: [Int] = []
        var entries: [(position: Int, subfolder: Bool)] = []
        for i in 0..<names.count {
            let subfolder = names.isFolder(at: i, in: root)
            if !subfolder && !names.withName(at: i, ItemFileFilter.isItem) { continue }
            entries.append((i, subfolder))
            if !subfolder { plain.append(i) }
        }
        listing.folders.append(Folder(path: root, relative: "", calendar: nil))
        var rootStamps = names
        rootStamps.keep(plain)
        // A vdir given as it is (no subfolder, names in UTF-8): its names taken over at once.
        if plain.count == entries.count && (names.isASCII || (0..<rootStamps.count).allSatisfy(rootStamps.isUTF8(at:)))
        {
            listing.append(rootStamps, folder: 0, stamps: rootStamps.stamps(in: root)) { _ in true }
            return listing
        }
        var stamps = rootStamps.stamps(in: root).makeIterator()
        for entry in entries {
            if !entry.subfolder {
                listing.append(names, at: entry.position, folder: 0, stamp: stamps.next() ?? nil)
                continue
            }
            let name = names.repairedName(at: entry.position)
            let path = (root.hasSuffix("/") ? root : root + "/") + name
            guard
                let inner = listing.names(
                    of: path, key: ScannedFolder.key(relative: name + "/", kind: "local"),
                    keep: { name, _ in ItemFileFilter.isItem(name) }, sort: { $0.sortByName() })
            else { continue }
            let folder = listing.folders.count
            listing.folders.append(Folder(path: path, relative: name + "/", calendar: nil))
            for (i, stamp) in inner.stamps(in: path).enumerated() {
                listing.append(inner, at: i, folder: folder, stamp: stamp)
            }
        }
        return listing
    }
}

extension ListedFiles {
    /// Adds the name at position `i` of `names`, in the folder at index `folder`: its bytes as
    /// they are, or, when they are not UTF-8, its repaired string (which then names nothing,
    /// and is reported as a file that cannot be read).
    mutating func append(_ names: FolderNames, at i: Int, folder: Int, stamp: FileStamp?) {
        if names.isUTF8(at: i) {
            names.withName(at: i) { append(folder: folder, name: $0, stamp: stamp) }
        } else {
            append(folder: folder, name: names.repairedName(at: i), stamp: stamp)
        }
    }

    /// The names of the folder `path` that `keep` takes, in the order `sort` puts them: taken
    /// from the index when it vouches for the folder (its stamp the same), else read, and put
    /// in order unless they are the names the index holds, whose order is then taken over (the
    /// folder's stamp changed by a file replaced, as an edit replaces one). Noted in `scanned`,
    /// with the folder's stamp taken before, for the index to keep.
    mutating func names(
        of path: String, key: String, keep: (UnsafeBufferPointer<UInt8>, UInt8) -> Bool,
        sort: (inout FolderNames) -> Void
    ) -> FolderNames? {
        let stamp = FileStamp.ofFolder(path)
        if let stamp, let names = index?.folderNames(key: key, stamp: stamp) {
            scanned.append(ScannedFolder(key: key, stamp: stamp, isRacy: false, names: names, fromIndex: true))
            return names
        }
        guard let (read, same) = FolderNames.read(path: path, keep: keep, before: index?.storedNames(key: key))
        else { return nil }
        var names = read
        if !same { sort(&names) }
        if let stamp {
            scanned.append(
                ScannedFolder(
                    key: key, stamp: stamp, isRacy: stamp.isRacy(runStart: startedAt), names: names, fromIndex: false))
        }
        return names
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
