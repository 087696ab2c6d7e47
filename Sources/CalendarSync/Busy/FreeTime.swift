import Foundation
import ICalendar
import Recurrence

/// Finding a time (`calgw free`): the busy time of the person (from their vdirs) and of
/// others (asked of their servers), and the slots free for all, at least a given length,
/// within the day's hours in the person's zone. Pure but for nothing: the caller gathers the
/// listing and the answers.
public struct FreeTime {
    /// A stretch of time, in seconds since the epoch; `kind` as VFREEBUSY's FBTYPE says it
    /// (`busy`, `tentative`, `unavailable`).
    public struct Interval: Sendable, Equatable {
        public var start: Int64
        public var end: Int64
        public var kind: String

        public init(start: Int64, end: Int64, kind: String = "busy") {
            self.start = start
            self.end = end
            self.kind = kind
        }
    }

    /// The window [from, to).
    public var from: Int64
    public var to: Int64
    /// The least length of a free slot, in seconds.
    public var duration: Int64
    /// Each day's hours (minutes of the day) in `zone`; nil: the whole day.
    public var hours: (start: Int, end: Int)?
    /// The person's zone.
    public var zone: any ZoneRules

    /// - Throws: ``BusySettingsError`` (key `--hours`) for hours that do not read.
    public init(from: Int64, to: Int64, duration: Int64, hours: String?, zone: any ZoneRules) throws {
        self.from = from
        self.to = to
        self.duration = max(duration, 60)
        do { self.hours = try hours.map(BusySettings.hours) } catch let error as BusySettingsError {
            throw BusySettingsError(key: "--hours", error.problem)
        }
        self.zone = zone
    }

    /// The person's busy time in `listing` (every pair's vdir, through the listing index):
    /// each occurrence but those free (TRANSP:TRANSPARENT), cancelled or declined by the
    /// person; one they have not answered or answered tentatively is `tentative`.
    public static func busy(in listing: OccurrenceListing) -> [Interval] {
        var out: [Interval] = []
        for entry in listing.entries {
            let o = entry.occurrence, event = o.component
            if event["TRANSP"]?.value.uppercased() == "TRANSPARENT" { continue }
            if event["STATUS"]?.value.uppercased() == "CANCELLED" { continue }
            let answer = listing.ownAnswer(event)
            if answer == "DECLINED" { continue }
            let kind = ["TENTATIVE", "NEEDS-ACTION"].contains(answer ?? "") ? "tentative" : "busy"
            out.append(Interval(start: o.startInstant, end: max(o.endInstant, o.startInstant + 1), kind: kind))
        }
        return merged(out)
    }

    /// `intervals` sorted and joined where they overlap or touch (the kind of the first kept,
    /// `busy` where any is).
    public static func merged(_ intervals: [Interval]) -> [Interval] {
        var out: [Interval] = []
        for next in intervals.sorted(by: { ($0.start, $0.end) < ($1.start, $1.end) }) {
            if var last = out.last, next.start <= last.end {
                last.end = max(last.end, next.end)
                if next.kind == "busy" { last.kind = "busy" }
                out[out.count - 1] = last
            } else {
                out.append(next)
            }
        }
        return out
    }

    /// The slots free for every one of `busy`'s people: within the window and each day's
    /// hours, at least `duration` long.
    public func free(_ busy: [[Interval]]) -> [Interval] {
        let taken = Self.merged(busy.flatMap { $0 })
        var out: [Interval] = []
        for open in openings() {
            var cursor = open.start
            for b in taken where b.end > open.start && b.start < open.end {
                if b.start - cursor >= duration { out.append(Interval(start: cursor, end: b.start, kind: "free")) }
                cursor = max(cursor, b.end)
            }
            if open.end - cursor >= duration { out.append(Interval(start: cursor, end: open.end, kind: "free")) }
        }
        return out
    }

    /// The window, cut to each day's hours in the person's zone.
    func openings() -> [Interval] {
        guard let hours else { return [Interval(start: from, end: to, kind: "free")] }
        var out: [Interval] = []
        var day = zone.local(atUTC: from).date
        while true {
            let midnight = LocalDateTime(date: day)
            let start = zone.utc(forLocal: midnight.adding(seconds: Int64(hours.start * 60)))
            let end = zone.utc(forLocal: midnight.adding(seconds: Int64(hours.end * 60)))
            if start >= to { break }
            if end > from { out.append(Interval(start: max(start, from), end: min(end, to), kind: "free")) }
            day = day.adding(days: 1)
        }
        return out
    }

    /// `2027-03-10T09:00:00+01:00` in the person's zone (`Z` where it is UTC's).
    public func text(_ instant: Int64) -> String {
        let local = zone.local(atUTC: instant), offset = zone.offset(atUTC: instant)
        let wall = String(
            format: "%@T%02d:%02d:%02d", local.date.isoString, local.time.hour, local.time.minute, local.time.second)
        return wall + (offset == 0 ? "Z" : OccurrenceTime.offsetText(offset))
    }

    /// `Wed 2027-03-10 09:00–10:30 (1h30m)`, in the person's zone.
    public func line(_ slot: Interval) -> String {
        let minutes = (slot.end - slot.start) / 60
        let length =
            (minutes >= 60 ? "\(minutes / 60)h" : "") + (minutes % 60 > 0 || minutes < 60 ? "\(minutes % 60)m" : "")
        let a = zone.local(atUTC: slot.start), b = zone.local(atUTC: slot.end)
        let end = a.date == b.date ? InvitationView.clock(b) : InvitationView.wall(b, isDate: false)
        return InvitationView.wall(a, isDate: false) + "–" + end + " (\(length))"
    }

    /// The person's busy time as one VFREEBUSY (RFC 5545 §3.6.4), for publishing.
    public func freeBusy(_ busy: [Interval], stamp: Int64) -> Component {
        func utc(_ t: Int64) -> String { DateTimeValue(LocalDateTime(secondsSinceEpoch: t), form: .utc).description }
        var component = Component(name: "VFREEBUSY")
        component.properties = [
            Property(name: "UID", value: "calgw-free-\(from)-\(to)"), Property(name: "DTSTAMP", value: utc(stamp)),
            Property(name: "DTSTART", value: utc(from)), Property(name: "DTEND", value: utc(to)),
        ]
        for kind in ["busy", "tentative"] {
            let periods = busy.filter { $0.kind == kind }.map { "\(utc(max($0.start, from)))/\(utc(min($0.end, to)))" }
            guard !periods.isEmpty else { continue }
            component.properties.append(
                Property(
                    name: "FREEBUSY", parameters: [Parameter("FBTYPE", kind == "busy" ? "BUSY" : "BUSY-TENTATIVE")],
                    value: periods.joined(separator: ",")))
        }
        return Component(
            name: "VCALENDAR",
            properties: [
                Property(name: "VERSION", value: "2.0"), Property(name: "PRODID", value: "-//calgw//free//EN"),
                Property(name: "METHOD", value: "PUBLISH"),
            ], components: [component])
    }
}
