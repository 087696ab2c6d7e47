import Foundation

/// What a server keeps of a PUT: the new version's etag, its Schedule-Tag where the server
/// schedules, and its bytes when they are not those sent.
public struct StoredWrite: Sendable, Hashable {
    /// The etag of the version the server stored.
    public var etag: ETag
    /// The Schedule-Tag of a meeting stored on a server that schedules (RFC 6638 §3.2.10).
    public var scheduleTag: ScheduleTag?
    /// The stored bytes when the server changed what it was sent (SCHEDULE-STATUS added to
    /// each attendee it invited, SEQUENCE raised); nil when it keeps them as sent.
    public var rewritten: Data?

    /// What a server kept of a write.
    public init(etag: ETag, scheduleTag: ScheduleTag? = nil, rewritten: Data? = nil) {
        self.etag = etag
        self.scheduleTag = scheduleTag
        self.rewritten = rewritten
    }
}

/// A meeting's Schedule-Tag (RFC 6638 §3.2.10): it changes only with a change that matters to
/// the account's part in the meeting, not when other attendees answer. A value that is not an
/// HTTP opaque tag (a quoted string) is no tag at all: nothing conditional is built from it.
public struct ScheduleTag: Sendable, Hashable, CustomStringConvertible {
    /// The tag as the header gave it, quotes included; sent back verbatim.
    public let value: String

    /// The tag in a `Schedule-Tag` header; nil when absent or malformed.
    public init?(_ header: String?) {
        guard let text = header?.trimmingCharacters(in: .whitespaces), text.count >= 2, text.hasPrefix("\""),
            text.hasSuffix("\""),
            !text.dropFirst().dropLast().contains("\"")
        else { return nil }
        value = text
    }

    /// The tag as the header gave it.
    public var description: String { value }
}
