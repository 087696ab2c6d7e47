import Failures

/// Why an event cannot cross between Graph and iCalendar.
public typealias GraphMappingError = CodedError<GraphMappingFailure>

/// The ways a translation is refused. Each error's message names the part and says why Graph
/// (or iCalendar) cannot hold it, so a sync report can show it as it is.
public enum GraphMappingFailure: Sendable, Equatable {
    /// A recurrence rule part Graph's patterns cannot express (`FREQ=HOURLY`, `BYSETPOS=2,3`,
    /// `RDATE`, a DTSTART that is not an occurrence); `part` is the part as written.
    case unsupportedRecurrence(part: String)
    /// A time Graph cannot place: a floating time, a custom VTIMEZONE, a zone with no Windows
    /// name; `part` is the property and its TZID.
    case unsupportedTimeZone(part: String)
    /// An object that is not one event series: a VTODO or VJOURNAL, several UIDs,
    /// overrides without their master, a RECURRENCE-ID that is no occurrence, an override
    /// moved onto or past a neighbour's day; `part` names it.
    case unsupportedStructure(part: String)
    /// Graph JSON calgw cannot read as an event: no start, an unknown zone, a pattern missing a
    /// field its type needs; `part` names the field.
    case unreadableEvent(part: String)
}

extension GraphMappingFailure: FailureCode {}

extension CodedError where Code == GraphMappingFailure {
    /// The part of the object the refusal is about.
    public var part: String {
        switch code {
        case .unsupportedRecurrence(let part), .unsupportedTimeZone(let part), .unsupportedStructure(let part),
            .unreadableEvent(let part):
            part
        }
    }

    static func recurrence(_ part: String, _ why: String) -> GraphMappingError {
        GraphMappingError(
            .unsupportedRecurrence(part: part), "Graph cannot hold \(part): \(why)",
            recovery: "keep the event out of the Graph calendar, or write the series as rules Outlook has")
    }

    static func timeZone(_ part: String, _ why: String) -> GraphMappingError {
        GraphMappingError(
            .unsupportedTimeZone(part: part), "Graph cannot hold \(part): \(why)",
            recovery: "name an IANA zone in TZID (e.g. Europe/Berlin)")
    }

    static func structure(_ part: String, _ why: String) -> GraphMappingError {
        GraphMappingError(.unsupportedStructure(part: part), "Graph cannot hold \(part): \(why)")
    }

    static func unreadable(_ part: String, _ why: String) -> GraphMappingError {
        GraphMappingError(.unreadableEvent(part: part), "cannot read the Graph event's \(part): \(why)")
    }
}
