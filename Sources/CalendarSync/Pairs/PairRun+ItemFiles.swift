import Foundation
import VDir

/// A file holding items of a pair's local side, and the calendar it belongs to.
public struct LocalItemFile: Sendable, Equatable {
    /// The file.
    public var url: URL
    /// An account pair's calendar (its folder name); nil for a pair of one calendar.
    public var calendar: String?
}

extension PairRun {
    /// The files that hold the pair's items on its local side, as its runs see them: a vdir's
    /// item files (``ItemFileFilter``), each of an account's calendars' (the folders its
    /// `collections` take in), or the single file (none before its first sync). For `list`,
    /// which reads them rather than syncing them.
    /// - Throws: `SyncError` `.unsupported` for a pair whose local side is a server;
    ///   `VDirError.notAFolder` for a vdir that does not exist yet.
    public func localItemFiles() throws -> [LocalItemFile] {
        if case .singleFile(let url) = pair.local {
            return FileManager.default.fileExists(atPath: url.path) ? [LocalItemFile(url: url, calendar: nil)] : []
        }
        let root = try pair.localFolder(for: "reading events")
        guard pair.isAccount else { return try Self.itemFiles(in: root, calendar: nil) }
        let layout = AccountLayout(pair: pair, root: root)
        var files: [LocalItemFile] = []
        for name in try AccountLayout.subfolders(of: root).sorted() where layout.listed(name) {
            files += try Self.itemFiles(in: layout.folder(name), calendar: name)
        }
        return files
    }

    /// The item files of one vdir, in name order.
    static func itemFiles(in folder: URL, calendar: String?) throws -> [LocalItemFile] {
        try VDirectory(url: folder).scan().map {
            LocalItemFile(url: folder.appendingPathComponent($0.name), calendar: calendar)
        }
    }
}
