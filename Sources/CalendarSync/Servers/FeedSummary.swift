/// What an iCalendar feed holds: how many items (one per UID) and of which kinds.
public struct FeedSummary: Equatable, Sendable {
    /// The number of items.
    public var items: Int
    /// The component types found (`VEVENT`, `VTODO`, `VJOURNAL`), in that order.
    public var components: [String]
}
