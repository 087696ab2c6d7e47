import ICalendar

extension BusyBlocks {
    /// A block's events (the series first, then its overrides) with each occurrence cut to the
    /// projection's hours in the reader's zone: a meeting 08:00–10:00 blocks 09:00–10:00 of
    /// 09:00–17:00. When the series' start moves, its EXDATEs, RDATEs and the overrides'
    /// RECURRENCE-IDs move with it, so that they still name its occurrences. Empty when the
    /// series lies wholly outside the hours; an all-day or a several-day event is kept whole.
    func withinHours(_ events: [Component], hours: (start: Int, end: Int)) -> [Component] {
        guard var master = events.first else { return [] }
        guard let (cut, shift) = clipped(master, hours) else { return [] }
        master = cut
        var out = [shifted(master, by: shift, names: ["EXDATE", "RDATE"])]
        for override in events.dropFirst() {
            guard let (clippedOverride, _) = clipped(override, hours) else {
                // An occurrence outside the hours blocks nothing: its key becomes an EXDATE.
                if let rid = override["RECURRENCE-ID"] {
                    out[0].properties.append(Property(name: "EXDATE", parameters: rid.parameters, value: rid.value))
                    out[0] = shifted(out[0], by: shift, names: [], lastExdate: true)
                }
                continue
            }
            out.append(shifted(clippedOverride, by: shift, names: ["RECURRENCE-ID"]))
        }
        return out
    }

    /// `event` cut to `hours` on the day it starts, and how far its start moved (local seconds);
    /// nil when nothing of it is within them. Kept as it is: a date, a time in a zone not
    /// known, and an event over several days.
    func clipped(_ event: Component, _ hours: (start: Int, end: Int)) -> (Component, Int64)? {
        guard let start = event["DTSTART"]?.dateTime, !start.isDate else { return (event, 0) }
        let resolver = TimeZoneResolver()
        func rules(_ value: DateTimeValue) -> (any ZoneRules)? {
            switch value.form {
            case .utc: FixedOffsetZone.utc
            case .zoned(let tzid): resolver.zone(for: tzid)
            case .floating, .date: zone
            }
        }
        guard let own = rules(start) else { return (event, 0) }
        let from = own.utc(forLocal: start.local)
        let length =
            event["DTEND"]?.dateTime.flatMap { end in rules(end).map { $0.utc(forLocal: end.local) - from } }
            ?? event["DURATION"]?.duration?.approximateSeconds ?? 0
        let day = zone.local(atUTC: from).date
        let window = (
            zone.utc(forLocal: LocalDateTime(date: day, time: LocalTime(hour: 0, minute: 0, second: 0)))
                + Int64(hours.start * 60),
            zone.utc(forLocal: LocalDateTime(date: day, time: LocalTime(hour: 0, minute: 0, second: 0)))
                + Int64(hours.end * 60)
        )
        guard length < 86_400 else { return (event, 0) }
        let newStart = max(from, window.0), newEnd = min(from + length, window.1)
        guard newEnd > newStart else { return nil }
        var cut = event
        let startLocal = own.local(atUTC: newStart)
        cut.set(Property.dateTime("DTSTART", DateTimeValue(startLocal, form: start.form)))
        cut.properties.removeAll { $0.name == "DURATION" || $0.name == "DTEND" }
        cut.properties.append(Property.dateTime("DTEND", DateTimeValue(own.local(atUTC: newEnd), form: start.form)))
        return (cut, startLocal.secondsSinceEpoch - start.local.secondsSinceEpoch)
    }

    /// `event` with the values of the properties `names` moved by `shift` local seconds (the
    /// last EXDATE only, with `lastExdate`).
    func shifted(_ event: Component, by shift: Int64, names: Set<String>, lastExdate: Bool = false) -> Component {
        guard shift != 0 else { return event }
        var out = event
        let targets = out.properties.indices.filter { names.contains(out.properties[$0].name) }
        let chosen =
            lastExdate
            ? Array(out.properties.indices.filter { out.properties[$0].name == "EXDATE" }.suffix(1)) : targets
        for index in chosen {
            let line = out.properties[index]
            let values = line.dateTimes.map { value -> String in
                value.isDate
                    ? value.description
                    : DateTimeValue(value.local.adding(seconds: shift), form: value.form).description
            }
            out.properties[index].value = values.joined(separator: ",")
        }
        return out
    }
}
