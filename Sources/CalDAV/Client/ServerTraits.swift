import Foundation
import HTTP

/// What calgw has learnt of a server from its answers, for the writes that follow.
public final class ServerTraits: @unchecked Sendable {
    private let lock = NSLock()
    private var seen = ServerIdentity()
    private var relocations: [URL: URL] = [:]
    private var ifNoneMatchRefused = false
    private var scheduleReplySwitch = false
    private var writesReadBack = false

    /// Nothing learnt yet: a new client's.
    public init() {}

    /// The server refused a create's `If-None-Match: *` and took the create without it
    /// (``IfNoneMatchRefusal``): later creates ask whether the name is free first.
    public var refusesIfNoneMatch: Bool { lock.withLock { ifNoneMatchRefused } }

    func noteRefusesIfNoneMatch() { lock.withLock { ifNoneMatchRefused = true } }

    /// Whether a copy's PUT carries `Schedule-Reply: F` besides `Scheduling-Enabled: F`
    /// (``SchedulingIntent/headers(for:scheduleReplySwitches:)``).
    public var scheduleReplySwitchesScheduling: Bool { lock.withLock { scheduleReplySwitch } }

    /// Makes every later copy's PUT carry `Schedule-Reply: F`, for a server known to take it as
    /// the switch that keeps one request from scheduling (its facts say so).
    public func switchSchedulingWithScheduleReply() { lock.withLock { scheduleReplySwitch = true } }

    /// Makes every later create ask whether the name is free first, for a server known to
    /// take a create onto a taken name whatever `If-None-Match` says (its facts say so: it
    /// cannot be told from its answers).
    public func askBeforeCreating() { noteRefusesIfNoneMatch() }

    /// Whether each write's stored version is read back (GET) even when the PUT's answer
    /// carries an ETag: a server that changes what it stores without saying so (RFC 4791 §5.3.4
    /// asks it to leave the ETag out then) would otherwise keep a version the vdir never sees.
    public var readsBackWrites: Bool { lock.withLock { writesReadBack } }

    /// Makes every later write read back what the server stored, for a server known to rewrite
    /// what it is sent while still answering with an ETag (its facts say so).
    public func readBackWrites() { lock.withLock { writesReadBack = true } }

    /// What the server's answers so far said of the server (its product headers).
    public var identity: ServerIdentity { lock.withLock { seen } }

    /// Where the collection at `url` answered from after a redirect (Cyrus sends a calendar
    /// another user shares to its place in the account's own home); nil when it was not moved.
    public func relocation(of url: URL) -> URL? { lock.withLock { relocations[url] } }

    /// Notes that a request to the collection `url` was answered by `location`.
    func noteRelocation(of url: URL, to location: URL) {
        lock.withLock { relocations[url] = location }
    }

    /// Notes what `response` shows of the server: the product headers of the first answer
    /// that has any (a server sends the same ones on every answer).
    func observe(_ response: HTTPResponse) {
        lock.withLock {
            guard seen.isEmpty else { return }
            seen = seen.adding(response)
        }
    }
}
