import Foundation

extension PairRun {
    /// The calendar `event` commands work on: for an account pair, `collection`, else the
    /// pair's `defaultCollection`, else its only calendar.
    /// - Throws: `SyncError` with code `.unknownCollection` when the name is not one of the
    ///   pair's calendars, when an account holds several and none is chosen, and when a
    ///   single-calendar pair is given a name.
    public func calendar(_ collection: String?) throws -> PairCalendar {
        let folder = try pair.localFolder(for: "editing events")
        guard pair.isAccount else {
            if let collection {
                throw SyncError(
                    .unknownCollection, "pair \(pair.name) is a single calendar; it has no collection \(collection)",
                    recovery: "drop --collection")
            }
            return PairCalendar(collection: nil, folder: folder, journal: pair.journal)
        }
        let layout = AccountLayout(pair: pair, root: folder)
        let known = layout.knownCalendars()
        let listing =
            known.isEmpty
            ? "it holds none yet: run calgw sync first" : "its calendars: \(known.joined(separator: ", "))"
        let name: String
        if let chosen = collection ?? pair.defaultCollection {
            guard known.contains(chosen) else {
                throw SyncError(
                    .unknownCollection, "pair \(pair.name) has no collection \(chosen)",
                    recovery: collection == nil ? "fix default_collection in the config; \(listing)" : listing)
            }
            name = chosen
        } else if known.count == 1 {
            name = known[0]
        } else {
            throw SyncError(
                .unknownCollection, "pair \(pair.name) holds \(known.count) calendars; say which",
                recovery: known.isEmpty
                    ? listing
                    : "--collection \(known[0]), or set default_collection in the pair; \(listing)")
        }
        return PairCalendar(collection: name, folder: layout.folder(name), journal: layout.journal(name))
    }
}
