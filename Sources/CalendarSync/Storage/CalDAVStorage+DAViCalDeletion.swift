import CalDAV
import Foundation

extension CalDAVStorage {
    /// Deletes a member on a server that schedules a deletion by what it stores and takes no
    /// request header against it (DAViCal: see ``ServerTraits/ignoresSchedulingSwitch``).
    ///
    /// A copy's deletion must cancel nothing, but a meeting stored unmarked (made as the
    /// person's action, or by another client) would be cancelled: it is marked
    /// `SCHEDULE-AGENT=CLIENT` first (a PUT conditioned on `etag`), then deleted. The person's
    /// own deletion cancels; DAViCal 1.1.12 fails it (500, in its cancellation code) when it
    /// finds an attendee's invitation in their Inbox rather than their calendar, and would fail
    /// it on every try: the meeting is then deleted as a copy, and a note says that its
    /// attendees were not told.
    func deleteOnServerIgnoringSchedulingSwitch(
        _ member: (href: Href, url: URL), ifMatch etag: ItemETag, as intent: WriteIntent
    ) async throws {
        guard intent == .personsAction else {
            let current = try await markedClientScheduled(member, ifMatch: etag)
            return try await client.delete(member.url, ifMatch: current, scheduling: .copy)
        }
        do {
            try await client.delete(member.url, ifMatch: ETag(etag), scheduling: .personsAction)
        } catch let error as CalDAVError where error.status == 500 {
            let current = try await markedClientScheduled(member, ifMatch: etag)
            try await client.delete(member.url, ifMatch: current, scheduling: .copy)
            notes.add(
                "\(member.href.path): the server failed to send the meeting's cancellation (\(error.message.prefix(120))); "
                    + "the meeting is deleted, but its attendees were not told: tell them yourself")
        }
    }

    /// The member as a copy the server will not schedule for: its meetings' organizer and
    /// attendees marked `SCHEDULE-AGENT=CLIENT`, written back when they were not.
    /// - Returns: the etag of the marked version.
    /// - Throws: `CalDAVError` 412 when the member is no longer at `etag`.
    private func markedClientScheduled(_ member: (href: Href, url: URL), ifMatch etag: ItemETag) async throws -> ETag {
        let stored = try await client.get(member.url)
        guard stored.etag.value == etag.value || stored.etag.value.isEmpty else {
            throw CalDAVError(
                .preconditionFailed, "\(member.href.path) changed on the server", status: 412, url: member.url)
        }
        guard UploadForm.needsClientSchedulingMark(stored.data) else { return ETag(etag) }
        let marked = UploadForm.canonical(stored.data, clientScheduled: true)
        return try await client.put(member.url, data: marked, condition: .ifMatch(ETag(etag)), scheduling: .copy)
    }
}
