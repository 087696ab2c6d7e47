import CalDAV
import Foundation
import HTTP

/// The server refused an item whose only components are of a type the calendar does not take:
/// a task (VTODO) or a journal entry (VJOURNAL) on a calendar of events only, such as Google's
/// (its CalDAV guide: VTODO and VJOURNAL are not supported). Sent again, it would be refused
/// again on every run: the run keeps it in the vdir and says so once (see
/// `Executor.holdBackKeptLocal`).
public struct ComponentNotTaken: StorageFailure {
    /// Where the write went.
    public var href: ItemHref
    /// `VTODO` or `VJOURNAL`.
    public var component: String
    /// What the server said, in one line.
    public var serverLine: String

    public var mayHaveLanded: Bool { false }
    public var isServerFailure: Bool { false }
    public var concernsEveryWrite: Bool { false }
    public var failsInServerCode: Bool { false }

    /// A task, or a journal entry, for messages.
    public var what: String { component == "VTODO" ? "a task (VTODO)" : "a journal entry (VJOURNAL)" }

    public var errorCode: String { "componentNotTaken" }
    public var message: String { "\(href): the server refused \(what) (\(serverLine))" }
    public var recovery: String? { "this calendar takes events only; keep tasks in a calendar that takes them" }
    public var cause: (any Error)? { nil }
    public var description: String { message }

    /// The component that makes `data` an item a calendar of events may refuse: `VTODO` or
    /// `VJOURNAL` when the item has one and no VEVENT; nil otherwise.
    static func component(of data: Data) -> String? {
        let text = String(decoding: data, as: UTF8.self)
        guard !text.contains("BEGIN:VEVENT") else { return nil }
        return text.contains("BEGIN:VTODO") ? "VTODO" : text.contains("BEGIN:VJOURNAL") ? "VJOURNAL" : nil
    }

    /// Whether `error` refuses the content of a write (not its credentials, its privileges, its
    /// precondition or the server's health): what a server that does not take a component
    /// answers (400 Bad Request, 403 with `supported-calendar-component`, 415, 422, 501).
    static func refusesContent(_ error: HTTPError) -> Bool {
        guard let status = error.status else { return false }
        if status == 403 {
            return error.code == .forbidden && !CalDAVStorage.isPrivilegeRefusal(error)
        }
        return [400, 415, 422, 501].contains(status)
    }
}
