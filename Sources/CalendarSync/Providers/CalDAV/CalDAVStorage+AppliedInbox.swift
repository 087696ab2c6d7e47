import CalDAV
import Foundation
import ICalendar

extension CalDAVStorage {
    /// Removes from the account's schedule Inbox the messages a server that schedules by itself
    /// (Cyrus) has applied already, and those of meetings the account's calendars no longer
    /// hold. Such a server writes each REQUEST, CANCEL and REPLY into the copy of the meeting
    /// and keeps the message in the Inbox besides, for a client to remove (RFC 6638 §4.1):
    /// left alone they pile up for ever, cancellations of meetings long gone among them.
    ///
    /// The Inbox is read in two requests (``CalDAVClient/inboxMessages(_:)``), so a run costs
    /// the same whatever it holds, and it holds little once read. A meeting's messages go when
    /// applying them all, in order, leaves this collection's copy as it is (the copy shows
    /// them: ``OrganizerMessage`` and ``AttendeeReply`` find each stale); those of a meeting
    /// no calendar of the account's home holds go too. Messages for meetings in another
    /// calendar are left to that calendar's pair; a message the copy does not show yet, or from
    /// anyone but the organizer, stays. Each removal is conditioned on the etag read and
    /// schedules nothing.
    /// - Returns: how many messages were removed (``ScheduleInboxApplied/removed``); nothing
    ///   where the server does not schedule (one OPTIONS request tells), nor on Google, whose
    ///   Inbox calgw leaves alone.
    func removeMessagesTheServerApplied() async throws -> ScheduleInboxApplied {
        guard facts.scheduling == .asAdvertised, try await client.autoSchedules(at: collection) else {
            return ScheduleInboxApplied()
        }
        let account = try await client.schedulingAccount(at: collection, autoSchedules: true)
        guard let inbox = account.inbox else { return ScheduleInboxApplied() }
        let own = Set(account.addresses.map(CalendarUser.normalized))
        var byMeeting: [String: [InboxMessage]] = [:]
        for resource in try await client.inboxMessages(inbox) {
            guard let calendar = try? ICalendarParser().parse(resource.data).calendar,
                let message = InboxMessage(resource, calendar)
            else { continue }
            byMeeting[message.uid, default: []].append(message)
        }
        var applied = ScheduleInboxApplied()
        let base = HrefResolver(base: inbox)
        for (uid, messages) in byMeeting.sorted(by: { $0.key < $1.key }) {
            let done: [CalendarResource]
            if let copy = try await copy(of: uid) {
                done = Self.shown(messages, in: copy.calendar, own: own)
            } else if await heldByNoOtherCalendar(uid) {
                done = messages.map(\.resource)
            } else {
                continue
            }
            for resource in done {
                do {
                    try await client.delete(base.url(for: resource.href), ifMatch: resource.etag, scheduling: .copy)
                    applied.removed += 1
                } catch {
                    continue
                }
            }
        }
        return applied
    }

    /// The messages of one meeting that `calendar`, the account's copy, shows already: all
    /// that apply (organizers' in order of SEQUENCE and DTSTAMP, then answers in order of
    /// DTSTAMP) when applying them leaves the copy as it is; none otherwise.
    static func shown(_ messages: [InboxMessage], in calendar: Component, own: Set<String>) -> [CalendarResource] {
        let updates = messages.compactMap { item in item.update.map { (item.resource, $0) } }.sorted {
            ($0.1.order.sequence, $0.1.order.stamp) < ($1.1.order.sequence, $1.1.order.stamp)
        }
        let answers = messages.compactMap { item in item.answer.map { (item.resource, $0) } }.sorted {
            $0.1.stamp < $1.1.stamp
        }
        let (updated, _, updatesDone) = applying(updates.map { ($0.0, $0.1.apply(to:own:)) }, to: calendar, own: own)
        let (answered, _, answersDone) = applying(answers.map { ($0.0, $0.1.apply(to:own:)) }, to: updated, own: own)
        return answered == calendar ? updatesDone + answersDone : []
    }

    /// Whether no calendar of the account's home but this one holds the meeting `uid` (this
    /// one was asked already); false when they cannot be read.
    func heldByNoOtherCalendar(_ uid: String) async -> Bool {
        guard let calendars = try? await client.calendars(inHome: collection.deletingLastPathComponent()) else {
            return false
        }
        for calendar in calendars where calendar.url.path != collection.path {
            guard let members = try? await client.members(withUID: uid, in: calendar.url), members.isEmpty else {
                return false
            }
        }
        return true
    }
}

/// One message of a schedule Inbox: an organizer's REQUEST or CANCEL, or an attendee's REPLY.
struct InboxMessage {
    /// The message as read (href, etag, bytes).
    var resource: CalendarResource
    /// The organizer's message, when it is one.
    var update: OrganizerMessage?
    /// The attendee's answer, when it is one.
    var answer: AttendeeReply?

    /// The meeting the message is about.
    var uid: String { update?.uid ?? answer?.uid ?? "" }

    /// `resource`, whose text is `calendar`; nil for anything but the three kinds.
    init?(_ resource: CalendarResource, _ calendar: Component) {
        self.resource = resource
        update = OrganizerMessage(calendar)
        answer = update == nil ? AttendeeReply(calendar) : nil
        if update == nil && answer == nil { return nil }
    }
}
