/// Whether the account may write to the calendar a person's action on a meeting would go to,
/// asked of its provider (on CalDAV, RFC 3744 `current-user-privilege-set`): an answer written
/// into a calendar shared read-only is never stored, so nothing is sent.
public enum CalendarAccess {
    /// True when the provider says the account may only read the calendar of `pair`; nil when
    /// it cannot be told (an account pair, a remote that is no server, no answer).
    public static func isReadOnly(_ pair: Pair) async -> Bool? {
        guard !pair.isAccount, case .server(let url, let server) = pair.remote, let provider = pair.remote.provider
        else { return nil }
        return await provider.isReadOnly(url, settings: server, use: pair.providerUse)
    }
}
