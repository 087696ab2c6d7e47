import CalDAV

/// Where a calendar collection of an account lives on the server: its path, ending with `/`.
///
/// A type of its own so that a collection's href is never taken for an item's (``ItemHref``)
/// or for a folder's name. In `collections.json` it is plain text.
///
/// Kept in canonical form (see ``Href``), whichever way it was written: Google writes a
/// calendar's `@` as `%40` in some answers and as `@` in others (DAVx5 #2817), and a mapping
/// that spelled it the other way would take the calendar for a new one and copy it again.
public struct CollectionHref: TextIdentifier {
    /// The collection's path on the server, in canonical form.
    public var value: String

    /// The collection at the path `value`, written either way.
    public init(_ value: String) { self.value = HrefResolver.canonical(path: value) }

    /// The collection's path on the server.
    public var path: String { value }

    /// The last segment of the path, percent-decoded ("calendar" when there is none).
    var lastSegment: String {
        let segment = path.split(separator: "/").last.map(String.init) ?? "calendar"
        return segment.removingPercentEncoding ?? segment
    }

    /// The segment that names the collection, percent-decoded: the last, or in Google's
    /// `/caldav/v2/<calendar id>/events/` the calendar's id before `events`.
    var namingSegment: String {
        let segments = path.split(separator: "/").map(String.init)
        guard segments.count == 4, segments[0] == "caldav", segments[1] == "v2", segments[3] == "events" else {
            return lastSegment
        }
        return segments[2].removingPercentEncoding ?? segments[2]
    }
}
