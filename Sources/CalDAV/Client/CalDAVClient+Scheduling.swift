import Foundation
import HTTP

/// What a server says of an account's scheduling (RFC 6638): its calendar addresses, and
/// whether the server sends invitations itself for the meetings it stores.
public struct SchedulingAccount: Sendable, Hashable, Codable {
    /// The account's calendar addresses (`mailto:…` first), from `calendar-user-address-set`.
    public var addresses: [String]
    /// The server schedules implicitly (`calendar-auto-schedule` in its DAV header): storing a
    /// meeting the account organizes sends invitations, unless the write asks otherwise.
    public var autoSchedules: Bool
    /// The account's schedule Inbox, where invitations to it arrive.
    public var inbox: URL?
    /// The account's schedule Outbox, where a client POSTs the scheduling messages it sends
    /// itself (RFC 6638 §5).
    public var outbox: URL?
}

extension CalDAVClient {
    /// The scheduling account behind `url` (a calendar home or a calendar of it): an OPTIONS
    /// request for the DAV header, and the principal's addresses and Inbox (two PROPFINDs).
    /// Not used by a sync: `discover` shows it.
    /// - Parameter autoSchedules: what ``autoSchedules(at:)`` said of `url` already (nil: ask).
    public func schedulingAccount(at url: URL, autoSchedules known: Bool? = nil) async throws -> SchedulingAccount {
        let target = Self.collectionURL(url)
        let autoSchedules: Bool
        if let known { autoSchedules = known } else { autoSchedules = try await self.autoSchedules(at: target) }
        var account = SchedulingAccount(addresses: [], autoSchedules: autoSchedules, inbox: nil)
        let answer: Multistatus
        do {
            (answer, _) = try await multistatus(
                "PROPFIND", target, depth: "0",
                body: DAVRequestBodies.propfind([.empty("d:current-user-principal")]))
        } catch let error as HTTPError where ![.authenticationFailed, .connectionFailed].contains(error.code) {
            // A server that names no principal for this request (Radicale without sign-in
            // answers its PROPFIND otherwise): whether it schedules is still known.
            return account
        }
        guard
            let principal = answer.responses.first?.property(XMLNamespace.dav, "current-user-principal")?
                .child(XMLNamespace.dav, "href")?.trimmedText
        else { return account }
        let principalURL = try HrefResolver(base: target).resolve(principal).url
        let (found, _) = try await multistatus(
            "PROPFIND", principalURL, depth: "0",
            body: DAVRequestBodies.propfind([
                .empty("c:calendar-user-address-set"), .empty("c:schedule-inbox-URL"), .empty("c:schedule-outbox-URL"),
            ]))
        let response = found.responses.first
        let addresses =
            response?.property(XMLNamespace.caldav, "calendar-user-address-set")?
            .children(XMLNamespace.dav, "href").map(\.trimmedText) ?? []
        account.addresses =
            addresses.filter { $0.lowercased().hasPrefix("mailto:") }
            + addresses.filter { !$0.lowercased().hasPrefix("mailto:") }
        if let inbox = response?.property(XMLNamespace.caldav, "schedule-inbox-URL")?.child(XMLNamespace.dav, "href")?
            .trimmedText
        {
            account.inbox = try? HrefResolver(base: principalURL).resolve(inbox).url
        }
        if let outbox = response?.property(XMLNamespace.caldav, "schedule-outbox-URL")?.child(
            XMLNamespace.dav, "href")?.trimmedText
        {
            account.outbox = try? HrefResolver(base: principalURL).resolve(outbox).url
        }
        return account
    }

    /// Whether the server schedules implicitly for the calendar at `url` (RFC 6638 §2:
    /// `calendar-auto-schedule` in the DAV header of its OPTIONS answer): one request.
    public func autoSchedules(at url: URL) async throws -> Bool {
        let options = try await http.send(HTTPRequest(method: "OPTIONS", url: Self.collectionURL(url)))
        traits.observe(options)
        let dav = options.headers.filter { $0.name.lowercased() == "dav" }.flatMap { $0.value.split(separator: ",") }
        return dav.contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "calendar-auto-schedule" }
    }
}
