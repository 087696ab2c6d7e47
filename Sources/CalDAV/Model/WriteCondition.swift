/// The condition of a PUT.
public enum WriteCondition: Sendable, Hashable {
    /// `If-None-Match: *`: only create; fails when the href is taken.
    case createOnly
    /// `If-Match: etag`: only replace that version.
    case ifMatch(ETag)
    /// `If-Schedule-Tag-Match: tag` (RFC 6638 §3.2.10): replace the meeting unless it changed
    /// in a way that matters since the tag was read; a change that does not (another
    /// attendee's answer) the server merges with this write.
    case ifScheduleTagMatch(ScheduleTag)
}
