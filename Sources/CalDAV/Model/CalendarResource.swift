import Foundation

/// A calendar object resource's bytes with the etag they were read at.
public struct CalendarResource: Hashable, Sendable {
    /// The resource's path on the server.
    public var href: Href
    /// The version the bytes belong to.
    public var etag: ETag
    /// The resource's bytes: an iCalendar object.
    public var data: Data
    /// The resource's Schedule-Tag, where the server gave one (a GET of a meeting on a server
    /// that schedules).
    public var scheduleTag: ScheduleTag?
    /// A resource read at `href` in the version `etag`, without a Schedule-Tag.
    public init(href: Href, etag: ETag, data: Data) {
        self.href = href
        self.etag = etag
        self.data = data
    }
}
