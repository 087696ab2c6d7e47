import ICalendar

extension Series {
    /// The occurrences whose [start, end) overlaps [from, to), sorted by start.
    ///
    /// - Parameters:
    ///   - from: the window's start, seconds since the epoch (UTC).
    ///   - to: the window's end (exclusive).
    ///   - floatingZone: the zone floating times and dates are read in (the reader's zone).
    ///   - limit: at most this many occurrences (bounds the work of absurd rules).
    /// - Returns: occurrences from the master's instances, minus EXDATEs and cancelled
    ///   overrides, with overrides in place of the instances they replace.
    public func occurrences(from: Int64, to: Int64, floatingZone: any ZoneRules = FixedOffsetZone.utc,
                            limit: Int = 1_000_000) -> [Occurrence] {
        var result: [Occurrence] = []
        if let frame, let start, let master {
            let clock = frame.clock(floating: floatingZone)
            let reach = maximumLength(floatingZone: floatingZone)
            let shifts = futureOverrides.map { abs($0.shift) }.max() ?? 0
            let wallFrom = clock.local(atUTC: from - reach).secondsSinceEpoch - 86_400 - shifts
            let wallTo = clock.local(atUTC: to).secondsSinceEpoch + 86_400 + shifts
            let keys = instanceKeys(wallFrom: wallFrom, wallTo: wallTo, limit: limit, clock: clock)
            for key in keys {
                if overrideByKey[key] != nil { continue }
                var component = master
                var startWall = key
                if let future = futureOverride(before: key) {
                    component = future.component
                    startWall = key + future.shift
                }
                let occurrence = makeOccurrence(component: component, recurrenceID: isRecurring ? frame.value(wall: key) : nil,
                                                startWall: startWall, startForm: start.form, frame: frame, clock: clock,
                                                floatingZone: floatingZone)
                if occurrence.overlaps(from: from, to: to) { result.append(occurrence) }
                if result.count >= limit { break }
            }
        }
        // Overrides appear at their own time, wherever their original slot was.
        for o in overrides {
            guard (o["STATUS"]?.text.uppercased() ?? "") != "CANCELLED", let oStart = o["DTSTART"]?.dateTime else { continue }
            let oFrame = SeriesFrame(start: oStart, resolver: frame?.resolver ?? TimeZoneResolver())
            let rid = o["RECURRENCE-ID"]?.dateTime
            if let rid, let frame, isExcluded(frame.wall(of: rid)) { continue }
            let occurrence = makeOccurrence(component: o, recurrenceID: rid.map { frame?.value(wall: frame!.wall(of: $0)) ?? $0 },
                                            startWall: oStart.local.secondsSinceEpoch, startForm: oStart.form, frame: oFrame,
                                            clock: oFrame.clock(floating: floatingZone), floatingZone: floatingZone)
            if occurrence.overlaps(from: from, to: to) { result.append(occurrence) }
        }
        result.sort { $0.startInstant != $1.startInstant ? $0.startInstant < $1.startInstant : $0.endInstant < $1.endInstant }
        return result
    }

    /// Whether an instance (wall second of the frame) is removed by an EXDATE.
    func isExcluded(_ key: Int64) -> Bool {
        if exdateWalls.contains(key) { return true }
        if !exdateDays.isEmpty && exdateDays.contains(Int(floorDiv64(key, 86_400))) { return true }
        return false
    }

    /// The master's instance starts (wall seconds of the frame) in [wallFrom, wallTo], sorted,
    /// without duplicates and without EXDATEs; overridden ones included.
    func instanceKeys(wallFrom: Int64, wallTo: Int64, limit: Int, clock: any ZoneRules) -> [Int64] {
        var keys: [Int64] = []
        if includesStart && startWall >= wallFrom && startWall <= wallTo { keys.append(startWall) }
        for r in rdates where r.wall >= wallFrom && r.wall <= wallTo { keys.append(r.wall) }
        let from = LocalDateTime(secondsSinceEpoch: wallFrom), to = LocalDateTime(secondsSinceEpoch: wallTo)
        for (i, rule) in rules.enumerated() {
            var iterator = RuleIterator(rule, from: from, stopAfter: to, isPastUntil: untilCheck(untils[i], clock: clock))
            var produced = 0
            while let v = iterator.nextSeconds() {
                if v >= wallFrom { keys.append(v); produced += 1 }
                if produced >= limit { break }
            }
        }
        keys.sort()
        var unique: [Int64] = []
        unique.reserveCapacity(keys.count)
        for k in keys where unique.last != k && !isExcluded(k) { unique.append(k) }
        return unique
    }

    /// How UNTIL ends a rule: compared as an instant when UNTIL is UTC and DTSTART zoned
    /// (RFC 5545 §3.3.10), else on the wall clock.
    func untilCheck(_ until: DateTimeValue?, clock: any ZoneRules) -> (@Sendable (Int64) -> Bool)? {
        guard let until, let frame else { return nil }
        if until.form == .utc, case .zoned = frame.form, frame.zone != nil {
            let limit = until.local.secondsSinceEpoch
            let zone = clock
            return { zone.utc(forLocal: LocalDateTime(secondsSinceEpoch: $0)) > limit }
        }
        if until.isDate && !frame.isDate {
            let limit = until.local.secondsSinceEpoch
            return { $0 > limit }
        }
        let limit = frame.wall(of: until)
        return { $0 > limit }
    }

