import ICalendar

/// Why a span edit was refused. The resource is left unchanged.
public enum SpanEditError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No VEVENT with that UID in the resource.
    case noSuchEvent(uid: String)
    /// The UID names a task (VTODO) or a journal entry (VJOURNAL), which the event commands
    /// do not edit; `kind` says which, in words.
    case notAnEvent(uid: String, kind: String)
    /// The resource has the UID's overrides but no master to edit.
    case noMaster(uid: String)
    /// The series has no instance starting at that RECURRENCE-ID.
    case noSuchOccurrence(uid: String, recurrenceID: String)
    /// The series had an instance there, removed from it by an EXDATE: there is nothing there
    /// to edit or delete.
    case excludedOccurrence(uid: String, recurrenceID: String)
    /// An occurrence was named but the event does not recur.
    case notRecurring(uid: String)
    /// The change cannot apply to one occurrence (a new RRULE on a single instance).
    case notApplicableToOccurrence(String)
    /// The change would leave the event invalid (an end before its start).
    case invalidChange(String)

    /// True when the time given is not an occurrence of the series (never was, or was removed).
    public var namesNoOccurrence: Bool {
        switch self {
        case .noSuchOccurrence, .excludedOccurrence: true
        default: false
        }
    }

    /// What was refused, naming the event and the occurrence.
    public var description: String {
        switch self {
        case .noSuchEvent(let uid): return "no event with UID \(uid)"
        case .notAnEvent(let uid, let kind):
            return "\(uid) is \(kind), not an event; `event edit` and `event delete` edit events"
        case .noMaster(let uid): return "event \(uid) has only overrides, no master to edit"
        case .noSuchOccurrence(let uid, let rid): return "event \(uid) has no occurrence at \(rid)"
        case .excludedOccurrence(let uid, let rid):
            return "event \(uid) has no occurrence at \(rid): it was removed from the series (EXDATE)"
        case .notRecurring(let uid): return "event \(uid) does not recur; edit it without --occurrence"
        case .notApplicableToOccurrence(let what): return what
        case .invalidChange(let what): return what
        }
    }

    /// What the person can do about it.
    public var recovery: String? {
        switch self {
        case .noSuchEvent, .noMaster: return nil
        case .notAnEvent(let uid, _):
            return
                "open it in your editor with `calgw event open \(uid)`, or change it with its own program (todoman for tasks)"
        case .noSuchOccurrence, .excludedOccurrence:
            return "give the occurrence's original start, as `calgw list` shows it"
        case .notRecurring: return "leave out --occurrence to edit the event itself"
        case .notApplicableToOccurrence: return "use --span future to change the rule from that occurrence on"
        case .invalidChange: return nil
        }
    }
}
