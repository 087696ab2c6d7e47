import CalDAV

/// Whether the account may write to the calendar a person's action on a meeting would go to,
/// asked of the server (RFC 3744 `current-user-privilege-set`, one Depth 0 PROPFIND): an
/// answer written into a calendar shared read-only is never stored, so nothing is sent.
public enum CalendarAccess {
    /// True when the server says the account may only read the calendar of `pair`; nil when
    /// it cannot be told (not a CalDAV pair of one calendar, or no answer).
    public static func isReadOnly(_ pair: Pair) async -> Bool? {
        guard !pair.isAccount, case .caldav(let url, let server) = pair.remote else { return nil }
        guard let info = try? await server.client(owner: pair.name).collectionInfo(url, tokens: []) else { return nil }
        return info.writable.map { !$0 }
    }
}
