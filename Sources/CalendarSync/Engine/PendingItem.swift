import Foundation
import ICalendar

/// One item a sync would change, as `status` and dry runs list it (CLI.md, `status --json`):
/// which side it changes and how, what the event is, and where it is.
public struct PendingItem: Sendable, Codable, Equatable {
    /// What a sync would do to the item.
    public enum Action: String, Sendable, Codable {
        case create, update, delete
        /// Changed on both sides; `strategy` says how a sync resolves it.
        case conflict
    }

    /// The side written (`local` or `remote`); nil for a conflict, which may write both.
    public var side: Side?
    /// What would happen to the item on `side`.
    public var action: Action
    /// The item's UID (or its `nouid:` key).
    public var uid: String
    /// The event's SUMMARY, when it has one (for a conflict, the local version's).
    public var summary: String?
    /// DTSTART as `list --json` gives times (RFC 3339 with the offset in force, in the
    /// event's own zone: `2026-03-01T11:00:00+01:00`; floating without one; a date as
    /// `2026-03-01`), nil when there is none.
    public var start: String?
    /// A task's DUE, in the same form; nil for anything else, and for a task without one.
    public var due: String?
    /// The vdir file the change comes from or goes to, when there is one.
    public var path: String?
    /// The server's href the change comes from or goes to, when there is one.
    public var href: String?
    /// A conflict: the two versions' summaries, and the strategy a sync applies (`pending`
    /// when the run is a pull or push, which leave conflicts for `sync`).
    public var localSummary: String?
    /// A conflict: the remote version's summary.
    public var remoteSummary: String?
    /// A conflict: how a sync resolves it (`pending` for a pull or push); nil for other changes.
    public var strategy: ConflictOutcome?
    /// A pull or push leaves this change for another direction.
    public var waiting: Bool?
}

/// A vdir file a sync would stop on: `path:line: problem`.
public struct BrokenFile: Sendable, Codable, Equatable {
    /// The file's path.
    public var path: String
    /// The line of the problem, counting from 1.
    public var line: Int
    /// What is wrong there.
    public var problem: String

    /// Reads HandEditCheck's `path:line: problem`; nil for another shape.
    init?(_ located: String) {
        guard let match = located.range(of: ":[0-9]+: ", options: [.regularExpression, .backwards]) else { return nil }
        path = String(located[..<match.lowerBound])
        line = Int(located[match].dropFirst().dropLast(2)) ?? 1
        problem = String(located[match.upperBound...])
    }
}

/// Two items of one side with one UID: neither is synced until one is changed.
public struct DuplicateUID: Sendable, Codable, Equatable {
    /// The UID both items hold.
    public var uid: String
    /// The side that holds both.
    public var side: Side
    /// Where each is: vdir paths or server hrefs.
    public var locations: [String]
}

/// What a plan would change, item by item, for people and scripts.
enum PendingItems {
    /// Adds to a dry run's (or `status`'s) report what it would change item by item, the files
    /// it would stop on and the UIDs held twice.
    static func describe(
        _ plan: SyncPlan, local: SideSnapshot, remote: SideSnapshot, strategy: ConflictStrategy,
        journal: Journal, into report: inout SyncReport
    ) {
        report.items = list(
            plan, local: local, remote: remote, strategy: strategy, base: { try? journal.base(for: $0) })
        report.broken = broken(local)
        report.duplicates = duplicates(local: local, remote: remote)
    }

