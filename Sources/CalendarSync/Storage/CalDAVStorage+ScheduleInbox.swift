import CalDAV
import Foundation
import HTTP
import ICalendar

extension CalDAVStorage: ScheduleInboxStorage {
    /// Applies the organizer's REQUEST and CANCEL messages in the account's schedule Inbox to
    /// the copies in this collection, on a server that does not apply them itself (DAViCal, known
    /// once a request of this run was answered: see ``ServerTraits/ignoresSchedulingSwitch``).
    /// Messages for meetings not in this collection, from anyone but the meeting's organizer,
    /// or of other methods (REPLY) stay in the Inbox.
    public func applyScheduleInbox() async throws -> Int {
        guard client.traits.ignoresSchedulingSwitch else { return 0 }
        let account = try await client.schedulingAccount(at: collection)
        guard let inbox = account.inbox else { return 0 }
        let own = Set(account.addresses.map(CalendarUser.normalized))
        var byMeeting: [String: [(resource: CalendarResource, message: OrganizerMessage)]] = [:]
        for resource in try await client.inboxMessages(inbox) {
            guard let calendar = try? ICalendarParser().parse(resource.data).calendar,
                let message = OrganizerMessage(calendar)
            else { continue }
            byMeeting[message.uid, default: []].append((resource, message))
        }
        var applied = 0
        for (uid, messages) in byMeeting.sorted(by: { $0.key < $1.key }) {
            guard let copy = try await copy(of: uid) else { continue }
            var current = copy.calendar
            var done: [CalendarResource] = []
            var count = 0
            let ordered = messages.sorted {
                ($0.message.order.sequence, $0.message.order.stamp) < (
                    $1.message.order.sequence, $1.message.order.stamp
                )
            }
            for (resource, message) in ordered {
                switch message.apply(to: current, own: own) {
                case .applied(let changed):
                    current = changed
                    count += 1
                    done.append(resource)
                case .stale: done.append(resource)
                case .notApplicable: continue
                }
            }
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
                } catch let error as CalDAVError where error.status == 412 {
                    // Changed meanwhile: the next run applies the messages to what is there then.
                    continue
                }
                applied += count
            }
            let base = HrefResolver(base: inbox)
            for resource in done {
                // A message rewritten in place since it was read keeps its new version.
                try? await client.delete(base.url(for: resource.href), ifMatch: resource.etag, scheduling: .copy)
            }
        }
        return applied
    }

    /// The member of this collection holding the meeting `uid`, as read now; nil when none does.
    private func copy(of uid: String) async throws -> (url: URL, etag: ETag, calendar: Component)? {
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