    /// The THISANDFUTURE override in force for an instance, if any.
    func futureOverride(before key: Int64) -> (key: Int64, shift: Int64, component: Component)? {
        var found: (key: Int64, shift: Int64, component: Component)? = nil
        for f in futureOverrides where f.key <= key { found = f }
        return found
    }

    /// The longest an occurrence of the series lasts (seconds), for widening the window.
    func maximumLength(floatingZone: any ZoneRules) -> Int64 {
        var longest: Int64 = 0
        for c in [master].compactMap({ $0 }) + overrides {
            let e = Event(c)
            if let d = e.duration { longest = max(longest, abs(d.approximateSeconds) + 7200) }
            if let s = e.start, let end = e.end {
                longest = max(longest, abs(end.local.secondsSinceEpoch - s.local.secondsSinceEpoch) + 86_400)
            }
            if s_isDate(e) { longest = max(longest, 86_400) }
        }
        for r in rdates {
            if let p = r.period {
                switch p.extent {
                case .duration(let d): longest = max(longest, abs(d.approximateSeconds) + 7200)
                case .end(let end): longest = max(longest, abs(end.local.secondsSinceEpoch - p.start.local.secondsSinceEpoch) + 86_400)
                }
            }
        }
        return longest
    }

    private func s_isDate(_ e: Event) -> Bool { e.start?.isDate ?? false }

    /// Builds one occurrence from a component's DTSTART / DTEND / DURATION, started at
    /// `startWall` in `frame`.
    func makeOccurrence(component: Component, recurrenceID: DateTimeValue?, startWall: Int64, startForm: DateTimeValue.Form,
                        frame: SeriesFrame, clock: any ZoneRules, floatingZone: any ZoneRules) -> Occurrence {
        let startValue = frame.value(wall: startWall)
        let startInstant = frame.isDate || startForm == .floating || frame.isFloating
            ? floatingZone.utc(forLocal: LocalDateTime(secondsSinceEpoch: startWall))
            : clock.utc(forLocal: LocalDateTime(secondsSinceEpoch: startWall))
        var endValue = startValue
        var endInstant = startInstant
        let dtstart = component["DTSTART"]?.dateTime
        // A PERIOD RDATE brings its own end.
        let period = rdates.first { $0.wall == startWall && $0.period != nil }?.period
        if let period, component == master {
            switch period.extent {
            case .duration(let d): (endValue, endInstant) = add(d, toWall: startWall, instant: startInstant, frame: frame, clock: clock)
            case .end(let end):
                endInstant = frame.instant(of: end, floating: floatingZone)
                endValue = end
            }
        } else if let end = (component["DTEND"] ?? component["DUE"])?.dateTime, let dtstart {
            if end.form == dtstart.form {
                let wall = startWall + (end.local.secondsSinceEpoch - dtstart.local.secondsSinceEpoch)
                endValue = frame.value(wall: wall)
                endInstant = frame.isDate || frame.isFloating
                    ? floatingZone.utc(forLocal: LocalDateTime(secondsSinceEpoch: wall))
                    : clock.utc(forLocal: LocalDateTime(secondsSinceEpoch: wall))
            } else {
                let delta = frame.instant(of: end, floating: floatingZone) - frame.instant(of: dtstart, floating: floatingZone)
                endInstant = startInstant + delta
                let endFrame = SeriesFrame(start: end, resolver: frame.resolver)
                endValue = endFrame.value(wall: endFrame.clock(floating: floatingZone).local(atUTC: endInstant).secondsSinceEpoch)
            }
        } else if let d = component["DURATION"]?.duration {
            (endValue, endInstant) = add(d, toWall: startWall, instant: startInstant, frame: frame, clock: clock)
        } else if frame.isDate {
            endValue = DateTimeValue(date: startValue.date.adding(days: 1))
            endInstant = floatingZone.utc(forLocal: endValue.local)
        }
        return Occurrence(uid: uid, recurrenceID: recurrenceID, start: startValue, end: endValue,
                          startInstant: startInstant, endInstant: endInstant, component: component)
    }

    /// A DURATION added as RFC 5545 §3.3.6 says: weeks and days on the wall clock, hours,
    /// minutes and seconds as elapsed time.
    func add(_ d: ICalDuration, toWall wall: Int64, instant: Int64, frame: SeriesFrame, clock: any ZoneRules) -> (DateTimeValue, Int64) {
        let nominalWall = wall + Int64(d.nominalDays) * 86_400
        if frame.isDate {
            let v = frame.value(wall: nominalWall + d.exactSeconds)
            return (v, clock.utc(forLocal: v.local))
        }
        let base = d.nominalDays == 0 ? instant : clock.utc(forLocal: LocalDateTime(secondsSinceEpoch: nominalWall))
        let endInstant = base + d.exactSeconds
        return (frame.value(wall: clock.local(atUTC: endInstant).secondsSinceEpoch), endInstant)
    }
}
