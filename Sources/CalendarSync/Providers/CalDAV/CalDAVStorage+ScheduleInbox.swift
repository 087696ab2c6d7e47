import CalDAV
import Foundation
import HTTP
import ICalendar

extension CalDAVStorage: ScheduleInboxStorage {
    /// Applies the organizer's REQUEST and CANCEL messages in the account's schedule Inbox to
    /// the copies in this collection, on a server that does not apply them itself (DAViCal, known
    /// once a request of this run was answered: see ``ServerFacts/MeetingCopies/scheduleAgentClient``),
    /// and the attendees' REPLYs to the copies of the meetings the account organizes (DAViCal
    /// files a REPLY an attendee's client POSTed to its Outbox in the Inbox and applies none).
    /// Messages for meetings not in this collection, from anyone but the meeting's organizer,
    /// or REPLYs naming none of its attendees, stay in the Inbox; but cancellations of whole
    /// meetings that no calendar of the account holds are removed (DAViCal deletes the
    /// attendee's copy itself and files the CANCEL besides, where it would stay for ever).
    /// A server that applies the messages itself and keeps them besides (Cyrus) has those its
    /// copies show removed (``removeMessagesTheServerApplied()``).
    public func applyScheduleInbox() async throws -> ScheduleInboxApplied {
        guard copiesNeedClientAgent else { return try await removeMessagesTheServerApplied() }
        let account = try await client.schedulingAccount(at: collection)
        guard let inbox = account.inbox else { return ScheduleInboxApplied() }
        let own = Set(account.addresses.map(CalendarUser.normalized))
        var byMeeting: [String: [(resource: CalendarResource, message: OrganizerMessage)]] = [:]
        var replies: [String: [(resource: CalendarResource, reply: AttendeeReply)]] = [:]
        for resource in try await client.inboxMessages(inbox) {
            guard var calendar = try? ICalendarParser().parse(resource.data).calendar else { continue }
            // Sent by calgw through the organizer's Outbox, its ORGANIZER and the organizer's
            // own line are spelled with the domain's case changed (``OutboxRequest``).
            UploadForm.spellAddressesBack(&calendar)
            if let message = OrganizerMessage(calendar) {
                byMeeting[message.uid, default: []].append((resource, message))
            } else if let reply = AttendeeReply(calendar) {
                replies[reply.uid, default: []].append((resource, reply))
            }
        }
        var applied = ScheduleInboxApplied()
        applied.answers = try await applyReplies(replies, own: own, inbox: inbox)
        for (uid, messages) in byMeeting.sorted(by: { $0.key < $1.key }) {
            guard let copy = try await copy(of: uid) else {
                applied.mootCancellations += await removeMootCancellations(messages, uid: uid, inbox: inbox)
                continue
            }
            let ordered = messages.sorted {
                ($0.message.order.sequence, $0.message.order.stamp) < (
                    $1.message.order.sequence, $1.message.order.stamp
                )
            }
            let (current, count, done) = Self.applying(
                ordered.map { ($0.resource, $0.message.apply(to:own:)) }, to: copy.calendar, own: own)
            if count > 0 {
                // The organizer alone is marked: an attendee's copy whose own line says the
                // client schedules gets no more of the organizer's messages from DAViCal. The
                // account's own line is spelled so that DAViCal sends no reply for the copy
                // (which fails the write with an Inbox made by DAViCal's admin screen).
                let data = UploadForm.withOwnAttendeeRespelled(
                    UploadForm.withoutAttendeeMarks(
                        UploadForm.canonical(Data(ICalendarSerializer().serialize(current)), clientScheduled: true)),
                    addresses: own)
                do {
                    try await client.put(copy.url, data: data, condition: .ifMatch(copy.etag), scheduling: .copy)
                } catch let error as HTTPError where error.status == 412 {
                    // Changed meanwhile: the next run applies the messages to what is there then.
                    continue
                }
                applied.organizerUpdates += count
            }
            let base = HrefResolver(base: inbox)
            for resource in done {
                // A message rewritten in place since it was read keeps its new version.
                try? await client.delete(base.url(for: resource.href), ifMatch: resource.etag, scheduling: .copy)
            }
        }
        return applied
    }

    /// The Inbox messages `messages` (each with how it applies to a copy), in order, applied
    /// to `calendar`: the copy they leave, how many of them changed it, and the messages done
    /// with (applied, or stale: older than the copy); those not applicable stay in the Inbox.
    static func applying(
        _ messages: [(resource: CalendarResource, apply: (Component, Set<String>) -> OrganizerMessage.Outcome)],
        to calendar: Component, own: Set<String>
    ) -> (calendar: Component, applied: Int, done: [CalendarResource]) {
        var current = calendar
        var applied = 0
        var done: [CalendarResource] = []
        for (resource, apply) in messages {
            switch apply(current, own) {
            case .applied(let changed):
                current = changed
                applied += 1
                done.append(resource)
            case .stale: done.append(resource)
            case .notApplicable: continue
            }
        }
        return (current, applied, done)
    }

