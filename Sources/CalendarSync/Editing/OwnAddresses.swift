import Failures
import Foundation

/// The person's calendar addresses for a pair, to find them among a meeting's attendees:
/// those given on the command line (`--address`), else the server's for the account
/// (`calendar-user-address-set`), asked once and cached beside the pair's journal
/// (``Pair/accountCache``), so that later `event` commands ask nothing and work `--offline`.
public struct OwnAddresses {
    /// The addresses, `mailto:` first.
    public var addresses: [String]
    /// Whether the server schedules meetings; nil when it was not asked.
    public var serverSchedules: Bool?
    /// Read from the cache: a meeting that names none of them may name an address the
    /// account has gained since, worth asking the server again (``resolve(given:pair:offline:refresh:)``).
    public var cached = false

    /// The addresses of `account` that are calendar addresses (a URI with its scheme:
    /// `mailto:…`, `urn:…`), `mailto:` first. A server without scheduling may give the
    /// principal's path (Radicale: `/alice/`), which is no address and is never written.
    static func usable(_ addresses: [String]) -> [String] {
        let uris = addresses.filter { BrokenCalendarUser.isAddress($0) }
        return uris.filter { $0.lowercased().hasPrefix("mailto:") }
            + uris.filter { !$0.lowercased().hasPrefix("mailto:") }
    }

    /// `address` as a calendar address: with `mailto:` in front unless it has it.
    static func mailto(_ address: String) -> String {
        address.lowercased().hasPrefix("mailto:") ? address : "mailto:" + address
    }

    /// The person's addresses for `pair`: those kept from the server, else the server's,
    /// asked now (and kept), with `given` in front of them. `--address` adds an address the
    /// invitation names to the account's, and leaves what the server says of scheduling known;
    /// where the server cannot be asked (offline without a cache, not a CalDAV pair, down),
    /// the given addresses serve alone.
    /// - Parameter given: `--address` values (`mailto:` added where missing); the config's
    ///   `addresses` follow them.
    /// - Parameter refresh: ask the server even when the cache has an answer.
    /// - Throws: ``EventCommandError`` when none is at hand: nothing given, and offline without
    ///   a cache, not a CalDAV pair, the server names none, or cannot be asked.
    public static func resolve(given: [String], pair: Pair, offline: Bool, refresh: Bool = false) async throws
        -> OwnAddresses
    {
        let extra = (given + pair.addresses).map(mailto)
        guard !extra.isEmpty else { return try await account(of: pair, offline: offline, refresh: refresh) }
        guard let known = try? await account(of: pair, offline: offline, refresh: refresh) else {
            return OwnAddresses(addresses: extra, serverSchedules: cachedAccount(of: pair)?.autoSchedules)
        }
        let lowered = Set(extra.map { $0.lowercased() })
        return OwnAddresses(
            addresses: extra + known.addresses.filter { !lowered.contains($0.lowercased()) },
            serverSchedules: known.serverSchedules, cached: known.cached)
    }

    /// The account's own addresses: kept from the server, else asked now (and kept).
    private static func account(of pair: Pair, offline: Bool, refresh: Bool) async throws -> OwnAddresses {
        if !refresh, let account = cachedAccount(of: pair), !usable(account.addresses).isEmpty {
            return OwnAddresses(
                addresses: usable(account.addresses), serverSchedules: account.autoSchedules, cached: true)
        }
        let unknown = EventCommandError(
            "calgw needs your calendar address to find you among the attendees of pair \(pair.name)",
            recovery: "give it with --address (without --offline, a CalDAV pair's server is asked)")
        guard !offline else { throw unknown }
        let asked: ServerAccount?
        do {
            asked = try await pair.askServerAccount()
        } catch {
            throw EventCommandError(
                "could not ask the server of pair \(pair.name) for your calendar address: \(CauseChain.text(of: error))",
                recovery: "give it with --address", kind: (error as? any ExplainedError)?.kind ?? .failed)
        }
        // Not a CalDAV pair: no server to ask.
        guard let account = asked else { throw unknown }
        cache(account, of: pair)
        guard !usable(account.addresses).isEmpty else {
            let given =
                account.addresses.isEmpty
                ? "" : " (it gives \(account.addresses.joined(separator: ", ")), which is no mailto: address)"
            throw EventCommandError(
                "the server of pair \(pair.name) names no calendar address for this account\(given)",
                recovery: "give yours with --address mailto:you@example.org")
        }
        return OwnAddresses(addresses: usable(account.addresses), serverSchedules: account.autoSchedules)
    }

    /// The account as last asked of the server, nil when never asked or unreadable.
    public static func cachedAccount(of pair: Pair) -> ServerAccount? { pair.cachedServerAccount }

    /// Keeps `account` for the pair's next commands; a cache that cannot be written only
    /// costs the next command the same questions.
    public static func cache(_ account: ServerAccount, of pair: Pair) { pair.cacheServerAccount(account) }
}
