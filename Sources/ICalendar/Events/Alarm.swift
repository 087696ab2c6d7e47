/// A typed, read-only view of a VALARM (RFC 5545 §3.6.6, with RFC 9074's additions). The
/// component stays the source of truth: what the view leaves out (ATTACH, ATTENDEE,
/// PROXIMITY, X- properties) is kept there, as ``Event`` keeps what it leaves out.
public struct Alarm: Hashable, Sendable {
    /// When an alarm goes off.
    public enum Trigger: Hashable, Sendable {
        /// Relative to the start (or the end, when `fromEnd`).
        case relative(ICalDuration, fromEnd: Bool)
        /// At this time.
        case absolute(DateTimeValue)
    }

    /// ACTION, upper-cased (`DISPLAY`, `AUDIO`, `EMAIL`).
    public var action: String?
    /// TRIGGER; nil when absent or unreadable.
    public var trigger: Trigger?
    /// DESCRIPTION, unescaped: the text a DISPLAY alarm shows, an EMAIL alarm's body.
    public var description: String?
    /// SUMMARY, unescaped: an EMAIL alarm's subject.
    public var summary: String?
    /// REPEAT: how many more times the alarm goes off after the first, `repeatInterval` apart;
    /// 0 when absent, unreadable, negative, or without a DURATION (RFC 5545 asks for both).
    public var repeatCount: Int
    /// DURATION: the time between repetitions; nil when absent or unreadable.
    public var repeatInterval: ICalDuration?
    /// When the alarm was last acknowledged (dismissed or sent): a trigger at or before it is
    /// not due again. RFC 9074's ACKNOWLEDGED (§6), or Thunderbird's X-MOZ-LASTACK on the event
    /// (which acknowledges all of its alarms), the later of the two; none while Thunderbird's
    /// X-MOZ-SNOOZE-TIME is later still (snoozed, so due again), as python's icalendar reads them.
    public var acknowledged: DateTimeValue?
    /// UID (RFC 9074 §4): the alarm's own identity, where the writer gave one.
    public var uid: String?

    /// The view of `component`, a VALARM.
    ///
    /// A TRIGGER is relative (a DURATION, from the start unless `RELATED=END`; parameter values
    /// compared without case, RFC 5545 §3.2) or absolute (`VALUE=DATE-TIME`, or a value that
    /// reads as a DATE-TIME without it, as python's icalendar reads it).
    public init(_ component: Component) {
        action = component["ACTION"]?.text.uppercased()
        description = component["DESCRIPTION"]?.text
        summary = component["SUMMARY"]?.text
        uid = component["UID"]?.text
        acknowledged = component["ACKNOWLEDGED"]?.dateTime
        if let t = component["TRIGGER"] {
            let declared = t[parameter: "VALUE"]?.uppercased()
            if declared == "DATE-TIME", let d = t.dateTime {
                trigger = .absolute(d)
            } else if let d = t.duration {
                trigger = .relative(d, fromEnd: t[parameter: "RELATED"]?.uppercased() == "END")
            } else if declared == nil, let d = t.dateTime, !d.isDate {
                trigger = .absolute(d)
            }
        }
        let interval = component["DURATION"]?.duration
        repeatInterval = interval
        let count = component["REPEAT"]?.integer ?? 0
        repeatCount = interval == nil ? 0 : max(0, count)
    }

    /// The views of the VALARMs of `parent` (a VEVENT or VTODO), each read with
    /// ``init(_:in:)``.
    public static func views(of parent: Component) -> [Alarm] {
        parent.components(named: "VALARM").map { Alarm($0, in: parent) }
    }

    /// The view of `component`, a VALARM of `parent` (a VEVENT or VTODO), with what Thunderbird
    /// records on the parent folded in: X-MOZ-LASTACK, when all of its alarms were last
    /// dismissed there, and X-MOZ-SNOOZE-TIME, until when they were put off (see
    /// ``acknowledged``). Only UTC times are read (Thunderbird writes no other); a snooze of
    /// one occurrence of a series (`X-MOZ-SNOOZE-TIME-<time>`) is not read.
    public init(_ component: Component, in parent: Component) {
        self.init(component)
        let snoozed = parent["X-MOZ-SNOOZE-TIME"]?.dateTime.flatMap(Self.utcSeconds)
        if let lastAck = parent["X-MOZ-LASTACK"]?.dateTime, let at = Self.utcSeconds(lastAck),
            at > acknowledged.flatMap(Self.utcSeconds) ?? .min
        {
            acknowledged = lastAck
        }
        if let snoozed, let latest = acknowledged.flatMap(Self.utcSeconds), snoozed > latest {
            acknowledged = nil
        }
    }

    /// Seconds since 1970 of a UTC date-time; nil for any other form.
    private static func utcSeconds(_ value: DateTimeValue) -> Int64? {
        value.form == .utc && !value.isDate ? value.local.secondsSinceEpoch : nil
    }
}
