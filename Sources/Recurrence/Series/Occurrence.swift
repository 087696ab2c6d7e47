import ICalendar

/// One occurrence of an event: where it starts and ends, which instance of its series it is,
/// and the component (the master or an override) that describes it.
///
/// Kept small (instants and wall-clock seconds, plus one shared reference), because a query
/// over years of a busy calendar yields millions of them.
public struct Occurrence: Hashable, Sendable {
    /// The start as seconds since 1970-01-01T00:00:00Z; floating times and dates are read in the
    /// query's zone.
    public let startInstant: Int64
    /// The end as seconds since the epoch, read like `startInstant`.
    public let endInstant: Int64
    let startWall: Int64
    let endWall: Int64
    /// `Int64.min` when the event does not recur.
    let recurrenceWall: Int64
    let shape: Shape

    /// What the occurrences of one component share: the UID, the component and the forms of
    /// their values.
    final class Shape: Sendable {
        let uid: String
        let component: Component
        let startForm: DateTimeValue.Form
        let endForm: DateTimeValue.Form
        let recurrenceForm: DateTimeValue.Form

        init(
            uid: String, component: Component, startForm: DateTimeValue.Form, endForm: DateTimeValue.Form,
            recurrenceForm: DateTimeValue.Form
        ) {
            self.uid = uid
            self.component = component
            self.startForm = startForm
            self.endForm = endForm
            self.recurrenceForm = recurrenceForm
        }
    }

    init(startWall: Int64, endWall: Int64, recurrenceWall: Int64?, startInstant: Int64, endInstant: Int64, shape: Shape)
    {
        self.startWall = startWall
        self.endWall = endWall
        self.recurrenceWall = recurrenceWall ?? Int64.min
        self.startInstant = startInstant
        self.endInstant = endInstant
        self.shape = shape
    }

    /// The UID of the series.
    public var uid: String { shape.uid }
    /// The component that describes this occurrence: the master, or the override that replaces
    /// it (or applies to it through RANGE=THISANDFUTURE).
    public var component: Component { shape.component }
    /// The start, in the form of the component's DTSTART (date, floating, UTC or zoned).
    public var start: DateTimeValue { Self.value(startWall, shape.startForm) }
    /// The end (DTEND, or DTSTART plus DURATION, or the start / next day when neither is given).
    public var end: DateTimeValue { Self.value(endWall, shape.endForm) }
    /// The instance's original start in the master DTSTART's form, or nil for an event that
    /// does not recur.
    public var recurrenceID: DateTimeValue? {
        recurrenceWall == Int64.min ? nil : Self.value(recurrenceWall, shape.recurrenceForm)
    }

    /// Whether the occurrence is a whole-day one (its start is a DATE).
    public var isAllDay: Bool { shape.startForm == .date }

    /// Whether [start, end) overlaps [from, to); a zero-length occurrence overlaps when it
    /// starts inside the window, as recurring-ical-events' `between()` decides.
    public func overlaps(from: Int64, to: Int64) -> Bool {
        guard startInstant < to else { return false }
        return endInstant > from || (endInstant <= startInstant && startInstant >= from)
    }

    static func value(_ wall: Int64, _ form: DateTimeValue.Form) -> DateTimeValue {
        let local = LocalDateTime(secondsSinceEpoch: wall)
        return form == .date ? DateTimeValue(date: local.date) : DateTimeValue(local, form: form)
    }

    /// The same times, and the same event: the same shape, or the same UID, component and forms.
    public static func == (a: Occurrence, b: Occurrence) -> Bool {
        a.startInstant == b.startInstant && a.endInstant == b.endInstant && a.startWall == b.startWall
            && a.endWall == b.endWall
            && a.recurrenceWall == b.recurrenceWall
            && (a.shape === b.shape
                || (a.uid == b.uid && a.component == b.component && a.shape.startForm == b.shape.startForm
                    && a.shape.endForm == b.shape.endForm && a.shape.recurrenceForm == b.shape.recurrenceForm))
    }

    /// Hashes the UID and the times, which equal occurrences share.
    public func hash(into h: inout Hasher) {
        h.combine(uid)
        h.combine(startInstant)
        h.combine(endInstant)
        h.combine(recurrenceWall)
    }
}
