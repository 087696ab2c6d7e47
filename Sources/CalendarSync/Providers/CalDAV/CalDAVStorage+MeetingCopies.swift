import CalDAV
import Foundation
import ICalendar

/// Copies of meetings on a server that mails a meeting's attendees whenever one is written or
/// deleted, whatever the client asks (``ServerFacts/MeetingCopies/never``: Google ignores
/// `SCHEDULE-AGENT=CLIENT` and `Scheduling-Enabled: F`, Outlook CalDAV Synchronizer #183,
/// #116, #274; SOGo delivers to its own users on every write). A copy stays where it is, as on
/// Graph, said once; only the person's own actions (`calgw event …`) are sent.
extension CalDAVStorage {
    /// Refuses to write `data` as a copy when it is a meeting and the server would mail it.
    /// - Throws: ``MeetingCopyNotSent``.
    func refuseMeetingCopy(_ data: Data, as intent: WriteIntent, href: ItemHref) throws {
        guard intent == .copy, !facts.storesMeetingCopies, MeetingContent.isMeeting(data) else { return }
        throw MeetingCopyNotSent(href: href, deleting: false, facts: facts)
    }

    /// Refuses to delete, as a copy, a meeting on such a server: its attendees would be mailed
    /// a cancellation. The item is read first (one request, on such a server only); one
    /// already gone, or not a meeting, may be deleted.
    /// - Throws: ``MeetingCopyNotSent``.
    func refuseMeetingCopyDeletion(_ member: Href, as intent: WriteIntent, href: ItemHref) async throws {
        guard intent == .copy, !facts.storesMeetingCopies else { return }
        let held = try await client.multiget(collection, hrefs: [member], scheduleTags: false)
        guard let item = held.first, MeetingContent.isMeeting(item.data) else { return }
        throw MeetingCopyNotSent(href: href, deleting: true, facts: facts)
    }
}

extension CalDAVStorage {
    /// Says, for the person's answer with a comment to a meeting the account attends, that the
    /// server's reply to the organizer leaves the comment out (``ServerFacts/keepsReplyComment``:
    /// sabre/dav's iTIP broker builds the REPLY from the attendee's line alone, and takes no
    /// REPLY by its Outbox), so that "sent" is not taken to mean the comment arrived.
    func noteCommentLeftOut(_ data: Data, at href: Href, as intent: WriteIntent) async {
        guard intent == .personsAction, !facts.keepsReplyComment, OutboxReply.carriesComment(data),
            let organizer = UploadForm.organizer(of: data)
        else { return }
        let own = await accountAddresses.get {
            ((try? await self.client.schedulingAccount(at: self.collection).addresses) ?? []).map(
                CalendarUser.normalized)
        }
        guard !own.isEmpty, !own.contains(CalendarUser.normalized(organizer)) else { return }
        notes.add(
            "\(href.path): the server sends your answer to the organizer without its comment (\(facts.title) leaves "
                + "COMMENT out of the replies it makes): tell the organizer yourself if the comment matters")
    }
}
