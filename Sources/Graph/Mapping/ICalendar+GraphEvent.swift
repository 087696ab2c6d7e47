import ICalendar

extension Component {
    /// What to send Graph for this VCALENDAR (one series, or one event): the master's body,
    /// a PATCH per override, the occurrences to delete, and what Graph does not hold.
    ///
    /// Refuses, naming the part and why, what Graph cannot hold at all: a component other than
    /// VEVENT (VTODO, VJOURNAL), several UIDs, overrides without a master, RDATE, EXRULE,
    /// several RRULEs, a rule outside Graph's six patterns (`RecurrenceRule.graphRecurrence`),
    /// a DTSTART the rule skips, floating times and zones without a Windows name,
    /// RANGE=THISANDFUTURE, a RECURRENCE-ID that is no occurrence, and an override moved onto
    /// or past a neighbouring occurrence's day (Graph's `ErrorOccurrenceCrossingBoundary`).
    /// See docs/graph-mapping.md for every property.
    ///
    /// - Parameter floatingTimeZone: the IANA zone floating times are read in; nil refuses them.
    /// - Returns: the write; its `master` encodes as the JSON body of a POST or PATCH.
    /// - Throws: `GraphMappingError`.
    public func graphEventWrite(floatingTimeZone: String? = nil) throws -> GraphEventWrite {
        let calendar = name == "VCALENDAR" ? self : Component(name: "VCALENDAR", components: [self])
        for other in calendar.components where !["VEVENT", "VTIMEZONE"].contains(other.name) {
            throw GraphMappingError.structure(other.name, "Graph's calendar holds events (VEVENT) only")
        }
        let events = calendar.components(named: "VEVENT")
        guard let first = events.first else { throw GraphMappingError.structure("VCALENDAR", "it holds no VEVENT") }
        let uid = first["UID"]?.text ?? ""
        guard !uid.isEmpty else { throw GraphMappingError.structure("UID", "the VEVENT has none") }
        if let stranger = events.first(where: { ($0["UID"]?.text ?? "") != uid }) {
            throw GraphMappingError.structure(
                "UID \(stranger["UID"]?.text ?? "")",
                "one Graph event (or series) holds one UID, this object has several")
        }
        let masters = events.filter { $0["RECURRENCE-ID"] == nil }
        guard masters.count == 1, let masterComponent = masters.first else {
            throw GraphMappingError.structure(
                masters.isEmpty ? "RECURRENCE-ID" : "VEVENT",
                masters.isEmpty
                    ? "overrides without their master: Graph makes occurrences only from a series"
                    : "several VEVENTs without RECURRENCE-ID share the UID")
        }
        var writer = GraphWriter(floatingTimeZone: floatingTimeZone)
        return try writer.write(
            uid: uid, master: masterComponent, overrides: events.filter { $0["RECURRENCE-ID"] != nil })
    }
}

/// The state of one write: how floating times are read, and the notes gathered.
struct GraphWriter {
    let floatingTimeZone: String?
    var notHeld: [GraphNotHeld] = []

    init(floatingTimeZone: String?) {
        self.floatingTimeZone = floatingTimeZone
    }

    mutating func write(uid: String, master c: Component, overrides: [Component]) throws -> GraphEventWrite {
        let times = try WriteTimes(c, writer: self)
        var master = try content(of: c, times: times, recurrenceID: nil)
        master.singleValueExtendedProperties = [GraphExtendedProperty(id: GraphExtendedProperty.uidID, value: uid)]
        if c.properties(named: "RDATE").first != nil {
            throw GraphMappingError.recurrence("RDATE", "Graph adds no dates beyond its pattern")
        }
        if c.properties(named: "EXRULE").first != nil {
            throw GraphMappingError.recurrence("EXRULE", "Graph removes occurrences one at a time only")
        }
        let rules = c.properties(named: "RRULE")
        if rules.count > 1 { throw GraphMappingError.recurrence("RRULE", "Graph has one pattern per series") }
        var recurrence: GraphPatternedRecurrence?
        if let text = rules.first?.value {
            let rule: RecurrenceRule
            do { rule = try RecurrenceRule(parsing: text, tzid: times.start.tzid) } catch {
                throw GraphMappingError.recurrence("RRULE:\(text)", "\(error)")
            }
            let r = try rule.graphRecurrence(
                start: times.start, zone: times.isAllDay ? nil : times.zone,
                recurrenceTimeZone: times.isAllDay ? nil : times.windowsZone)
            recurrence = r
            master.recurrence = r
        }
        var cancelled: [GraphOccurrenceStart] = []
        var patches: [GraphOccurrenceWrite] = []
        if let recurrence {
            let dates = SeriesDates(recurrence)
            for exdate in c.properties(named: "EXDATE").flatMap(\.dateTimes) {
                let occurrence = times.occurrence(exdate)
                guard dates.contains(occurrence.date) else {
                    notHeld.append(GraphNotHeld("EXDATE:\(exdate)", "not an occurrence of the series; left out"))
                    continue
                }
                cancelled.append(occurrence)
            }
            for o in overrides {
                let (occurrence, patch) = try override(o, master: master, times: times, dates: dates)
                if let patch {
                    patches.append(GraphOccurrenceWrite(occurrence: occurrence, patch: patch))
                } else {
                    cancelled.append(occurrence)
                }
            }
        } else if let o = overrides.first {
            throw GraphMappingError.structure(
                "RECURRENCE-ID:\(o["RECURRENCE-ID"]?.value ?? "")", "the master has no RRULE: no occurrence to override"
            )
        }
        return GraphEventWrite(uid: uid, master: master, overrides: patches, cancelled: cancelled, notHeld: notHeld)
    }

    /// One override: its occurrence, and its PATCH (nil when it cancels the occurrence).
    private mutating func override(
        _ o: Component, master: GraphEvent, times: WriteTimes, dates: SeriesDates
    ) throws -> (GraphOccurrenceStart, GraphEvent?) {
        let property = o["RECURRENCE-ID"]!
        if property[parameter: "RANGE"]?.uppercased() == "THISANDFUTURE" {
            throw GraphMappingError.structure(
                "RECURRENCE-ID;RANGE=THISANDFUTURE", "Graph edits one occurrence at a time, never the rest of a series")
        }
        guard var value = property.dateTime else {
            throw GraphMappingError.structure("RECURRENCE-ID:\(property.value)", "it is not a date or date-time")
        }
        if value.form == .floating, let tzid = times.start.tzid { value.form = .zoned(tzid: tzid) }
        let occurrence = times.occurrence(value)
        guard dates.contains(occurrence.date) else {
            throw GraphMappingError.structure(
                "RECURRENCE-ID:\(property.value)", "no occurrence of the series falls on \(occurrence.date.isoString)")
        }
        if o["STATUS"]?.value.uppercased() == "CANCELLED" { return (occurrence, nil) }
        let ownTimes = try WriteTimes(o, writer: self)
        let day = times.seriesDate(of: ownTimes)
        let (before, after) = dates.neighbours(of: occurrence.date)
        if let before, day <= before {
            throw GraphMappingError.structure(
                "RECURRENCE-ID:\(property.value)",
                "the occurrence moves to \(day.isoString), onto or before the previous one (\(before.isoString))")
        }
        if let after, day >= after {
            throw GraphMappingError.structure(
                "RECURRENCE-ID:\(property.value)",
                "the occurrence moves to \(day.isoString), onto or past the next one (\(after.isoString))")
        }
        var patch = try content(of: o, times: ownTimes, recurrenceID: property.value)
        patch.keepOnlyDifferences(from: master)
        return (occurrence, patch)
    }
}
