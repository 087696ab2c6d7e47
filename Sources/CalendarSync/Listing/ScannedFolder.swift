import Foundation

/// A folder as a listing read it: the names its filter took, in its order, and the folder's
/// stamp taken before they were read. The listing index keeps it, so that the next listing
/// takes the names from the index instead of reading a large folder again when the folder's
/// stamp is the same (adding, removing or renaming a file in it changes its times).
struct ScannedFolder {
    /// The folder's path below the root and the kind of listing, apart: a vdir's names and
    /// `list --local`'s are not taken alike.
    var key: String
    /// The folder's stamp before its names were read.
    var stamp: FileStamp
    /// Whether the folder changed within the racy margin of that read: its names are then
    /// read again next time.
    var isRacy: Bool
    var names: FolderNames
    /// Whether the names were taken from the index in this run (rather than read).
    var fromIndex: Bool

    /// The key of the folder `relative` below the root, listed as `kind` says.
    static func key(relative: String, kind: String) -> String { relative + "\u{0}" + kind }

    /// How many bytes ``append(to:)`` appends.
    var storedLength: Int { 4 + key.utf8.count + 41 + names.storedLength }

    /// Appends the stored form: key, stamp, flags, then the names (``FolderNames/appendStoredForm(to:)``).
    func append(to out: inout [UInt8]) {
        ListingIndex.append(UInt32(key.utf8.count), to: &out)
        out += Array(key.utf8)
        for word in [stamp.device, stamp.inode, UInt64(bitPattern: stamp.size)] { ListingIndex.append(word, to: &out) }
        for word in [stamp.modified, stamp.changed] { ListingIndex.append(UInt64(bitPattern: word), to: &out) }
        out.append(isRacy ? 1 : 0)
        names.appendStoredForm(to: &out)
    }

    /// Reads one stored folder.
    /// - Throws: `ListingIndex.Unusable` when it runs past the end or does not hold together.
    static func read(from reader: inout ListingIndex.Reader) throws -> ScannedFolder {
        let key = String(decoding: try reader.bytes(Int(try reader.uint32())), as: UTF8.self)
        let stamp = FileStamp(
            device: try reader.uint64(), inode: try reader.uint64(), size: Int64(bitPattern: try reader.uint64()),
            modified: Int64(bitPattern: try reader.uint64()), changed: Int64(bitPattern: try reader.uint64()))
        let racy = try reader.uint8() != 0
        let names = try FolderNames.read(from: &reader)
        return ScannedFolder(key: key, stamp: stamp, isRacy: racy, names: names, fromIndex: false)
    }
}
