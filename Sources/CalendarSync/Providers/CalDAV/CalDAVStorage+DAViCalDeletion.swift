import CalDAV
import Foundation
import HTTP
import ICalendar

extension CalDAVStorage {
    /// Deletes a member on a server that schedules a deletion by what it stores and takes no
    /// request header against it (DAViCal: see ``ServerFacts/MeetingCopies/scheduleAgentClient``).
    ///
    /// A copy's deletion must cancel nothing, but a meeting stored unmarked (made as the
    /// person's action, or by another client) would be cancelled: it is marked
    /// `SCHEDULE-AGENT=CLIENT` first (a PUT conditioned on `etag`), then deleted. The person's
    /// own deletion cancels (an organizer's) or declines (an attendee's); DAViCal 1.1.12 fails it
    /// (500, in its scheduling code) when it finds an attendee's invitation in their Inbox rather
    /// than their calendar, or an attendee's decline whenever the organizer's Inbox is of the
    /// calendar type (as its admin screen makes them), and would fail it on every try: the
    /// meeting is then deleted as a copy; an attendee's decline is sent by the Outbox
    /// (``declinedThroughOutbox(_:)``), else a note says who was not told (its attendees, or
    /// its organizer).
    func deleteOnServerIgnoringSchedulingSwitch(
        _ member: (href: Href, url: URL), ifMatch etag: ItemETag, as intent: WriteIntent
    ) async throws {
        guard intent == .personsAction else {
            let current = try await markedClientScheduled(member, ifMatch: etag)
            return try await client.delete(member.url, ifMatch: current.etag, scheduling: .copy)
        }
        let unsent = await cancellationTheMarksStop(member.url, etag: etag)
        do {
            try await client.delete(member.url, ifMatch: ETag(etag), scheduling: .personsAction)
            if let unsent {
                deletions.note(
                    unsent,
                    DeletionScheduling(
                        failure: "the server's copy was last written from the file, as a copy (SCHEDULE-AGENT=CLIENT "
                            + "on its attendees), so the server sent nothing; tell them yourself"))
            }
        } catch let error as HTTPError where error.status == 500 {
            let current = try await markedClientScheduled(member, ifMatch: etag)
            try await client.delete(member.url, ifMatch: current.etag, scheduling: .copy)
            // An attendee's decline goes by the Outbox instead; an organizer's cancellation
            // has no such way here.
            if await declinedThroughOutbox(current.stored) { return }
            notes.add(await unsentDeletionNote(member, stored: current.stored, error: error))
            if let uid = Self.uid(of: current.stored) {
                let reason = error.serverReason ?? "\(error.status ?? 500)"
                deletions.note(uid, DeletionScheduling(failure: "the server failed to send it (\(reason))"))
            }
        }
    }

    /// The UID of the meeting at `url` when the account organizes it and the server's version
    /// marks every attendee `SCHEDULE-AGENT=CLIENT` (a change of its file synced as a copy):
    /// DAViCal then sends the person's deletion to nobody, and the command must not say it
    /// asked. Nil otherwise, or when it cannot be read (one GET; the account's addresses are
    /// asked at most once per run).
    private func cancellationTheMarksStop(_ url: URL, etag: ItemETag) async -> String? {
        guard let stored = try? await client.get(url), stored.etag.value == etag.value || stored.etag.value.isEmpty,
            let organizer = UploadForm.organizerOfMeetingWithMarkedAttendees(stored.data),
            let calendar = try? ICalendarParser().parse(stored.data).calendar
        else { return nil }
        let own = await accountAddresses.get {
            ((try? await self.client.schedulingAccount(at: self.collection).addresses) ?? []).map(
                CalendarUser.normalized)
        }
        let chair = CalendarUser.normalized(organizer)
        guard own.contains(chair) else { return nil }
        let attendees = calendar.components.flatMap(\.properties).filter {
            $0.name == "ATTENDEE" && CalendarUser.normalized($0.value) != chair
        }
        guard !attendees.isEmpty, attendees.allSatisfy({ $0[parameter: "SCHEDULE-AGENT"]?.uppercased() == "CLIENT" })
        else { return nil }
        return Self.uid(of: stored.data)
    }

    /// What a person's deletion the server failed to schedule left untold, by the person's
    /// part in the meeting: an organizer's attendees got no cancellation, an attendee's
    /// organizer no decline. The account's addresses are asked of the server (this happens
    /// only on the failure); when they cannot be had, the note names both.
    private func unsentDeletionNote(_ member: (href: Href, url: URL), stored: Data, error: HTTPError) async
        -> String
    {
        let reason = error.serverReason ?? "\(error.status ?? 500)"
        let organizer = UploadForm.organizer(of: stored).map(CalendarUser.normalized)
        let own = ((try? await client.schedulingAccount(at: collection).addresses) ?? []).map(CalendarUser.normalized)
        let organizes = own.isEmpty ? nil : organizer.map(own.contains)
        switch organizes {
        case true?:
            return "\(member.href.path): the server failed to send the meeting's cancellation (\(reason)); "
                + "the meeting is deleted, but its attendees were not told: tell them yourself"
        case false?:
            let name = organizer ?? "the organizer"
            return "\(member.href.path): the server failed to send your decline (\(reason)); "
                + "your copy of the meeting is deleted, but its organizer was not told: tell \(name) yourself"
        case nil:
            return "\(member.href.path): the server failed to tell the meeting's other people of its deletion "
                + "(\(reason)); the meeting is deleted from this calendar: tell them yourself"
        }
    }

    /// The member as a copy the server will not schedule for: its meetings' organizer and
    /// attendees marked `SCHEDULE-AGENT=CLIENT`, written back when they were not.
    /// - Returns: the etag of the marked version, and what the server held before.
    /// - Throws: `HTTPError` 412 when the member is no longer at `etag`.
    private func markedClientScheduled(_ member: (href: Href, url: URL), ifMatch etag: ItemETag) async throws
        -> (etag: ETag, stored: Data)
    {
        let stored = try await client.get(member.url)
        guard stored.etag.value == etag.value || stored.etag.value.isEmpty else {
            throw HTTPError(
                .preconditionFailed, "\(member.href.path) changed on the server", status: 412, url: member.url)
        }
        guard UploadForm.needsClientSchedulingMark(stored.data) else { return (ETag(etag), stored.data) }
        // An attendee's own line is spelled so that DAViCal sends no reply for the copy either.
        let marked = await attendeeCopyForm(UploadForm.canonical(stored.data, clientScheduled: true))
        let written = try await client.put(member.url, data: marked, condition: .ifMatch(ETag(etag)), scheduling: .copy)
        return (written, stored.data)
    }
}
