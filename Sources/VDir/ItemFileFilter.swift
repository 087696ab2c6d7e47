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
        let bytes = name.utf8
        guard bytes.count > 4, bytes.first != UInt8(ascii: "."), bytes.last != UInt8(ascii: "~"),
              !bytes.contains(UInt8(ascii: "/")) else { return false }
        // ".ics" in any case: a dot, then the three letters lowered (setting bit 5 lowers an
        // ASCII letter and leaves no other byte equal to "i", "c" or "s").
        let tail = Array(bytes.suffix(4))
        return tail[0] == UInt8(ascii: ".") && tail[1...].map { $0 | 0x20 }.elementsEqual("ics".utf8)
    }
}
