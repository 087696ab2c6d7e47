/// The change tokens a PROPFIND of a collection asks for.
public struct CollectionTokens: OptionSet, Sendable {
    /// The tokens' bits.
    public let rawValue: Int
    /// The tokens whose bits are `rawValue`.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// The RFC 6578 `DAV:sync-token`.
    public static let syncToken = CollectionTokens(rawValue: 1)
    /// CalendarServer's `getctag`.
    public static let ctag = CollectionTokens(rawValue: 2)
    /// Both tokens.
    public static let all: CollectionTokens = [.syncToken, .ctag]
}
