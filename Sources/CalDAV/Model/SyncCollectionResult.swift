/// The answer of a sync-collection REPORT.
public struct SyncCollectionResult: Sendable, Equatable {
    /// New or modified members.
    public var changed: [RemoteItem]
    /// Members gone since the token.
    public var removed: [Href]
    /// The token to use next time.
    public var token: SyncToken?
}
