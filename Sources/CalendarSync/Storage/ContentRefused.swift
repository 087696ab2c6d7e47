import CalDAV
import Foundation
import HTTP

/// The server refused an item's content (400, 415 or 422: sabre/dav answers 415 to a VEVENT
/// without DTSTART, to two masters of one UID, to a date without `VALUE=DATE`). Sent again
/// unchanged, it would be refused again on every run and keep every run failing: the run keeps
/// it as it is on the other side, says so once, and sends it again only when it changes (see
/// `Executor.holdBackKeptLocal`). `calgw lint` names what is wrong with such a file.
public struct ContentRefused: StorageFailure, KeptLocalRefusal {
    /// Where the write went.
    public var href: ItemHref
    /// The status the server answered.
    public var status: Int
    /// What the server said, in one line.
    public var serverLine: String

    public var mayHaveLanded: Bool { false }
    public var isServerFailure: Bool { false }
    public var concernsEveryWrite: Bool { false }
    public var failsInServerCode: Bool { false }

    public var errorCode: String { "contentRefused" }
    public var message: String { "\(href): the server refused the item (\(status): \(serverLine))" }
    public var recovery: String? { "run calgw lint on the file, fix what it names, and sync again" }
    public var cause: (any Error)? { nil }
    public var description: String { message }

    public var keptReason: String { "the server refuses its content (\(status))" }
    public var keptNote: String {
        "the item stays as it is: the server refused it (\(status): \(serverLine)); calgw lint on its file names "
            + "what may be wrong; it is not sent again until it changes"
    }

    /// The refusal of the content of a write in `error`; nil for any other failure (the
    /// credentials, the privileges, a precondition, a taken UID, the server's health).
    static func refusal(_ error: HTTPError, href: ItemHref) -> ContentRefused? {
        guard let status = error.status, [400, 415, 422].contains(status) else { return nil }
        return ContentRefused(href: href, status: status, serverLine: error.serverReason ?? "no reason given")
    }
}
