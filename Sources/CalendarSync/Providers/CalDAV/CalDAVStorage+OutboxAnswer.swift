import CalDAV
import Foundation
import HTTP
import ICalendar

extension CalDAVStorage {
    /// The person's answer to a meeting the account attends, on DAViCal, whose reply code failed
    /// the write of the answered copy (500, storing nothing): DAViCal 1.1.12 does so for every
    /// answer when the organizer's schedule Inbox is of the calendar type, as its admin screen
    /// makes every Inbox. The copy is written so that DAViCal sends no reply for it
    /// (``attendeeCopyForm(_:)``), and the REPLY is sent by the client itself, by POST to the
    /// account's schedule Outbox (RFC 6638 §5), which DAViCal delivers to the organizer's Inbox.
    /// The organizer's copy is not changed by DAViCal: the organizer's client applies the REPLY.
    ///
    /// When the REPLY is delivered, the version kept for the vdir marks the ORGANIZER
    /// `SCHEDULE-STATUS=1.2` (delivered), as DAViCal's own reply code marks it; when it is not,
    /// the copy is stored as the answer and a note says the organizer was not told.
    ///
    /// An answer with a COMMENT goes this way from the start: where DAViCal's reply code works
    /// (an organizer's Inbox as DAViCal makes it on first delivery), the REPLY it sends leaves
    /// the comment out.
    /// - Parameter failure: the failure of the write through DAViCal's reply code; nil for an
    ///   answer with a comment, not tried that way.
    /// - Returns: what the server kept of the copy; nil when this is not such an answer (the
    ///   caller reports `failure`, or writes the answer as any other).
    /// - Throws: `HTTPError` when the copy cannot be written (412: changed meanwhile).
    func answeredThroughOutbox(_ data: Data, at url: URL, condition: WriteCondition, failure: HTTPError?)
        async throws -> StoredWrite?
    {
        guard copiesNeedClientAgent, failure.map({ $0.status == 500 }) ?? true,
            let organizer = UploadForm.organizer(of: data),
            let account = try? await client.schedulingAccount(at: collection), let outbox = account.outbox
        else { return nil }
        let own = Set(account.addresses.map(CalendarUser.normalized))
        let now = Date()
        guard !own.isEmpty, !own.contains(CalendarUser.normalized(organizer)),
            let reply = OutboxReply.message(from: data, addresses: own, now: now)
        else { return nil }
        let copy = UploadForm.withOwnAttendeeRespelled(
            UploadForm.withoutAttendeeMarks(UploadForm.canonical(data, clientScheduled: true)), addresses: own)
        var stored = try await client.write(url, data: copy, condition: condition, scheduling: .copy)
        do {
            try await client.postSchedulingMessage(reply, to: outbox)
        } catch let error as HTTPError {
            let reason = error.serverReason ?? "\(error.status.map { "answered \($0)" } ?? error.message)"
            notes.add(
                "\(HrefResolver.href(of: url).path): the server stored your answer but did not deliver it to "
                    + "\(CalendarUser.normalized(organizer)) (POST to the schedule outbox: \(reason)); "
                    + "tell them yourself")
            return stored
        }
        stored.rewritten = UploadForm.withOrganizerStatus(UploadForm.canonical(data), "1.2")
        if let inbox = account.inbox { await removeOwnReply(reply, from: inbox) }
        return stored
    }

    /// Removes from the account's own schedule Inbox the copy of `reply` that DAViCal files
    /// there besides delivering it to the organizer.
    private func removeOwnReply(_ reply: Data, from inbox: URL) async {
        await removeOwnCopies(of: [reply], from: inbox)
    }

    /// Removes from the account's own schedule Inbox the copies DAViCal files there of the
    /// messages `sent` by its Outbox (each a message with the METHOD, UID and DTSTAMP of one
    /// sent), without scheduling (`Schedule-Reply: F`): the account sent them, and nobody is to
    /// read them there. One listing of the Inbox; a failure leaves them where they are.
    func removeOwnCopies(of sent: [Data], from inbox: URL) async {
        let keys = Set(sent.compactMap(Self.messageKey))
        guard !keys.isEmpty, let messages = try? await client.inboxMessages(inbox) else { return }
        let base = HrefResolver(base: inbox)
        for message in messages {
            guard let key = Self.messageKey(message.data), keys.contains(key) else { continue }
            try? await client.delete(base.url(for: message.href), ifMatch: message.etag, scheduling: .copy)
        }
    }

    /// What tells a message the account sent from the others in its Inbox: its METHOD, and its
    /// first event's UID, RECURRENCE-ID and DTSTAMP.
    private static func messageKey(_ data: Data) -> String? {
        guard let calendar = (try? ICalendarParser().parse(data))?.components.first(where: { $0.name == "VCALENDAR" }),
            let event = calendar.components.first(where: { $0.name == "VEVENT" }), let uid = event["UID"]?.text
        else { return nil }
        let method = calendar["METHOD"]?.value.uppercased() ?? ""
        return [method, uid, event["RECURRENCE-ID"]?.value ?? "", event["DTSTAMP"]?.value ?? ""].joined(separator: "|")
    }

    /// The decline of a meeting the account attends, sent by POST to the account's schedule
    /// Outbox (RFC 6638 §5), after DAViCal failed to send it for the person's deletion of the
    /// copy (500) and the copy was deleted without scheduling: `stored` is the copy as it was.
    /// - Returns: whether the server took the REPLY for delivery; false for a meeting the
    ///   account organizes or does not attend, or a server that did not take it.
    func declinedThroughOutbox(_ stored: Data) async -> Bool {
        guard copiesNeedClientAgent, let organizer = UploadForm.organizer(of: stored),
            let account = try? await client.schedulingAccount(at: collection), let outbox = account.outbox
        else { return false }
        let own = Set(account.addresses.map(CalendarUser.normalized))
        let now = Date()
        guard !own.isEmpty, !own.contains(CalendarUser.normalized(organizer)),
            let reply = OutboxReply.message(from: stored, addresses: own, partstat: "DECLINED", now: now),
            (try? await client.postSchedulingMessage(reply, to: outbox)) != nil
        else { return false }
        if let inbox = account.inbox { await removeOwnReply(reply, from: inbox) }
        return true
    }
}
