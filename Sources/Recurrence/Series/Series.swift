import ICalendar

/// One recurring (or single) event: the master VEVENT and its overrides, sharing a UID.
///
/// Expands to occurrences inside a window with RFC 5545's rules: RRULEs united (several are
/// deprecated but seen), RDATEs added (DATE, DATE-TIME and PERIOD), EXDATEs removed by instant
/// (a DATE EXDATE removes the whole day), and overrides (RECURRENCE-ID) replacing their
/// instance: a moved instance leaves its slot and appears at its new time, a CANCELLED one
/// disappears, and RANGE=THISANDFUTURE carries its changes (and its time shift) to the
/// following instances (§3.8.4.4).
///
/// Unbounded rules are only ever expanded inside a window, and a window far from DTSTART
/// costs about what one near it does when the rules have no COUNT.
public struct Series: Sendable {
    /// The UID the master and overrides share.
    public let uid: String
    /// The VEVENT without RECURRENCE-ID; nil when a calendar holds only overrides. Of several
    /// (versions of one event, in exports that keep them all), the newest (`EventVersion`).
    public let master: Component?
    /// The VEVENTs with RECURRENCE-ID, in file order; of several for one instance, the newest.
    public let overrides: [Component]
    /// The master's RRULE values no reader can take, as written: the series is expanded
    /// without them.
    public let unreadableRules: [String]

    let frame: SeriesFrame?
    /// The calendar's TZID resolver (kept for overrides without a master).
    let resolver: TimeZoneResolver
    let start: DateTimeValue?
    let rules: [CompiledRule]
    let untils: [DateTimeValue?]
    /// DTSTART, as a wall-clock second of the frame.
    let startWall: Int64
    /// RDATE starts (wall seconds), with a PERIOD's own end when it has one.
    let rdates: [(wall: Int64, period: Period?)]
    /// RDATE PERIODs by their start, for their own ends.
    let periodByWall: [Int64: Period]
    let exdateWalls: Set<Int64>
    let exdateDays: Set<Int>
    /// Overrides by the wall second of their RECURRENCE-ID.
    let overrideByKey: [Int64: Component]
    /// THISANDFUTURE overrides by RECURRENCE-ID, ascending, with their shift in wall seconds.
    let futureOverrides: [(key: Int64, shift: Int64, component: Component)]
    /// Whether DTSTART is an instance (RFC 5545 counts it; it is left out when it falls after
    /// the last UNTIL, as recurring-ical-events does).
    let includesStart: Bool
    /// The overrides that may be changes to an older version of the series, by the wall
    /// second of their RECURRENCE-ID: those carrying RRULE, RDATE or EXDATE with a lower
    /// SEQUENCE than the master's. Left out when their instance is not one of the series
    /// (`outdatedOverrides(floatingZone:)`).
    let outdatedCandidates: Set<Int64>

