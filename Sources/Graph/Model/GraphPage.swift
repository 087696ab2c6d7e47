/// One page of a Graph collection: `calendars`, `calendarView`, or a round of `calendarView/delta`.
///
/// A page with `nextLink` has more after it; the last page of a delta round has `deltaLink`,
/// the link the next round starts from. Both are followed verbatim.
public struct GraphPage<Item: Codable & Sendable & Hashable>: Hashable, Sendable, Codable {
    /// The items of this page.
    public var value: [Item]
    /// `@odata.nextLink`: the next page of this round.
    public var nextLink: String?
    /// `@odata.deltaLink`: where the next round starts, on a round's last page.
    public var deltaLink: String?

    /// A page of `value`.
    public init(value: [Item], nextLink: String? = nil, deltaLink: String? = nil) {
        self.value = value
        self.nextLink = nextLink
        self.deltaLink = deltaLink
    }

    enum CodingKeys: String, CodingKey {
        case value
        case nextLink = "@odata.nextLink"
        case deltaLink = "@odata.deltaLink"
    }
}

/// A page of a delta round of events.
public typealias GraphDeltaPage = GraphPage<GraphEvent>
