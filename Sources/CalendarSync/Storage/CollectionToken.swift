import CalDAV

/// What a CalDAV collection's `ChangeToken` holds: an RFC 6578 sync-token, or a getctag for a
/// server without one. The engine and the journal keep it as opaque text; only
/// ``CalDAVStorage`` reads it back, through this type.
enum CollectionToken: Equatable {
    case sync(SyncToken)
    case ctag(String)

    private static let syncPrefix = "sync:", ctagPrefix = "ctag:"

    /// The token as the journal keeps it.
    var changeToken: ChangeToken {
        switch self {
        case .sync(let token): ChangeToken(Self.syncPrefix + token.value)
        case .ctag(let ctag): ChangeToken(Self.ctagPrefix + ctag)
        }
    }

    /// Reads a kept token; nil for one another storage made (or none calgw knows).
    init?(_ token: ChangeToken) {
        if token.value.hasPrefix(Self.syncPrefix) {
            self = .sync(SyncToken(String(token.value.dropFirst(Self.syncPrefix.count))))
        } else if token.value.hasPrefix(Self.ctagPrefix) {
            self = .ctag(String(token.value.dropFirst(Self.ctagPrefix.count)))
        } else {
            return nil
        }
    }
}
