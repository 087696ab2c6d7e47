import Foundation

/// What calgw has learnt of a server from its answers, for the writes that follow.
public final class ServerTraits: @unchecked Sendable {
    private let lock = NSLock()
    private var davical = false

    /// The server schedules implicitly and takes no request header to skip it for one write
    /// (DAViCal, known by its `X-DAViCal-Version` header): a copy it stores invites the
    /// attendees who are its users unless each attendee says `SCHEDULE-AGENT=CLIENT`.
    public var ignoresSchedulingSwitch: Bool { lock.withLock { davical } }

    /// Notes what `response` shows of the server.
    func observe(_ response: HTTPResponse) {
        guard response.header("X-DAViCal-Version") != nil else { return }
        lock.withLock { davical = true }
    }
}