    /// The items `plan` writes, with their summaries and starts read from the items' bytes
    /// (or, for an item not read in this run, from the journal's copy, `base`).
    static func list(
        _ plan: SyncPlan, local: SideSnapshot, remote: SideSnapshot, strategy: ConflictStrategy,
        base: (ItemKey) -> Data?
    ) -> [PendingItem] {
        func describe(_ item: SideItem) -> (summary: String?, start: String?, due: String?) {
            guard let data = item.data ?? base(item.key),
                let calendar = (try? ICalendarParser().parse(data))?.calendar
            else { return (nil, nil, nil) }
            let object =
                calendar.components.first { $0.name != "VTIMEZONE" && $0["RECURRENCE-ID"] == nil }
                ?? calendar.components.first { $0.name != "VTIMEZONE" }
            let due = object?.name == "VTODO" ? object?["DUE"].flatMap { PendingItem.rfc3339($0, in: calendar) } : nil
            return (
                object?["SUMMARY"]?.text, object?["DTSTART"].flatMap { PendingItem.rfc3339($0, in: calendar) }, due
            )
        }
        func place(_ item: SideItem, on side: Side, _ entry: inout PendingItem) {
            let snapshot = side == .local ? local : remote
            if snapshot.folder != nil {
                entry.path = snapshot.location(item.href)
            } else {
                entry.href = item.href.value
            }
        }
        func entry(_ action: PlannedAction, waiting: Bool) -> PendingItem? {
            switch action {
            case .create(let side, let source), .update(let side, _, let source):
                let (summary, start, due) = describe(source)
                var e = PendingItem(
                    side: side, action: action.isCreate ? .create : .update, uid: source.key.value, summary: summary,
                    start: start)
                e.due = due
                place(source, on: side.other, &e)
                if case .update(_, let target, _) = action { place(target, on: side, &e) }
                e.waiting = waiting ? true : nil
                return e
            case .delete(let side, let target):
                let (summary, start, due) = describe(target)
                var e = PendingItem(side: side, action: .delete, uid: target.key.value, summary: summary, start: start)
                e.due = due
                place(target, on: side, &e)
                e.waiting = waiting ? true : nil
                return e
            case .conflict(let l, let r, _):
                let (localSummary, start, due) = describe(l)
                var e = PendingItem(side: nil, action: .conflict, uid: l.key.value, summary: localSummary, start: start)
                e.due = due
                place(l, on: .local, &e)
                place(r, on: .remote, &e)
                e.localSummary = localSummary
                e.remoteSummary = describe(r).summary
                e.strategy = waiting ? .pending : ConflictOutcome(strategy)
                return e
            case .pending(let inner):
                return entry(inner, waiting: true)
            case .record, .forget, .skip:
                return nil
            }
        }
        return plan.actions.compactMap { entry($0, waiting: false) }
    }

    /// The files a sync would stop on, from a side's `problems`.
    static func broken(_ snapshot: SideSnapshot) -> [BrokenFile] {
        snapshot.problems.values.sorted().compactMap(BrokenFile.init)
    }

    /// The UIDs held twice on one side.
    static func duplicates(local: SideSnapshot, remote: SideSnapshot) -> [DuplicateUID] {
        var out: [DuplicateUID] = []
        for (side, snapshot) in [(Side.local, local), (.remote, remote)] {
            for (key, items) in Dictionary(grouping: snapshot.items, by: \.key) where items.count > 1 {
                out.append(
                    DuplicateUID(
                        uid: key.value, side: side, locations: items.map { snapshot.location($0.href) }.sorted()))
            }
        }
        return out.sorted { ($0.uid, $0.side.rawValue) < ($1.uid, $1.side.rawValue) }
    }
}

private extension PlannedAction {
    var isCreate: Bool {
        if case .create = self { return true }
        return false
    }
}

extension PendingItem {
    /// A DTSTART in RFC 3339, read in its own zone (a TZID the calendar or the tz database
    /// knows); as written when it is not a date or date-time.
    static func rfc3339(_ property: Property, in calendar: Component) -> String {
        guard let value = property.dateTime else { return property.value }
        switch value.form {
        case .date: return value.date.isoString
        case .floating: return value.local.isoString
        case .utc: return value.local.isoString + "+00:00"
        case .zoned(let tzid):
            guard let zone = TimeZoneResolver(calendar: calendar).zone(for: tzid) else { return value.local.isoString }
            return value.local.isoString
                + UTCOffset(seconds: zone.offset(atUTC: zone.utc(forLocal: value.local))).rfc3339
        }
    }
}
