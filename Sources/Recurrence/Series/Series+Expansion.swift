import ICalendar

extension Series {
    /// The occurrences whose [start, end) overlaps [from, to), sorted by start.
    ///
    /// - Parameters:
    ///   - from: the window's start, seconds since the epoch (UTC).
    ///   - to: the window's end (exclusive).
    ///   - floatingZone: the zone floating times and dates are read in (the reader's zone).
    ///   - limit: at most this many occurrences (bounds the work of absurd rules).
    ///   - includeCancelled: keep overrides with STATUS:CANCELLED as occurrences (as
    ///     recurring-ical-events does) instead of hiding their instance.
    /// - Returns: occurrences from the master's instances, minus EXDATEs and cancelled
    ///   overrides, with overrides in place of the instances they replace.
    public func occurrences(
        from: Int64, to: Int64, floatingZone: any ZoneRules = FixedOffsetZone.utc,
        limit: Int = 1_000_000, includeCancelled: Bool = false
    ) -> [Occurrence] {
        var result: [Occurrence] = []
        if let frame, let master {
            let clock = CachedClock(frame.clock(floating: floatingZone))
            let reach = maximumLength(floatingZone: floatingZone)
            let shifts = futureOverrides.map { abs($0.shift) }.max() ?? 0
            let wallFrom = clock.local(atUTC: from - reach).secondsSinceEpoch - 86_400 - shifts
            let masterEnd = EndSpec(component: master, frame: frame, floatingZone: floatingZone)
            // An end before the start makes occurrences start before their instance.
            let lead = endsBeforeStart(masterEnd, frame: frame, floatingZone: floatingZone) ? reach : 0
            let wallTo = clock.local(atUTC: to).secondsSinceEpoch + 86_400 + shifts + lead
            let keys = instanceKeys(wallFrom: wallFrom, wallTo: wallTo, limit: limit, clock: clock)
            let masterShape = Occurrence.Shape(
                uid: uid, component: master, startForm: frame.form,
                endForm: endForm(masterEnd, frame: frame), recurrenceForm: frame.form)
            var futureEnds: [Int64: (EndSpec, Occurrence.Shape)] = [:]
            let hasOverrides = !overrideByKey.isEmpty, hasFuture = !futureOverrides.isEmpty,
                hasPeriods = !periodByWall.isEmpty
            let recurring = isRecurring
            for key in keys {
                if hasOverrides && overrideByKey[key] != nil { continue }
                var startWall = key
                var end = masterEnd
                var shape = masterShape
                var fromMaster = true
                if hasFuture, let future = futureOverride(before: key) {
                    fromMaster = false
                    startWall = frame.canonical(key + future.shift, clock: clock)
                    if let e = futureEnds[future.key] {
                        (end, shape) = e
                    } else {
                        end = EndSpec(component: future.component, frame: frame, floatingZone: floatingZone)
                        shape = Occurrence.Shape(
                            uid: uid, component: future.component, startForm: frame.form,
                            endForm: endForm(end, frame: frame), recurrenceForm: frame.form)
                        futureEnds[future.key] = (end, shape)
                    }
                }
                let period = hasPeriods && fromMaster ? periodByWall[key] : nil
                let occurrence = makeOccurrence(
                    shape: shape, recurrenceWall: recurring ? key : nil,
                    startWall: startWall, end: end, period: period, frame: frame, clock: clock,
                    floatingZone: floatingZone)
                if occurrence.overlaps(from: from, to: to) { result.append(occurrence) }
                if result.count >= limit { break }
            }
        }
        // Overrides appear at their own time, wherever their original slot was.
        for o in overrides {
            guard includeCancelled || (o["STATUS"]?.text.uppercased() ?? "") != "CANCELLED",
                let oStart = Self.times(of: o).start
            else { continue }
            let oFrame = SeriesFrame(start: oStart, resolver: resolver)
            let rid = o["RECURRENCE-ID"]?.dateTime
            if let rid, let frame {
                let key = frame.wall(of: rid)
                if isExcluded(key) || isOutdated(key, floatingZone: floatingZone) { continue }
            }
            let end = EndSpec(component: o, frame: oFrame, floatingZone: floatingZone)
            let ridWall = rid.map { frame?.wall(of: $0) ?? $0.local.secondsSinceEpoch }
            let shape = Occurrence.Shape(
                uid: uid, component: o, startForm: oFrame.form, endForm: endForm(end, frame: oFrame),
                recurrenceForm: frame?.form ?? rid?.form ?? oFrame.form)
            let occurrence = makeOccurrence(
                shape: shape, recurrenceWall: ridWall, startWall: oFrame.wall(of: oStart),
                end: end, period: nil,
                frame: oFrame, clock: oFrame.clock(floating: floatingZone), floatingZone: floatingZone)
            if occurrence.overlaps(from: from, to: to) { result.append(occurrence) }
        }
        result.sort {
            $0.startInstant != $1.startInstant ? $0.startInstant < $1.startInstant : $0.endInstant < $1.endInstant
        }
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
    ///
    /// In a zoned frame each start is its key (`SeriesFrame.canonical`): a rule's time in a DST
    /// gap becomes the time after the gap, and when that is also an instance the two count once
    /// (RFC 5545 §3.8.5.3).
    func instanceKeys(wallFrom: Int64, wallTo: Int64, limit: Int, clock: any ZoneRules) -> [Int64] {
        var keys: [Int64] = []
        if includesStart && startWall >= wallFrom && startWall <= wallTo { keys.append(startWall) }
        for r in rdates where r.wall >= wallFrom && r.wall <= wallTo { keys.append(r.wall) }
        let from = LocalDateTime(secondsSinceEpoch: wallFrom), to = LocalDateTime(secondsSinceEpoch: wallTo)
        let keyFrame = frame.flatMap { $0.isZoned ? $0 : nil }
        for (i, rule) in rules.enumerated() {
            var iterator = RuleIterator(
                rule, from: from, stopAfter: to, isPastUntil: untilCheck(untils[i], clock: clock))
            var produced = 0
            while let v = iterator.nextSeconds() {
                if v >= wallFrom {
                    keys.append(keyFrame?.canonical(v, clock: clock) ?? v)
                    produced += 1
                }
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
            // As `Event` reads them, without reading the rest (its rules) on every query.
            let start = c["DTSTART"]?.dateTime
            if let d = c["DURATION"]?.duration { longest = max(longest, abs(d.approximateSeconds) + 7200) }
            if let s = start, let end = (c["DTEND"] ?? c["DUE"])?.dateTime {
                longest = max(longest, abs(end.local.secondsSinceEpoch - s.local.secondsSinceEpoch) + 86_400)
            }
            if start?.isDate ?? false { longest = max(longest, 86_400) }
        }
        for r in rdates {
            if let p = r.period {
                switch p.extent {
                case .duration(let d): longest = max(longest, abs(d.approximateSeconds) + 7200)
                case .end(let end):
                    longest = max(longest, abs(end.local.secondsSinceEpoch - p.start.local.secondsSinceEpoch) + 86_400)
                }
            }
        }
        return longest
    }

    /// How a component's occurrences end, read once per component and query.
    struct EndSpec {
        enum Kind {
            case none
            /// DTEND in DTSTART's floating, date or UTC form: the same wall-clock distance.
            case wallDelta(Int64)
            /// DTEND of a zoned DTSTART, or in another form: the same elapsed time as from
            /// DTSTART to DTEND (RFC 5545 §3.8.5.3: "the same exact duration"), shown in DTEND's
            /// frame.
            case exactDelta(Int64, endFrame: SeriesFrame)
            case duration(ICalDuration)
        }
        let kind: Kind

        init(component: Component, frame: SeriesFrame, floatingZone: any ZoneRules) {
            let (dtstart, end) = Series.times(of: component)
            if let end, let dtstart {
                if end.form == dtstart.form && !frame.isZoned {
                    kind = .wallDelta(end.local.secondsSinceEpoch - dtstart.local.secondsSinceEpoch)
                } else {
                    let delta =
                        frame.instant(of: end, floating: floatingZone)
                        - frame.instant(of: dtstart, floating: floatingZone)
                    kind = .exactDelta(delta, endFrame: SeriesFrame(start: end, resolver: frame.resolver))
                }
            } else if let d = component["DURATION"]?.duration {
                kind = .duration(d)
            } else {
                kind = .none
            }
        }
    }

    /// Whether the master (or a RANGE=THISANDFUTURE override) ends before it starts, so that
    /// its occurrences, start and end swapped, begin before their instance.
    func endsBeforeStart(_ masterEnd: EndSpec, frame: SeriesFrame, floatingZone: any ZoneRules) -> Bool {
        let ends =
            [masterEnd]
            + futureOverrides.map { EndSpec(component: $0.component, frame: frame, floatingZone: floatingZone) }
        return ends.contains { end in
            switch end.kind {
            case .none: return false
            case .wallDelta(let delta), .exactDelta(let delta, _): return delta < 0
            case .duration(let d): return d.approximateSeconds < 0
            }
        }
    }

    /// The form of the ends a spec produces in `frame`.
    func endForm(_ end: EndSpec, frame: SeriesFrame) -> DateTimeValue.Form {
        if case .exactDelta(_, let endFrame) = end.kind { return endFrame.form }
        return frame.form
    }

    /// Builds one occurrence started at `startWall` in `frame`, ending as `end` says (or as
    /// the RDATE PERIOD starting there says).
    func makeOccurrence(
        shape: Occurrence.Shape, recurrenceWall: Int64?, startWall: Int64, end: EndSpec,
        period: Period?, frame: SeriesFrame, clock: any ZoneRules, floatingZone: any ZoneRules
    ) -> Occurrence {
        let startInstant = clock.utc(forLocal: LocalDateTime(secondsSinceEpoch: startWall))
        var endWall = startWall
        var endInstant = startInstant
        var shape = shape
        if let period {
            switch period.extent {
            case .duration(let d):
                (endWall, endInstant) = add(d, toWall: startWall, instant: startInstant, frame: frame, clock: clock)
            case .end(let end):
                endInstant = frame.instant(of: end, floating: floatingZone)
                endWall = SeriesFrame(start: end, resolver: frame.resolver).wall(of: end)
                if end.form != shape.endForm {
                    shape = Occurrence.Shape(
                        uid: shape.uid, component: shape.component, startForm: shape.startForm,
                        endForm: end.form, recurrenceForm: shape.recurrenceForm)
                }
            }
        } else {
            switch end.kind {
            case .wallDelta(let delta):
                endWall = startWall + delta
                endInstant = delta == 0 ? startInstant : clock.utc(forLocal: LocalDateTime(secondsSinceEpoch: endWall))
                // A floating start in the reader's DST gap moves forward; its end must not
                // fall before it.
                if delta > 0 { endInstant = max(endInstant, startInstant) }
            case .exactDelta(let delta, let endFrame):
                endInstant = startInstant + delta
                endWall = endFrame.clock(floating: floatingZone).local(atUTC: endInstant).secondsSinceEpoch
            case .duration(let d):
                (endWall, endInstant) = add(d, toWall: startWall, instant: startInstant, frame: frame, clock: clock)
            case .none:
                if frame.isDate {
                    endWall = startWall + 86_400
                    endInstant = clock.utc(forLocal: LocalDateTime(secondsSinceEpoch: endWall))
                }
            }
        }
        if endInstant < startInstant {
            return swapped(
                startWall: startWall, endWall: endWall, startInstant: startInstant, endInstant: endInstant,
                recurrenceWall: recurrenceWall, shape: shape)
        }
        return Occurrence(
            startWall: startWall, endWall: endWall, recurrenceWall: recurrenceWall,
            startInstant: startInstant, endInstant: endInstant, shape: shape)
    }

    /// An occurrence whose end (DTEND, or a negative DURATION) comes before its start, read as
    /// running from the earlier time to the later, as recurring-ical-events reads it (lint
    /// says so). The instance keeps its RECURRENCE-ID, DTSTART's time, which EXDATEs and
    /// overrides name.
    func swapped(
        startWall: Int64, endWall: Int64, startInstant: Int64, endInstant: Int64, recurrenceWall: Int64?,
        shape: Occurrence.Shape
    ) -> Occurrence {
        let turned =
            shape.startForm == shape.endForm
            ? shape
            : Occurrence.Shape(
                uid: shape.uid, component: shape.component, startForm: shape.endForm, endForm: shape.startForm,
                recurrenceForm: shape.recurrenceForm)
        return Occurrence(
            startWall: endWall, endWall: startWall, recurrenceWall: recurrenceWall,
            startInstant: endInstant, endInstant: startInstant, shape: turned)
    }

    /// A DURATION added as RFC 5545 §3.3.6 says: weeks and days on the wall clock, hours,
    /// minutes and seconds as elapsed time.
    func add(_ d: ICalDuration, toWall wall: Int64, instant: Int64, frame: SeriesFrame, clock: any ZoneRules) -> (
        Int64, Int64
    ) {
        let nominalWall = wall + Int64(d.nominalDays) * 86_400
        if frame.isDate {
            // Whole days only: a date series keeps dates.
            let endWall = floorDiv64(nominalWall + d.exactSeconds, 86_400) * 86_400
            return (endWall, clock.utc(forLocal: LocalDateTime(secondsSinceEpoch: endWall)))
        }
        let base = d.nominalDays == 0 ? instant : clock.utc(forLocal: LocalDateTime(secondsSinceEpoch: nominalWall))
        let endInstant = base + d.exactSeconds
        return (clock.local(atUTC: endInstant).secondsSinceEpoch, endInstant)
    }
}
