import Foundation
import HTTP

/// What calgw has learnt of a server from its answers, for the writes that follow.
public final class ServerTraits: @unchecked Sendable {
    private let lock = NSLock()
    private var davical = false
    private var relocations: [URL: URL] = [:]
    private var ifNoneMatchRefused = false

    /// The server refused a create's `If-None-Match: *` and took the create without it
    /// (``IfNoneMatchRefusal``): later creates ask whether the name is free first.
    public var refusesIfNoneMatch: Bool { lock.withLock { ifNoneMatchRefused } }

    func noteRefusesIfNoneMatch() { lock.withLock { ifNoneMatchRefused = true } }

    /// The server schedules implicitly and takes no request header to skip it for one write
    /// (DAViCal, known by its `X-DAViCal-Version` header): a copy it stores invites the
    /// attendees who are its users unless each attendee says `SCHEDULE-AGENT=CLIENT`.
    public var ignoresSchedulingSwitch: Bool { lock.withLock { davical } }

    /// Where the collection at `url` answered from after a redirect (Cyrus sends a calendar
    /// another user shares to its place in the account's own home); nil when it was not moved.
    public func relocation(of url: URL) -> URL? { lock.withLock { relocations[url] } }

    /// Notes that a request to the collection `url` was answered by `location`.
    func noteRelocation(of url: URL, to location: URL) {
        lock.withLock { relocations[url] = location }
    }

    /// Notes what `response` shows of the server.
    func observe(_ response: HTTPResponse) {
        guard response.header("X-DAViCal-Version") != nil else { return }
        lock.withLock { davical = true }
    }
}
