import CalDAV
import CalendarSync
import Foundation

/// The person's calendar addresses for a pair, to find them among a meeting's attendees:
/// those given on the command line (`--address`), else the server's for the account
/// (`calendar-user-address-set`), asked once.
struct OwnAddresses {
    /// The addresses, `mailto:` first.
    var addresses: [String]
    /// Whether the server schedules meetings; nil when it was not asked.
    var serverSchedules: Bool?

    /// `address` as a calendar address: with `mailto:` in front unless it has it.
    static func mailto(_ address: String) -> String {
        address.lowercased().hasPrefix("mailto:") ? address : "mailto:" + address
    }

    /// - Parameter given: `--address` values (`mailto:` added where missing).
    /// - Throws: `CLIError` when neither is at hand (offline, not a CalDAV pair, the server
    ///   names none, or cannot be asked).
    static func resolve(given: [String], pair: Pair, offline: Bool) async throws -> OwnAddresses {
        if !given.isEmpty {
            return OwnAddresses(addresses: given.map(mailto), serverSchedules: nil)
        }
        guard !offline, case .caldav(let url, let connect) = pair.remote else {
            throw CLIError("calgw needs your calendar address to find you among the attendees of pair \(pair.name)",
                           hint: "give it with --address (without --offline, a CalDAV pair's server is asked)")
        }
        let account: SchedulingAccount
        do {
            account = try await connect().schedulingAccount(at: url)
        } catch {
            let description = ErrorDescription(error)
            throw CLIError("could not ask the server of pair \(pair.name) for your calendar address: \(description.message)",
                           hint: "give it with --address", status: description.status)
        }
        guard !account.addresses.isEmpty else {
            throw CLIError("the server of pair \(pair.name) names no calendar address for this account", hint: "give it with --address")
        }
        return OwnAddresses(addresses: account.addresses, serverSchedules: account.autoSchedules)
    }
}
