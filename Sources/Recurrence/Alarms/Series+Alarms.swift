import ICalendar

extension Series {
    /// Every time an alarm of the series goes off in [from, to), sorted by trigger.
    ///
    /// Each occurrence has the alarms of the component that describes it: the master's, or
    /// for an overridden occurrence the override's, which replace the master's (an override
    /// without VALARMs has none). EXDATEs remove an occurrence and its alarms. A relative
    /// trigger is counted from the occurrence's start or end (``TriggerTime``); an absolute
    /// one goes off once, whatever the series (an absolute VALARM written the same in the
    /// master and its overrides counts once). REPEAT adds its DURATION after each time.
    /// Occurrences of a cancelled event or override (STATUS:CANCELLED) and of a completed
    /// to-do (STATUS:COMPLETED, or COMPLETED) remind of nothing, and VALARMs written twice
    /// alike in one component go off once.
    ///
    /// The series is expanded over the window widened by the farthest trigger, so an alarm
    /// inside the window is found whether or not its occurrence is.
    /// - Parameters:
    ///   - from: the window's start, seconds since the epoch.
    ///   - to: the window's end (exclusive).
    ///   - floatingZone: the zone floating times and dates are read in.
    ///   - includeAcknowledged: keep alarm instants at or before their VALARM's ACKNOWLEDGED
    ///     (RFC 9074), marked ``AlarmInstant/isAcknowledged``, instead of leaving them out.
    public func alarms(
        from: Int64, to: Int64, floatingZone: any ZoneRules = FixedOffsetZone.utc, includeAcknowledged: Bool = false
    ) -> [AlarmInstant] {
        let holders = ([master].compactMap { $0 } + overrides).filter { !$0.components(named: "VALARM").isEmpty }
        guard !holders.isEmpty else { return [] }
        var result = absoluteAlarms(in: holders, from: from, to: to, floatingZone: floatingZone)
        result += relativeAlarms(from: from, to: to, floatingZone: floatingZone)
        if !includeAcknowledged { result.removeAll { $0.isAcknowledged } }
        return result.sorted(by: AlarmInstant.precedes)
    }

    /// Whether `component` reminds of nothing: cancelled, or a completed to-do.
    static func isSilent(_ component: Component) -> Bool {
        let status = component["STATUS"]?.text.uppercased()
        if status == "CANCELLED" { return true }
        return component.name == "VTODO" && (status == "COMPLETED" || component["COMPLETED"] != nil)
    }

    /// The distinct VALARMs of `component` with a relative trigger (or, with `absolute`, an
    /// absolute one), each with its view.
    static func alarmViews(of component: Component, absolute: Bool) -> [(Component, Alarm)] {
        var seen: [Component] = []
        var result: [(Component, Alarm)] = []
        for c in component.components(named: "VALARM") where !seen.contains(c) {
            seen.append(c)
            let view = Alarm(c, in: component)
            switch view.trigger {
            case .relative?: if !absolute { result.append((c, view)) }
            case .absolute?: if absolute { result.append((c, view)) }
            case nil: break
            }
        }
        return result
    }

    /// The times one VALARM goes off after its first `first`: REPEAT more, DURATION apart.
    static func repetitions(of view: Alarm, first: Int64, zone: any ZoneRules) -> [Int64] {
        var times = [first]
        guard let interval = view.repeatInterval else { return times }
        for _ in 0..<min(view.repeatCount, 10_000) {
            times.append(TriggerTime.shifted(times.last!, by: interval, in: zone))
        }
        return times
    }

    /// Whether `view`'s ACKNOWLEDGED is at or after `trigger`.
    func isAcknowledged(_ view: Alarm, at trigger: Int64, floatingZone: any ZoneRules) -> Bool {
        guard let ack = view.acknowledged else { return false }
        let zone = TriggerTime.zone(of: ack.form, resolver: resolver, floating: floatingZone)
        let instant = ack.form == .utc ? ack.local.secondsSinceEpoch : zone.utc(forLocal: ack.local)
        return instant >= trigger
    }

