import VDir

/// Which files of a vdir are items: `*.ics`, not a dotfile, not an editor's leftover. The
/// one rule a vdir's scan, a listing and `calgw watch` share.
public enum ItemFileName {
    /// Whether a file named `name` (a name, not a path) is an item.
    public static func isItem(_ name: String) -> Bool { ItemFileFilter.isItem(name) }
}
