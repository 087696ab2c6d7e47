import CalDAV
import Foundation
import HTTP
import ICalendar

extension CalDAVStorage {
    /// Deletes the account's copy of a meeting it attends as the person's decline, on a server
    /// that schedules by itself and marks what it sent (Cyrus), so that calgw can say whether
    /// the organizer was told.
    ///
    /// Cyrus answers an attendee's DELETE with a plain 204 and sends the DECLINED reply
    /// unseen: nothing is left to read `SCHEDULE-STATUS` from. So the decline is written first:
    /// the copy with the account's PARTSTAT=DECLINED (no RSVP, no earlier COMMENT), which the
    /// server sends as the REPLY and marks on the ORGANIZER in what it stores (read back);
    /// then the copy is deleted with `Schedule-Reply: F`, which sends nothing more. The
    /// organizer gets one REPLY either way.
    /// - Returns: false when this is not such a deletion (a meeting the account organizes, not
    ///   a meeting, a server that does not schedule, one that needs other ways to store copies
    ///   (DAViCal, Google)): the caller deletes as before.
    /// - Throws: `HTTPError` 412 when the copy is no longer at `etag`, or the server's failure.
    func deletedAsDecline(_ member: (href: Href, url: URL), ifMatch etag: ItemETag) async throws -> Bool {
        guard facts.switchesSchedulingByHeader, facts.scheduling == .asAdvertised,
            let account = try? await client.schedulingAccount(at: collection), account.autoSchedules
        else { return false }
        let own = Set(account.addresses.map(CalendarUser.normalized))
        let stored = try await client.get(member.url)
        guard stored.etag.value == etag.value || stored.etag.value.isEmpty else {
            throw HTTPError(
                .preconditionFailed, "\(member.href.path) changed on the server", status: 412, url: member.url)
        }
        guard let organizer = UploadForm.organizer(of: stored.data), !own.isEmpty,
            !own.contains(CalendarUser.normalized(organizer)),
            let declined = Self.declined(stored.data, addresses: own)
        else { return false }
        let written = try await client.write(
            member.url, data: declined.data, condition: .ifMatch(ETag(etag)), scheduling: .personsAction)
        var kept = written.rewritten
        if kept == nil { kept = (try? await client.get(member.url))?.data }
        let status = kept.flatMap { UploadForm.organizerStatus(of: $0) }
        try await client.delete(member.url, ifMatch: written.etag, scheduling: .copy)
        deletions.note(declined.uid, DeletionScheduling(status: status))
        return true
    }

    /// `data` with the account's own ATTENDEE (one of `addresses`, normalized) declined in every
    /// event that names it: PARTSTAT=DECLINED, RSVP and SCHEDULE-STATUS dropped, and no COMMENT
    /// (an earlier answer's is not sent again); nil when no event names the account.
    static func declined(_ data: Data, addresses: Set<String>) -> (data: Data, uid: String)? {
        guard var parsed = try? ICalendarParser().parse(data).calendar else { return nil }
        var uid: String?
        for i in parsed.components.indices where parsed.components[i].name == "VEVENT" {
            var event = parsed.components[i]
            guard
                let own = event.properties.firstIndex(where: {
                    $0.name == "ATTENDEE" && addresses.contains(CalendarUser.normalized($0.value))
                })
            else { continue }
            event.properties[own].setParameter("PARTSTAT", "DECLINED")
            for name in ["RSVP", "SCHEDULE-STATUS", "SCHEDULE-FORCE-SEND"] {
                event.properties[own].setParameter(name, nil)
            }
            event.properties.removeAll { $0.name == "COMMENT" }
            uid = uid ?? event["UID"]?.text
            parsed.components[i] = event
        }
        guard let uid else { return nil }
        return (ICalendarSerializer().data([parsed]), uid)
    }
}

extension UploadForm {
    /// The SCHEDULE-STATUS the server marked on the first ORGANIZER of `data`'s events (what
    /// it did with the attendee's reply); nil when it marked none.
    static func organizerStatus(of data: Data) -> String? {
        guard let parsed = try? ICalendarParser().parse(data) else { return nil }
        return parsed.components.lazy.flatMap(\.components).compactMap {
            $0["ORGANIZER"]?[parameter: "SCHEDULE-STATUS"]
        }
        .first
    }
}
