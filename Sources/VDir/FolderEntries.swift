import Foundation

/// The entries of an open folder as `readdir` gives them, each name as bytes in place (no
/// `String` made for it) with its `d_type`: the one loop over `readdir` of the package, shared
/// by a vdir's listing and the listing index's reading of folders.
package enum FolderEntries {
    /// Calls `body` with each entry's name (its bytes, without the NUL; valid only during the
    /// call) and `d_type`, "." and ".." left out, in the order the folder gives them.
    package static func forEach(in folder: OpaquePointer, _ body: (UnsafeBufferPointer<UInt8>, UInt8) -> Void) {
        _ = allSatisfy(in: folder) { name, type in
            body(name, type)
            return true
        }
    }

    /// Whether `body` is true of every entry (as ``forEach(in:_:)`` gives them), asked in the
    /// folder's order until it is not: the folder is read no further then.
    package static func allSatisfy(
        in folder: OpaquePointer, _ body: (UnsafeBufferPointer<UInt8>, UInt8) -> Bool
    ) -> Bool {
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(folder) {
            let name = UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: UInt8.self)
            let length = strlen(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))
            if length == 1 && name[0] == UInt8(ascii: ".") { continue }
            if length == 2 && name[0] == UInt8(ascii: ".") && name[1] == UInt8(ascii: ".") { continue }
            if !body(UnsafeBufferPointer(start: name, count: length), entry.pointee.d_type) { return false }
        }
        return true
    }
}
