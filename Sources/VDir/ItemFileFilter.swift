/// Which names in a vdir are calendar items: regular `*.ics` files that are not hidden and
/// not an editor's leftover.
///
/// Ignored: dot files (Emacs lock links `.#x.ics`, Vim swap files `.x.ics.swp`, the temporary
/// files of an atomic save, `.calgw` state), backups ending in `~`, and anything not ending in
/// `.ics` (`displayname`, `color`, `x.ics.orig`, `x.ics.tmp`).
public enum ItemFileFilter {
    /// True when `name` is an item's file name.
    public static func isItem(_ name: String) -> Bool {
        guard !name.hasPrefix("."), !name.hasSuffix("~"), name.count > 4 else { return false }
        guard name.lowercased().hasSuffix(".ics") else { return false }
        return !name.contains("/")
    }
}
