import CalDAV
import Foundation

/// The change tokens of schedule Inboxes as read in this run, by URL path, shared by the
/// calendars of one account, which sync at once: the first to need an Inbox's token asks the
/// server (unless the calendar home's listing had it, where the Inbox is a calendar, as
/// DAViCal's admin screen makes it), the others wait for that answer.
final class InboxTokens: @unchecked Sendable {
    private let lock = NSLock()
    private var reads: [String: Task<String?, Error>] = [:]

    /// The token of the collection at `path`, read by `read` the first time this run asks.
    func token(at path: String, read: @escaping @Sendable () async throws -> CalendarCollection) async throws
        -> String?
    {
        let key = Self.key(path)
        let task = lock.withLock {
            if let known = reads[key] { return known }
            let task = Task { Self.token(of: try await read()) }
            reads[key] = task
            return task
        }
        return try await task.value
    }

    /// Keeps `info`'s token for the collection at `path`, as a listing of this run read it.
    func keep(_ info: CalendarCollection, at path: String) {
        let token = Self.token(of: info)
        lock.withLock { reads[Self.key(path)] = Task { token } }
    }

    /// `path` without a trailing slash: a listing's href and a URL's path name one folder so.
    private static func key(_ path: String) -> String {
        path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// The token that tells whether a collection changed: its sync-token, else its getctag.
    static func token(of info: CalendarCollection) -> String? {
        info.syncToken?.value ?? info.ctag
    }
}