    func relativeAlarms(from: Int64, to: Int64, floatingZone: any ZoneRules) -> [AlarmInstant] {
        // The window the anchors of triggers in [from, to) lie in, from every relative alarm
        // of the series (with its repetitions), and a margin for changes of offset.
        var nearest = Int64.max, farthest = Int64.min
        for component in [master].compactMap({ $0 }) + overrides {
            for (_, view) in Self.alarmViews(of: component, absolute: false) {
                guard case .relative(let offset, _) = view.trigger else { continue }
                var reach = TriggerTime.approximate(offset)
                nearest = min(nearest, reach)
                farthest = max(farthest, reach)
                if let interval = view.repeatInterval, view.repeatCount > 0 {
                    reach += TriggerTime.approximate(interval) * Int64(min(view.repeatCount, 10_000))
                    nearest = min(nearest, reach)
                    farthest = max(farthest, reach)
                }
            }
        }
        guard nearest <= farthest else { return [] }
        let margin: Int64 = 2 * 86_400
        var result: [AlarmInstant] = []
        var byShape: [ObjectIdentifier: [(Component, Alarm)]] = [:]
        let occurrences = occurrences(
            from: from - farthest - margin, to: to - nearest + margin, floatingZone: floatingZone)
        for o in occurrences where !Self.isSilent(o.component) {
            let key = ObjectIdentifier(o.shape)
            let views = byShape[key] ?? Self.alarmViews(of: o.component, absolute: false)
            byShape[key] = views
            for (alarm, view) in views {
                guard case .relative(let offset, let fromEnd) = view.trigger else { continue }
                let anchor = fromEnd ? o.end : o.start
                let zone = TriggerTime.zone(of: anchor.form, resolver: resolver, floating: floatingZone)
                let first = TriggerTime.shifted(fromEnd ? o.endInstant : o.startInstant, by: offset, in: zone)
                for (k, t) in Self.repetitions(of: view, first: first, zone: zone).enumerated()
                where t >= from && t < to {
                    result.append(
                        AlarmInstant(
                            trigger: t, triggerValue: TriggerTime.value(t, form: anchor.form, zone: zone), uid: uid,
                            alarm: alarm, view: view, component: o.component, occurrence: o,
                            anchor: fromEnd ? .end : .start, repetition: k,
                            isAcknowledged: isAcknowledged(view, at: t, floatingZone: floatingZone)))
                }
            }
        }
        return result
    }

    func absoluteAlarms(in holders: [Component], from: Int64, to: Int64, floatingZone: any ZoneRules)
        -> [AlarmInstant]
    {
        var result: [AlarmInstant] = []
        var seen: [Component] = []
        for holder in holders where !Self.isSilent(holder) {
            var own: Occurrence?? = nil
            for (alarm, view) in Self.alarmViews(of: holder, absolute: true) where !seen.contains(alarm) {
                seen.append(alarm)
                guard case .absolute(let value) = view.trigger else { continue }
                let zone = TriggerTime.zone(of: value.form, resolver: resolver, floating: floatingZone)
                let first = value.form == .utc ? value.local.secondsSinceEpoch : zone.utc(forLocal: value.local)
                for (k, t) in Self.repetitions(of: view, first: first, zone: zone).enumerated()
                where t >= from && t < to {
                    if own == nil { own = .some(occurrence(of: holder, floatingZone: floatingZone)) }
                    result.append(
                        AlarmInstant(
                            trigger: t, triggerValue: TriggerTime.value(t, form: value.form, zone: zone), uid: uid,
                            alarm: alarm, view: view, component: holder,
                            occurrence: own ?? nil,
                            anchor: .absolute, repetition: k,
                            isAcknowledged: isAcknowledged(view, at: t, floatingZone: floatingZone)))
                }
            }
        }
        return result
    }

    /// The occurrence an absolute alarm of `holder` reminds of: `holder`'s own, the one
    /// starting at its DTSTART (an override's, a single event's, a series' first), as
    /// recurring-ical-events takes it; nil when there is none (a first instance excluded).
    func occurrence(of holder: Component, floatingZone: any ZoneRules) -> Occurrence? {
        guard let start = holder["DTSTART"]?.dateTime else { return nil }
        let instant = SeriesFrame(start: start, resolver: resolver).instant(of: start, floating: floatingZone)
        return occurrences(from: instant - 1, to: instant + 1, floatingZone: floatingZone, includeCancelled: true)
            .first { $0.startInstant == instant && $0.component == holder }
    }
}

extension AlarmInstant {
    /// The order of a listing: by trigger, then UID, RECURRENCE-ID, action and description.
    public static func precedes(_ a: AlarmInstant, _ b: AlarmInstant) -> Bool {
        if a.trigger != b.trigger { return a.trigger < b.trigger }
        if a.uid != b.uid { return a.uid < b.uid }
        let ra = a.occurrence?.startInstant ?? Int64.min, rb = b.occurrence?.startInstant ?? Int64.min
        if ra != rb { return ra < rb }
        if (a.view.action ?? "") != (b.view.action ?? "") { return (a.view.action ?? "") < (b.view.action ?? "") }
        return (a.view.description ?? "") < (b.view.description ?? "")
    }
}
