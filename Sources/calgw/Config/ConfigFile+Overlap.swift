import Foundation

/// Pairs whose local sides overlap: one pair's folder (or file) inside another's, or the same.
///
/// Each file would then be synced by two pairs: an account pair over `~/calendars` took a
/// subscription's folder `~/calendars/holidays` for a calendar of its own and uploaded the
/// read-only feed's events to the server, and `~/calendars/personal` became synced twice. Every
/// command that runs a pair refuses it, and `init` refuses to add one.
extension ConfigFile {
    /// The first other pair whose local side overlaps `pair`'s; nil when none does.
    func overlapping(_ pair: PairConfiguration) -> PairConfiguration? {
        pairs.first { $0.name != pair.name && Self.overlap(pair.local, $0.local) }
    }

    /// The error that refuses `pair` for overlapping `other`.
    static func overlapError(_ pair: PairConfiguration, _ other: PairConfiguration) -> ConfigError {
        let mine = Self.components(of: pair.local), theirs = Self.components(of: other.local)
        let relation = mine == theirs ? "is the same as" : mine.starts(with: theirs) ? "is inside" : "contains"
        return ConfigError(
            "pair \(pair.name)'s local side \(pair.local.path) \(relation) pair \(other.name)'s \(other.local.path): "
                + "their files would be synced by both pairs",
            hint: "give each pair a folder of its own, side by side (~/calendars/personal, ~/calendars/holidays, "
                + "and an account pair in ~/calendars/account); edit the config file")
    }

    /// True when two local sides are the same path or one lies inside the other; servers
    /// (`http(s)://`) never overlap.
    static func overlap(_ a: URL, _ b: URL) -> Bool {
        guard a.isFileURL, b.isFileURL else { return false }
        let x = components(of: a), y = components(of: b)
        return x.starts(with: y) || y.starts(with: x)
    }

    /// A local path's components, `..` and symbolic links resolved where they exist.
    static func components(of url: URL) -> [String] {
        url.standardizedFileURL.resolvingSymlinksInPath().pathComponents.filter { $0 != "/" }
    }
}
