import Foundation

/// A storage's refusal of an item's write that would be the same on every run while the item
/// stays as it is: a task on a calendar of events only (``ComponentNotTaken``), a copy of a
/// meeting Graph would mail (``MeetingCopyNotSent``). The run keeps the item as it is on the
/// other side, says so once, and sends it again only when it changes (see
/// `Executor.holdBackKeptLocal`), instead of failing every run.
public protocol KeptLocalRefusal: Error {
    /// Why, in a few words, kept with the item (`the calendar takes no tasks`).
    var keptReason: String { get }
    /// What the run says once, naming the item.
    var keptNote: String { get }
}

extension ComponentNotTaken: KeptLocalRefusal {
    public var keptReason: String { "the calendar takes no \(component == "VTODO" ? "tasks" : "journal entries")" }
    public var keptNote: String {
        "\(what) stays in the vdir: \(keptReason) (the server \(serverLine)); it is not sent again until it changes"
    }
}

/// A copy of a meeting not written to Microsoft Graph or to Google's CalDAV: each mails every
/// attendee whenever a meeting is made, moved or deleted, and has no way not to (Google ignores
/// `SCHEDULE-AGENT=CLIENT` and `Scheduling-Enabled: F`); only the person's own actions
/// (`calgw event …`) are sent.
public struct MeetingCopyNotSent: KeptLocalRefusal, CustomStringConvertible {
    /// The service that would mail.
    public enum Provider: Sendable {
        case graph, google
    }

    /// Where the write was to go.
    public var href: ItemHref
    /// A deletion rather than a create or an update.
    public var deleting: Bool
    /// The service that would mail.
    public var provider: Provider

    /// The copy's refusal on `provider` (Graph unless said).
    public init(href: ItemHref, deleting: Bool, provider: Provider = .graph) {
        self.href = href
        self.deleting = deleting
        self.provider = provider
    }

    private var place: String { provider == .graph ? "Outlook" : "Google" }
    private var mailer: String { provider == .graph ? "Graph" : "Google" }

    public var keptReason: String {
        deleting
            ? "deleting a meeting in \(place) mails its attendees" : "writing a meeting to \(place) mails its attendees"
    }
    public var keptNote: String {
        (deleting
            ? "the meeting's deletion is not sent to \(place) (\(mailer) would mail each attendee a cancellation)"
            : "the meeting stays in the vdir, not sent to \(place) (\(mailer) mails its attendees whenever one is "
                + "written\(provider == .google ? ", whatever the client asks" : ""))")
            + "; a calgw event command on it is your own action and is sent"
    }
    public var description: String { "\(href): \(keptNote)" }
}