    /// A series from its components (all with the same UID).
    ///
    /// A calendar may hold several versions of the event: the newest master is the event, with
    /// its own RRULE, RDATE and EXDATE, and the others are left out (as recurring-ical-events
    /// and RFC 5546 §2.1.5 read them). Overrides are kept whatever their SEQUENCE: Google
    /// Calendar and Thunderbird raise the master's SEQUENCE without touching its overrides, so
    /// a lower SEQUENCE does not make an override older; of several for one instance the
    /// newest is kept, and the master's EXDATEs remove theirs. An override that carries its own
    /// RRULE, RDATE or EXDATE (a copy of an older master) with a lower SEQUENCE than the master,
    /// for an instance the master no longer has (a newer version ended the series earlier), is
    /// a change to that older version and left out, as recurring-ical-events leaves it out.
    /// - Parameters:
    ///   - components: the master and its overrides, in any order.
    ///   - resolver: the calendar's TZID resolver (its VTIMEZONEs, Windows names, aliases).
    public init(components: [Component], resolver: TimeZoneResolver) {
        let masters = components.filter { $0["RECURRENCE-ID"] == nil }
        let master = EventVersion.newest(of: masters).map { masters[$0] }
        let overrides = Self.newestOverrides(
            components.filter { $0["RECURRENCE-ID"] != nil }, master: master, resolver: resolver)
        self.uid = (master ?? overrides.first)?["UID"]?.text ?? ""
        self.master = master
        self.overrides = overrides
        self.resolver = resolver
        guard let master, let start = Self.times(of: master).start else {
            frame = nil; self.start = nil; rules = []; untils = []; startWall = 0; rdates = []; unreadableRules = []
            exdateWalls = []; exdateDays = []; periodByWall = [:]; overrideByKey = [:]; futureOverrides = [];
            includesStart = false; outdatedCandidates = []
            return
        }
        let frame = SeriesFrame(start: start, resolver: resolver)
        self.frame = frame
        self.start = start
        let event = EventRecurrence(master)
        unreadableRules = event.unreadableRules
        var ruleStart = start.local
        var compiled: [CompiledRule] = []
        var untils: [DateTimeValue?] = []
        for var rule in event.rules where !rule.usesNonGregorianScale {
            if start.isDate {
                // Time parts mean nothing for a series of whole days.
                rule.byHour = []; rule.byMinute = []; rule.bySecond = []
                ruleStart = LocalDateTime(date: start.date)
                if rule.frequency < .daily { rule.frequency = .daily }
            }
            compiled.append(CompiledRule(rule, start: ruleStart))
            untils.append(rule.until)
        }
        rules = compiled
        self.untils = untils
        startWall = frame.wall(of: start)
        rdates = event.dates.map { rdate in
            switch rdate {
            case .dateTime(let v): return (frame.wall(of: v), nil)
            case .period(let p): return (frame.wall(of: p.start), p)
            }
        }
        var periods: [Int64: Period] = [:]
        for r in rdates { if let p = r.period { periods[r.wall] = p } }
        periodByWall = periods
        var walls = Set<Int64>(), days = Set<Int>()
        for ex in event.exceptionDates {
            if ex.isDate && !start.isDate {
                days.insert(ex.date.daysSinceEpoch)
            } else if start.isDate && !ex.isDate && ex.local.time != .midnight {
                // A time other than midnight is no instance of a series of whole days: it
                // removes nothing (as recurring-ical-events reads it; lint says so).
                continue
            } else {
                walls.insert(frame.wall(of: ex))
            }
        }
        exdateWalls = walls
        exdateDays = days
        var byKey: [Int64: Component] = [:]
        var future: [(Int64, Int64, Component)] = []
        var candidates = Set<Int64>()
        let masterSequence = Self.sequence(of: master)
        for o in overrides {
            guard let rid = o["RECURRENCE-ID"]?.dateTime else { continue }
            let key = frame.wall(of: rid)
            byKey[key] = o
            if o["RECURRENCE-ID"]?[parameter: "RANGE"]?.uppercased() == "THISANDFUTURE" {
                let shift = Self.times(of: o).start.map { frame.wall(of: $0) - key } ?? 0
                future.append((key, shift, o))
            }
            if Self.sequence(of: o) < masterSequence, Self.carriesRules(o) {
                candidates.insert(key)
            }
        }
        outdatedCandidates = candidates
        overrideByKey = byKey
        futureOverrides = future.sorted { $0.0 < $1.0 }
        // DTSTART counts unless it lies after the last UNTIL.
        var startCounts = true
        let lastUntil = untils.compactMap { $0 }.map { frame.wall(of: $0) }.max()
        if let lastUntil, startWall > lastUntil, !compiled.isEmpty {
            startCounts = false
        }
        includesStart = startCounts
    }

    /// Of the overrides for one instance (their RECURRENCE-IDs name one instant, or one time of
    /// a floating series), the newest, at the place of the first; file order otherwise.
    static func newestOverrides(_ overrides: [Component], master: Component?, resolver: TimeZoneResolver) -> [Component]
    {
        guard overrides.count > 1 else { return overrides }
        let frame = master.flatMap { Self.times(of: $0).start }.map { SeriesFrame(start: $0, resolver: resolver) }
        var slot: [Int64: Int] = [:]
        var kept: [Component] = []
        for o in overrides {
            guard let rid = o["RECURRENCE-ID"]?.dateTime else { kept.append(o); continue }
            let key = frame?.wall(of: rid) ?? rid.local.secondsSinceEpoch
            if let i = slot[key] {
                if EventVersion(kept[i]) < EventVersion(o) { kept[i] = o }
            } else {
                slot[key] = kept.count
                kept.append(o)
            }
        }
        return kept
    }

    /// SEQUENCE for telling an override of an older version: a missing one counts as older than
    /// SEQUENCE:0, as recurring-ical-events counts it.
    static func sequence(of component: Component) -> Int { component["SEQUENCE"]?.integer ?? -1 }

    /// Whether `component` carries recurrence rules of its own (RRULE, RDATE or EXDATE): in an
    /// override, a copy of the master it was written against.
    static func carriesRules(_ component: Component) -> Bool {
        component.properties.contains { $0.name == "RRULE" || $0.name == "RDATE" || $0.name == "EXDATE" }
    }

    /// Whether the series recurs (has an RRULE or RDATE).
    public var isRecurring: Bool { !rules.isEmpty || !rdates.isEmpty }
}
