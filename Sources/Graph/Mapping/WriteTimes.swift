import ICalendar

/// DTSTART and DTEND of a VEVENT as Graph takes them: a wall-clock time and a Windows zone
/// name, or midnights in UTC for an all-day event.
struct WriteTimes {
    /// DTSTART, a floating time read in the writer's floating zone.
    var start: DateTimeValue
    var end: DateTimeValue
    /// The start's zone; UTC for an all-day event.
    var zone: any ZoneRules
    /// The Graph (Windows) name of the start's zone; `UTC` for an all-day event.
    var windowsZone: String
    var graphStart: GraphDateTimeZone
    var graphEnd: GraphDateTimeZone

    var isAllDay: Bool { start.isDate }

    init(_ c: Component, writer: GraphWriter) throws {
        guard let dtstart = c["DTSTART"], let s = dtstart.dateTime else {
            throw GraphMappingError.structure("DTSTART", "the VEVENT has none Graph can read")
        }
        if s.isDate {
            start = s
            var last = s.date.adding(days: 1)
            if let e = c["DTEND"]?.dateTime, e.date > s.date {
                last = e.date
            } else if let d = c["DURATION"]?.duration, d.nominalDays > 0 {
                last = s.date.adding(days: d.nominalDays)
            }
            end = DateTimeValue(date: last)
            zone = FixedOffsetZone.utc
            windowsZone = "UTC"
            graphStart = GraphDateTimeZone(s.local, timeZone: "UTC")
            graphEnd = GraphDateTimeZone(end.local, timeZone: "UTC")
            return
        }
        let (startValue, startZone, startName) = try Self.place(s, property: dtstart, writer: writer)
        start = startValue
        zone = startZone
        windowsZone = startName
        graphStart = GraphDateTimeZone(startValue.local, timeZone: startName)
        if let dtend = c["DTEND"], let e = dtend.dateTime, !e.isDate {
            let (endValue, _, endName) = try Self.place(e, property: dtend, writer: writer)
            end = endValue
            graphEnd = GraphDateTimeZone(endValue.local, timeZone: endName)
        } else {
            var instant = startZone.utc(forLocal: startValue.local)
            if let d = c["DURATION"]?.duration {
                let day = LocalDateTime(
                    date: startValue.local.date.adding(days: d.nominalDays), time: startValue.local.time)
                instant = startZone.utc(forLocal: day) + d.exactSeconds
            }
            end = DateTimeValue(startZone.local(atUTC: instant), form: startValue.form)
            graphEnd = GraphDateTimeZone(end.local, timeZone: startName)
        }
    }

    /// A DATE-TIME's value (floating made zoned), its zone, and the zone's Graph name.
    private static func place(_ value: DateTimeValue, property: Property, writer: GraphWriter) throws
        -> (DateTimeValue, any ZoneRules, String)
    {
        var value = value
        let part = "\(property.name)\(property.tzid.map { ";TZID=\($0)" } ?? ""):\(property.value)"
        switch value.form {
        case .utc:
            return (value, FixedOffsetZone.utc, "UTC")
        case .floating:
            guard let floating = writer.floatingTimeZone else {
                throw GraphMappingError.timeZone(part, "a floating time; Graph places every time in a named zone")
            }
            value.form = .zoned(tzid: floating)
        default: break
        }
        let tzid = value.tzid!
        guard let iana = TimeZoneResolver.ianaIdentifier(for: tzid), let rules = GraphZones.rules(iana) else {
            throw GraphMappingError.timeZone(
                part, "'\(tzid)' is no zone Graph knows by name (a custom VTIMEZONE); Graph takes named zones only")
        }
        guard let windows = GraphZones.windowsName(forIANA: iana, year: value.local.date.year) else {
            throw GraphMappingError.timeZone(part, "no Windows zone keeps \(iana)'s clock")
        }
        return (value, rules, windows)
    }

    /// The occurrence a RECURRENCE-ID or EXDATE names: its instant and its date in the series'
    /// zone. A DATE names the occurrence on that day.
    func occurrence(_ value: DateTimeValue) -> GraphOccurrenceStart {
        if isAllDay {
            let midnight = LocalDateTime(date: value.date)
            return GraphOccurrenceStart(recurrenceID: value, originalStart: midnight.isoString + "Z", date: value.date)
        }
        let instant: Int64
        switch value.form {
        case .utc: instant = value.local.secondsSinceEpoch
        case .date: instant = zone.utc(forLocal: LocalDateTime(date: value.date, time: start.local.time))
        case .floating: instant = zone.utc(forLocal: value.local)
        case .zoned(let tzid):
            let rules = TimeZoneResolver.ianaIdentifier(for: tzid).flatMap(GraphZones.rules) ?? zone
            instant = rules.utc(forLocal: value.local)
        }
        return GraphOccurrenceStart(
            recurrenceID: value, originalStart: LocalDateTime(secondsSinceEpoch: instant).isoString + "Z",
            date: zone.local(atUTC: instant).date)
    }

    /// The date, in this series' zone, that `other` (an override's times) starts on.
    func seriesDate(of other: WriteTimes) -> LocalDate {
        if isAllDay || other.isAllDay { return other.start.date }
        return zone.local(atUTC: other.zone.utc(forLocal: other.start.local)).date
    }
}

/// The occurrence dates of a Graph series, looked up by scanning from its start.
struct SeriesDates {
    let recurrence: GraphPatternedRecurrence

    init(_ recurrence: GraphPatternedRecurrence) { self.recurrence = recurrence }

    func contains(_ date: LocalDate) -> Bool {
        var found = false
        recurrence.forEachOccurrenceDate { d in
            if d == date { found = true }
            return d < date
        }
        return found
    }

    /// The occurrence dates just before and just after `date`.
    func neighbours(of date: LocalDate) -> (before: LocalDate?, after: LocalDate?) {
        var before: LocalDate?
        var after: LocalDate?
        recurrence.forEachOccurrenceDate { d in
            if d < date { before = d; return true }
            if d > date { after = d; return false }
            return true
        }
        return (before, after)
    }
}
