import ICalendar

/// One time an alarm goes off: a VALARM of an event or to-do at one of its trigger instants
/// (the first, or one of its REPEATs).
///
/// ```swift
/// let alarms = CalendarAlarms(components: parsed.components)
/// for a in alarms.alarms(from: now, to: now + 86_400, floatingZone: zone) {
///     print(a.trigger, a.uid, a.view.action ?? "-", a.occurrence?.start as Any)
/// }
/// ```
public struct AlarmInstant: Hashable, Sendable {
    /// What a trigger is counted from.
    public enum Anchor: String, Hashable, Sendable {
        /// The occurrence's start (TRIGGER as a duration, RELATED=START or none).
        case start
        /// The occurrence's end (RELATED=END): DTEND, DUE, or DTSTART plus DURATION.
        case end
        /// A time of its own (TRIGGER;VALUE=DATE-TIME).
        case absolute
    }

    /// When the alarm goes off, seconds since the epoch.
    public let trigger: Int64
    /// The same time as a value of the form it is counted in: the anchor's form for a relative
    /// trigger (a date's becomes a floating time), the TRIGGER's own for an absolute one.
    public let triggerValue: DateTimeValue
    /// The UID of the event or to-do.
    public let uid: String
    /// The VALARM, as written.
    public let alarm: Component
    /// The typed view of `alarm`.
    public let view: Alarm
    /// The VEVENT or VTODO the VALARM belongs to: the master, or the override that replaces
    /// the occurrence (its alarms replace the master's for that occurrence).
    public let component: Component
    /// The occurrence the alarm reminds of: the one a relative trigger is counted from; for an
    /// absolute trigger, the occurrence of the component it is written in (starting at that
    /// component's DTSTART), nil when there is none.
    public let occurrence: Occurrence?
    /// What the trigger is counted from.
    public let anchor: Anchor
    /// 0 for the first time the alarm goes off, 1… for its REPEATs.
    public let repetition: Int
    /// Whether the alarm's ACKNOWLEDGED (RFC 9074) is at or after this trigger: it was
    /// dismissed (or sent) already and is not due again.
    public let isAcknowledged: Bool

    /// Whether the occurrence is a task's that has no start of its own, and so stands at its
    /// due time (RFC 5545 §3.6.2: a VTODO without DTSTART is anchored on DUE; the listing gives
    /// it a DTSTART equal to its DUE): shown as "due", not as a start.
    public var isDueAnchored: Bool {
        guard component.name == "VTODO", let due = component["DUE"] else { return false }
        guard let start = component["DTSTART"] else { return true }
        return start.value == due.value && start.parameterText == due.parameterText
    }

    /// The occurrence's RECURRENCE-ID (its original start), nil when the event does not recur
    /// or the alarm has no occurrence.
    public var recurrenceID: DateTimeValue? { occurrence?.recurrenceID }

    /// A text naming this alarm instant, the same across runs while the event, its occurrence
    /// and the trigger stay as they are: trigger instant, action, UID and RECURRENCE-ID
    /// (`1774771200 DISPLAY standup@example.org 20260329T100000Z`). An event moved or an alarm
    /// changed gives a new identity; a retitled one keeps it.
    public var identity: String {
        "\(trigger) \(view.action ?? "-") \(uid)" + (recurrenceID.map { " \($0.description)" } ?? "")
    }
}
