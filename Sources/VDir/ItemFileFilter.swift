import Foundation

/// Which names in a vdir are calendar items: regular `*.ics` files that are not hidden and
/// not an editor's leftover.
///
/// Ignored: dot files (Emacs lock links `.#x.ics`, Vim swap files `.x.ics.swp`, the temporary
/// files of an atomic save, `.calgw` state), backups ending in `~`, and anything not ending in
/// `.ics` (`displayname`, `color`, `x.ics.orig`, `x.ics.tmp`).
public enum ItemFileFilter {
    /// True when `name` is an item's file name.
    /// Decided on the name's bytes: a listing of 100,000 files asks this 100,000 times.
    public static func isItem(_ name: String) -> Bool {
        var name = name
        return name.withUTF8(isItem)
    }

    /// True when the name whose UTF-8 bytes these are is an item's file name.
    public static func isItem(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = bytes.count
        guard n > 4, bytes[0] != UInt8(ascii: "."), bytes[n - 1] != UInt8(ascii: "~"),
            memchr(bytes.baseAddress!, Int32(UInt8(ascii: "/")), n) == nil
        else { return false }
        // ".ics" in any case: a dot, then the three letters lowered (setting bit 5 lowers an
        // ASCII letter and leaves no other byte equal to "i", "c" or "s").
        return bytes[n - 4] == UInt8(ascii: ".") && bytes[n - 3] | 0x20 == UInt8(ascii: "i")
            && bytes[n - 2] | 0x20 == UInt8(ascii: "c") && bytes[n - 1] | 0x20 == UInt8(ascii: "s")
    }
}
