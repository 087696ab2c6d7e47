import ICalendar

extension Series {
    /// Room for what an alarm's instants can move beyond their approximate offsets: a change
    /// of offset between an anchor and its trigger, and nominal days of a DURATION.
    static let alarmMargin: Int64 = 2 * 86_400

    /// Where the alarms of this series can go off, whatever zone floating times and dates are
    /// read in (``alarms(from:to:floatingZone:includeAcknowledged:)`` finds none outside it):
    /// its ``reach()`` widened by the nearest and farthest relative trigger (with its
    /// REPEATs) and ``alarmMargin``, and each absolute trigger with its REPEATs, widened by
    /// `offsetMargin` for the zone it is read in. `nowhere` for a series without VALARMs.
    /// Cancelled occurrences and acknowledged alarms are kept: the reach only bounds.
    public func alarmReach() -> OccurrenceReach {
        let holders = ([master].compactMap { $0 } + overrides).filter { !$0.components(named: "VALARM").isEmpty }
        guard !holders.isEmpty else { return .nowhere }
        var spans: [ClosedRange<Int64>] = []
        var nearest = Int64.max, farthest = Int64.min
        for holder in holders {
            for (_, view) in Self.alarmViews(of: holder, absolute: false) {
                guard case .relative(let offset, _) = view.trigger else { continue }
                let (low, high) = Self.repeatedReach(of: view)
                nearest = min(nearest, Self.saturating(TriggerTime.approximate(offset), low))
                farthest = max(farthest, Self.saturating(TriggerTime.approximate(offset), high))
            }
            for (_, view) in Self.alarmViews(of: holder, absolute: true) {
                guard case .absolute(let value) = view.trigger else { continue }
                let (low, high) = Self.repeatedReach(of: view)
                let at = value.local.secondsSinceEpoch
                let first = Self.saturating(at, low, -Self.offsetMargin)
                spans.append(first...max(first, Self.saturating(at, high, Self.offsetMargin)))
            }
        }
        if nearest <= farthest {
            for span in reach().spans {
                let low = Self.saturating(span.lowerBound, nearest, -Self.alarmMargin)
                spans.append(low...max(low, Self.saturating(span.upperBound, farthest, Self.alarmMargin)))
            }
        }
        return OccurrenceReach(spans: spans)
    }

    /// How far before (negative) and after the first instant of `view` its REPEATs go, roughly.
    static func repeatedReach(of view: Alarm) -> (Int64, Int64) {
        guard let interval = view.repeatInterval, view.repeatCount > 0 else { return (0, 0) }
        let (total, overflow) = TriggerTime.approximate(interval).multipliedReportingOverflow(
            by: Int64(min(view.repeatCount, 10_000)))
        if overflow { return (Int64.min, Int64.max) }
        return (min(0, total), max(0, total))
    }

    /// The sum of `base` and `amounts`, kept within `Int64.min...Int64.max`; an unbounded
    /// end (`Int64.min` or `Int64.max`) stays so.
    static func saturating(_ base: Int64, _ amounts: Int64...) -> Int64 {
        if base == Int64.min || base == Int64.max { return base }
        var sum = base
        for a in amounts {
            let (result, overflow) = sum.addingReportingOverflow(a)
            if overflow { return a < 0 ? Int64.min : Int64.max }
            sum = result
        }
        return sum
    }
}

extension CalendarAlarms {
    /// Where the alarms of the calendar's events and to-dos can go off
    /// (``Series/alarmReach()``); `nowhere` for a calendar without alarms.
    public func reach() -> OccurrenceReach {
        OccurrenceReach(spans: (events.series + todos.series).flatMap { $0.alarmReach().spans })
    }
}