    /// Applies the attendees' REPLYs of each meeting, oldest first, to the account's copy of it
    /// (written as a copy, which invites nobody), then removes those applied or stale.
    /// - Returns: how many were applied.
    private func applyReplies(
        _ replies: [String: [(resource: CalendarResource, reply: AttendeeReply)]], own: Set<String>, inbox: URL
    ) async throws -> Int {
        var applied = 0
        for (uid, answers) in replies.sorted(by: { $0.key < $1.key }) {
            guard let copy = try await copy(of: uid) else { continue }
            let ordered = answers.sorted { $0.reply.stamp < $1.reply.stamp }
            let (current, count, done) = Self.applying(
                ordered.map { ($0.resource, $0.reply.apply(to:own:)) }, to: copy.calendar, own: own)
            if count > 0 {
                let data = UploadForm.canonical(Data(ICalendarSerializer().serialize(current)), clientScheduled: true)
                do {
                    try await client.put(copy.url, data: data, condition: .ifMatch(copy.etag), scheduling: .copy)
                } catch let error as HTTPError where error.status == 412 {
                    continue
                }
                applied += count
            }
            let base = HrefResolver(base: inbox)
            for resource in done {
                // Deleted as it is, the answer would cancel the meeting (see
                // ``UploadForm/withOrganizerRespelled(_:)``): it is rewritten first, and left
                // where it is when that fails.
                let url = base.url(for: resource.href)
                guard
                    let rewritten = try? await client.put(
                        url, data: UploadForm.withOrganizerRespelled(resource.data),
                        condition: .ifMatch(resource.etag), scheduling: .copy)
                else { continue }
                try? await client.delete(url, ifMatch: rewritten, scheduling: .copy)
            }
        }
        return applied
    }

    /// Removes `messages`, the Inbox's messages for the meeting `uid` that this collection does
    /// not hold, when each cancels the whole meeting and no other calendar beside this one (in
    /// the same calendar home) holds it either: nothing is left for them to apply to.
    /// - Returns: how many were removed; none when the other calendars cannot be read.
    private func removeMootCancellations(
        _ messages: [(resource: CalendarResource, message: OrganizerMessage)], uid: String, inbox: URL
    ) async -> Int {
        guard
            messages.allSatisfy({ item in
                item.message.method == .cancel && item.message.events.contains { $0["RECURRENCE-ID"] == nil }
            }),
            let calendars = try? await client.calendars(inHome: collection.deletingLastPathComponent())
        else { return 0 }
        for calendar in calendars where calendar.url.path != collection.path {
            guard let members = try? await client.members(withUID: uid, in: calendar.url), members.isEmpty else {
                return 0
            }
        }
        let base = HrefResolver(base: inbox)
        var removed = 0
        for (resource, _) in messages {
            do {
                try await client.delete(base.url(for: resource.href), ifMatch: resource.etag, scheduling: .copy)
                removed += 1
            } catch {
                continue
            }
        }
        return removed
    }

    /// DAViCal's (``ServerFacts/MeetingCopies/scheduleAgentClient``) only: its Inbox's token, as this
    /// run read it already (``InboxTokens``), else by one PROPFIND Depth 0 of the Inbox; its URL
    /// is asked of the principal the first time only.
    public func scheduleInboxMark(known: ScheduleInboxMark?) async throws -> ScheduleInboxMark? {
        guard copiesNeedClientAgent else { return nil }
        let inbox: URL
        if let known, let url = URL(string: known.inbox) {
            inbox = url
        } else {
            guard let url = try await client.schedulingAccount(at: collection).inbox else { return nil }
            inbox = url
        }
        let client = self.client
        let token = try await inboxTokens.token(at: inbox.path) { try await client.collectionInfo(inbox) }
        return ScheduleInboxMark(inbox: inbox.absoluteString, token: token ?? "")
    }

    /// Whole-meeting CANCELs from the meeting's organizer, none of them the account's own
    /// meetings, among the Inbox's messages.
    public func cancelledMeetings(among uids: Set<String>) async throws -> Set<String> {
        guard !uids.isEmpty, let inbox = try await client.schedulingAccount(at: collection).inbox else { return [] }
        let own = await ownAddresses()
        var cancelled: Set<String> = []
        for resource in try await client.inboxMessages(inbox) {
            guard var calendar = try? ICalendarParser().parse(resource.data).calendar else { continue }
            UploadForm.spellAddressesBack(&calendar)
            guard let message = OrganizerMessage(calendar), message.method == .cancel, uids.contains(message.uid),
                !own.contains(message.organizer), message.events.contains(where: { $0["RECURRENCE-ID"] == nil })
            else { continue }
            cancelled.insert(message.uid)
        }
        return cancelled
    }

    /// The member of this collection holding the meeting `uid`, as read now; nil when none does.
    func copy(of uid: String) async throws -> (url: URL, etag: ETag, calendar: Component)? {
        for member in try await client.members(withUID: uid, in: collection) {
            let url = resolver.url(for: member.href)
            guard let resource = try? await client.get(url),
                let calendar = try? ICalendarParser().parse(resource.data).calendar,
                calendar.components.contains(where: { $0.name == "VEVENT" && $0["UID"]?.text == uid })
            else { continue }
            return (url, resource.etag.value.isEmpty ? member.etag : resource.etag, calendar)
        }
        return nil
    }
}
