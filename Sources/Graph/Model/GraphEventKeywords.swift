/// `showAs`: how the event shows on free/busy.
public struct GraphShowAs: GraphKeyword {
    /// The keyword's text.
    public let rawValue: String
    /// The keyword exactly as `text` spells it.
    public init(verbatim text: String) { rawValue = text }

    /// Free: TRANSP:TRANSPARENT.
    public static let free: Self = "free"
    /// Tentatively busy.
    public static let tentative: Self = "tentative"
    /// Busy: TRANSP:OPAQUE.
    public static let busy: Self = "busy"
    /// Out of office.
    public static let oof: Self = "oof"
    /// Working elsewhere.
    public static let workingElsewhere: Self = "workingElsewhere"
    /// Not known.
    public static let unknown: Self = "unknown"
    /// Every documented value.
    public static let known: [Self] = [.free, .tentative, .busy, .oof, .workingElsewhere, .unknown]
}

/// `sensitivity`: who may see the event's details.
public struct GraphSensitivity: GraphKeyword {
    /// The keyword's text.
    public let rawValue: String
    /// The keyword exactly as `text` spells it.
    public init(verbatim text: String) { rawValue = text }

    /// Anyone may see the details: CLASS:PUBLIC.
    public static let normal: Self = "normal"
    /// Personal: CLASS:X-PERSONAL.
    public static let personal: Self = "personal"
    /// Private: CLASS:PRIVATE.
    public static let `private`: Self = "private"
    /// Confidential: CLASS:CONFIDENTIAL.
    public static let confidential: Self = "confidential"
    /// Every documented value.
    public static let known: [Self] = [.normal, .personal, .private, .confidential]
}

/// `importance`: three levels.
public struct GraphImportance: GraphKeyword {
    /// The keyword's text.
    public let rawValue: String
    /// The keyword exactly as `text` spells it.
    public init(verbatim text: String) { rawValue = text }

    /// Low: PRIORITY 6 to 9.
    public static let low: Self = "low"
    /// Normal: PRIORITY 5 or none.
    public static let normal: Self = "normal"
    /// High: PRIORITY 1 to 4.
    public static let high: Self = "high"
    /// Every documented value.
    public static let known: [Self] = [.low, .normal, .high]
}

/// `type`: what part of a series, if any, an event is.
public struct GraphEventType: GraphKeyword {
    /// The keyword's text.
    public let rawValue: String
    /// The keyword exactly as `text` spells it.
    public init(verbatim text: String) { rawValue = text }

    /// An event that does not recur.
    public static let singleInstance: Self = "singleInstance"
    /// An instance of a series, unchanged.
    public static let occurrence: Self = "occurrence"
    /// An instance of a series that was edited on its own.
    public static let exception: Self = "exception"
    /// The series itself, holding `recurrence`.
    public static let seriesMaster: Self = "seriesMaster"
    /// Every documented value.
    public static let known: [Self] = [.singleInstance, .occurrence, .exception, .seriesMaster]
}

/// `body.contentType`.
public struct GraphBodyType: GraphKeyword {
    /// The keyword's text.
    public let rawValue: String
    /// The keyword exactly as `text` spells it.
    public init(verbatim text: String) { rawValue = text }

    /// Plain text.
    public static let text: Self = "text"
    /// HTML.
    public static let html: Self = "html"
    /// Every documented value.
    public static let known: [Self] = [.text, .html]
}

/// `attendees[].type`.
public struct GraphAttendeeType: GraphKeyword {
    /// The keyword's text.
    public let rawValue: String
    /// The keyword exactly as `text` spells it.
    public init(verbatim text: String) { rawValue = text }

    /// Required: ROLE=REQ-PARTICIPANT.
    public static let required: Self = "required"
    /// Optional: ROLE=OPT-PARTICIPANT.
    public static let optional: Self = "optional"
    /// A room or equipment.
    public static let resource: Self = "resource"
    /// Every documented value.
    public static let known: [Self] = [.required, .optional, .resource]
}

/// `status.response` of an attendee, and `responseStatus.response` of the mailbox owner.
public struct GraphResponse: GraphKeyword {
    /// The keyword's text.
    public let rawValue: String
    /// The keyword exactly as `text` spells it.
    public init(verbatim text: String) { rawValue = text }

    /// No answer yet: PARTSTAT=NEEDS-ACTION.
    public static let none: Self = "none"
    /// The organizer.
    public static let organizer: Self = "organizer"
    /// Tentatively accepted: PARTSTAT=TENTATIVE.
    public static let tentativelyAccepted: Self = "tentativelyAccepted"
    /// Accepted: PARTSTAT=ACCEPTED.
    public static let accepted: Self = "accepted"
    /// Declined: PARTSTAT=DECLINED.
    public static let declined: Self = "declined"
    /// Asked, not answered: PARTSTAT=NEEDS-ACTION.
    public static let notResponded: Self = "notResponded"
    /// Every documented value.
    public static let known: [Self] = [
        .none, .organizer, .tentativelyAccepted, .accepted, .declined, .notResponded,
    ]
}
