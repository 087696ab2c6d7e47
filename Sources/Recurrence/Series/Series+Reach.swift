import ICalendar

extension Series {
    /// Instances of each rule followed one by one; the rest of the series is covered as one span.
    static let reachSample = 32
    /// A COUNT rule is followed to its end when it has at most this many instances; a longer
    /// one is covered as if it had no end.
    static let reachCountLimit = 4_096
    /// A rule is followed this far (seconds) from DTSTART at most: one whose instances are
    /// rare (a leap day on a Monday) is cut there, so that a calendar costs little to index.
    static let reachHorizon: Int64 = 100 * 366 * 86_400
    /// How far an occurrence's instants can move when floating times and dates are read in
    /// another zone than UTC: the largest offset a zone has had, a DST gap (Samoa skipped a
    /// whole day in 2011), and an end in another form than the start moving as much again.
    static let floatingMargin: Int64 = 3 * 86_400
    /// Room between a wall-clock time and its instant in any zone, a calendar's own
    /// VTIMEZONE included (RFC 5545 allows offsets up to ±99:59:59).
    static let offsetMargin: Int64 = 10 * 86_400
    /// A THISANDFUTURE override moving its instances further than this makes the series'
    /// reach `everywhere`: its instances are not in the order of their keys.
    static let reachShiftLimit: Int64 = 31 * 86_400

    /// Where the occurrences of this series can be, whatever zone floating times and dates
    /// are read in, cancelled overrides included.
    ///
    /// The first `reachSample` instances of each rule are expanded (as
    /// ``occurrences(from:to:floatingZone:limit:includeCancelled:)`` gives them, read in UTC and
    /// widened by `floatingMargin`), and the rest is one span up to the series' last possible
    /// end: UNTIL, the last instance of a COUNT, or no end.
    public func reach() -> OccurrenceReach {
        if futureOverrides.contains(where: { abs($0.shift) > Self.reachShiftLimit }) { return .everywhere }
        // Wall-clock seconds: where the rules are cut (everything after is one span), and the
        // latest instance start the series can have (nil with no end).
        var cut: Int64? = nil
        var last: Int64? = nil
        if let frame, master != nil {
            let clock = frame.clock(floating: FixedOffsetZone.utc)
            var latest = rdates.reduce(startWall) { max($0, $1.wall) }
            var bounded = true
            for (i, rule) in rules.enumerated() {
                let ruleEnd = ruleReach(rule, until: untils[i], clock: clock)
                if let sample = ruleEnd.cut { cut = min(cut ?? sample, sample) }
                if let end = ruleEnd.last { latest = max(latest, end) } else { bounded = false }
            }
            last = bounded ? latest : nil
        }
        let length = maximumLength(floatingZone: FixedOffsetZone.utc)
        let ahead = futureOverrides.map { max(0, $0.shift) }.max() ?? 0
        // The latest time an override names, which its occurrence cannot end far after.
        var overrideLast: Int64? = nil
        for o in overrides {
            for name in ["DTSTART", "DTEND", "DUE", "RECURRENCE-ID"] {
                guard let v = o[name]?.dateTime else { continue }
                overrideLast = max(overrideLast ?? v.local.secondsSinceEpoch, v.local.secondsSinceEpoch)
            }
        }
        // No occurrence ends after `end` (an instant); Int64.max when the series has no end.
        var end: Int64? = nil
        if frame != nil, master != nil {
            end = last.map { Self.adding($0, ahead, length, Self.offsetMargin) } ?? Int64.max
        }
        if let overrideLast {
            let overrideEnd = Self.adding(overrideLast, length, Self.offsetMargin)
            end = max(end ?? overrideEnd, overrideEnd)
        }
        guard let end else { return .nowhere }
        // Every occurrence starting before `tail` is expanded; the others lie in [tail, end].
        let tail = cut.map { $0 - Self.offsetMargin }
        let counted = occurrences(
            from: Self.reachFloor, to: tail ?? end, floatingZone: FixedOffsetZone.utc, limit: Self.reachOccurrenceLimit,
            includeCancelled: true)
        if counted.count >= Self.reachOccurrenceLimit { return .everywhere }
        var spans = counted.map { o in
            (o.startInstant - Self.floatingMargin)...Self.adding(max(o.startInstant, o.endInstant), Self.floatingMargin)
        }
        if let tail { spans.append(min(tail - Self.floatingMargin, end)...end) }
        return OccurrenceReach(spans: spans)
    }

    /// 0001-01-01T00:00:00Z: a reach says nothing of occurrences before it, so a window
    /// reaching back there must read every calendar.
    public static let reachFloor: Int64 = -62_135_596_800
    /// Occurrences a reach expands at most; a series with more before its cut is `everywhere`.
    static let reachOccurrenceLimit = 100_000

    /// Where one rule is cut (its `reachSample`-th instance, or where it stopped without
    /// ending), and the latest instance it can have (nil: no end).
    func ruleReach(_ rule: CompiledRule, until: DateTimeValue?, clock: any ZoneRules) -> (cut: Int64?, last: Int64?) {
        let horizon = rule.start.secondsSinceEpoch + Self.reachHorizon
        var iterator = RuleIterator(
            rule, stopAfter: LocalDateTime(secondsSinceEpoch: horizon), isPastUntil: untilCheck(until, clock: clock))
        let walksToEnd = rule.rule.count != nil
        var seen = 0
        var latest: Int64? = nil
        var cut: Int64? = nil
        while let v = iterator.nextSeconds() {
            seen += 1
            latest = v
            if seen == Self.reachSample {
                cut = v
                if !walksToEnd { break }
            }
            if seen >= Self.reachCountLimit { break }
        }
        if iterator.ending == .complete { return (cut, latest ?? startWall) }
        // UNTIL ends the rule wherever iteration stopped, read as a wall-clock time of any zone.
        let untilEnd = until.map {
            max(latest ?? startWall, Self.adding($0.local.secondsSinceEpoch, Self.offsetMargin))
        }
        // Cut at the sample.
        if iterator.ending == nil, !walksToEnd { return (cut, untilEnd) }
        // Fewer than the sample within the horizon (a rule of rare dates): cut at the horizon.
        if iterator.ending == .bound { return (min(cut ?? horizon, horizon), untilEnd) }
        // Iteration stopped short (a rule that gives up, a COUNT past the limit): everything
        // after what was seen.
        return (min(cut ?? latest ?? startWall, latest ?? startWall), untilEnd)
    }

    /// The sum of non-negative amounts, at most `Int64.max`.
    static func adding(_ base: Int64, _ amounts: Int64...) -> Int64 {
        var sum = base
        for a in amounts {
            let (result, overflow) = sum.addingReportingOverflow(a)
            if overflow { return Int64.max }
            sum = result
        }
        return sum
    }
}

extension CalendarExpansion {
    /// Where the occurrences of every series of the calendar can be (``Series/reach()``).
    public func reach() -> OccurrenceReach {
        OccurrenceReach(spans: series.flatMap { $0.reach().spans })
    }
}
