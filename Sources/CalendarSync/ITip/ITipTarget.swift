import Foundation

/// Where a scheduling message is applied: the pair calendar whose vdir holds its meeting, or,
/// for a meeting none holds, the calendar chosen for it.
public struct ITipTarget: Sendable {
    /// The pair.
    public var pair: Pair
    /// Its calendar (for an account pair, one of its calendars).
    public var calendar: PairCalendar
    /// The vdir's copy of the meeting; nil when none holds it.
    public var file: EventFile?

    /// The calendar holding `uid` among `pairs` (every calendar of an account pair); for a UID
    /// none holds, the pair named `chosen` (else the only pair) and its `collection` (else its
    /// default calendar), as the `event` commands pick it.
    /// - Throws: `SyncError` when no pair is named among several, or the calendar cannot be
    ///   chosen; `EventEditError` when two files hold the UID or the one naming it is broken.
    public static func locate(uid: String, in pairs: [Pair], chosen: String?, collection: String?) throws
        -> ITipTarget
    {
        for pair in pairs {
            for calendar in Self.calendars(of: pair) {
                do {
                    let file = try calendar.eventFiles.find(uid: uid)
                    return ITipTarget(pair: pair, calendar: calendar, file: file)
                } catch EventEditError.notFound {
                    continue
                }
            }
        }
        let pair: Pair
        if let chosen {
            guard let named = pairs.first(where: { $0.name == chosen }) else {
                throw SyncError(.unsupported, "no pair \(chosen) in the config", recovery: nil)
            }
            pair = named
        } else if pairs.count == 1 {
            pair = pairs[0]
        } else {
            throw SyncError(
                .unsupported, "no pair holds \(uid), and the config has \(pairs.count) pairs: say which takes it",
                recovery: "--pair NAME")
        }
        return ITipTarget(pair: pair, calendar: try PairRun(pair: pair).calendar(collection), file: nil)
    }

    /// The calendars of `pair` whose vdirs may hold a meeting: an account's each, else its own.
    static func calendars(of pair: Pair) -> [PairCalendar] {
        guard let folder = try? pair.localFolder(for: "reading events") else { return [] }
        guard pair.isAccount else { return [PairCalendar(collection: nil, folder: folder, journal: pair.journal)] }
        let layout = AccountLayout(pair: pair, root: folder)
        return layout.knownCalendars().map {
            PairCalendar(collection: $0, folder: layout.folder($0), journal: layout.journal($0))
        }
    }
}
