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

/// A copy of a meeting not written to a server that mails its attendees whenever a meeting is
/// made, moved or deleted, and has no way not to (``ServerFacts/MeetingCopies/never``:
/// Microsoft Graph, Google, SOGo); only the person's own actions (`calgw event …`) are sent.
public struct MeetingCopyNotSent: KeptLocalRefusal, CustomStringConvertible {
    /// Where the write was to go.
    public var href: ItemHref
    /// A deletion rather than a create or an update.
    public var deleting: Bool
    /// The server that would mail.
    public var facts: ServerFacts

    /// The copy's refusal on the server `facts` describe.
    public init(href: ItemHref, deleting: Bool, facts: ServerFacts) {
        self.href = href
        self.deleting = deleting
        self.facts = facts
    }

    /// Where the copy would go (`Outlook`, `Google`).
    private var place: String { facts.title }
    /// Who would mail: the API in front of the calendar (Graph, for Outlook), else the server.
    private var mailer: String { facts.api ?? facts.title }

    public var keptReason: String {
        deleting
            ? "deleting a meeting in \(place) mails its attendees" : "writing a meeting to \(place) mails its attendees"
    }
    public var keptNote: String {
        (deleting
            ? "the meeting's deletion is not sent to \(place) (\(mailer) would mail each attendee a cancellation)"
            : "the meeting stays in the vdir, not sent to \(place) (\(mailer) mails its attendees whenever one is "
                + "written\(facts.api == nil ? ", whatever the client asks" : ""))")
            + "; a calgw event command on it is your own action and is sent"
    }
    public var description: String { "\(href): \(keptNote)" }
}
