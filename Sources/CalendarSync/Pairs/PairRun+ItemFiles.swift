import Foundation
import VDir

extension PairRun {
    /// The files that hold the pair's items on its local side, as its runs see them, each with
    /// its stamp, as the listing index takes them: a vdir's item files (``ItemFileFilter``),
    /// each of an account's calendars' (the folders its `collections` take in), or the single
    /// file (none before its first sync); the pair's local folder (or single file) is the
    /// listing's root. For `list` and `alarms`, which read them rather than syncing them.
    /// - Parameter cache: where the listing's index is kept (``ListedFiles/index``); nil for none.
    /// - Throws: `SyncError` `.unsupported` for a pair whose local side is a server;
    ///   `VDirError.notAFolder` for a vdir that does not exist yet.
    public func listedFiles(cache: ListingCache? = nil) throws -> ListedFiles {
        if case .singleFile(let url) = pair.local { return .single(url, cache: cache) }
        let root = try pair.localFolder(for: "reading events").standardizedFileURL
        var listing = ListedFiles(root: root.path)
        listing.openIndex(cache)
        if pair.isAccount {
            let layout = AccountLayout(pair: pair, root: root)
            for name in try AccountLayout.subfolders(of: root).sorted() where layout.listed(name) {
                try Self.add(layout.folder(name), relative: name + "/", calendar: name, to: &listing)
            }
        } else {
            try Self.add(root, relative: "", calendar: nil, to: &listing)
        }
        listing.checkIndex()
        return listing
    }

    /// Adds the item files of one vdir, in name order, as `VDirectory.scan()` finds them.
    static func add(_ folder: URL, relative: String, calendar: String?, to listing: inout ListedFiles) throws {
        let path = folder.standardizedFileURL.path
        guard listing.addVDir(path, relative: relative, calendar: calendar) else {
            throw VDirError(
                .notAFolder, "\(path) is not a folder that can be read (\(String(cString: strerror(errno))))",
                recovery: "create it, or fix `local` in the config file")
        }
    }
}
