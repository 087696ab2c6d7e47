import CalDAV
import Foundation
import HTTP
import ICalendar

extension CalDAVStorage {
    /// The version stored at `url` before the person's update `data`, read when the update
    /// is the organizer's change of a meeting with attendees on DAViCal, whose own update to
    /// the attendees it invited before leaves much of a change out (``DAViCalAttendeeUpdate``);
    /// nil otherwise, or when it cannot be read. One GET, for such updates only; the account's
    /// addresses are asked at most once per run.
    func versionBeforeOrganizerUpdate(_ data: Data, at url: URL, as intent: WriteIntent) async -> Component? {
        guard intent == .personsAction, copiesNeedClientAgent,
            let organizer = UploadForm.organizer(of: data),
            data.range(of: Data("ATTENDEE".utf8)) != nil
        else { return nil }
        let own = await ownAddresses()
        guard own.contains(CalendarUser.normalized(organizer)), let stored = try? await client.get(url) else {
            return nil
        }
        return (try? ICalendarParser().parse(stored.data))?.components.first { $0.name == "VCALENDAR" }
    }

    /// After the organizer's update `data` of the meeting stored as `before` at `href`: when
    /// DAViCal's own update leaves part of the change out, the whole version goes to each
    /// attendee it was sent to, by POST to the account's schedule Outbox
    /// (``OutboxRequest``), and the copies DAViCal files in the account's own Inbox are
    /// removed. What cannot be sent is said in a note; the write itself stands.
    func sendWhatTheServersUpdateLeftOut(before: Component, after data: Data, href: Href) async {
        let written = UploadForm.canonical(data, unmarked: true)
        guard let after = (try? ICalendarParser().parse(written))?.components.first(where: { $0.name == "VCALENDAR" }),
            DAViCalAttendeeUpdate.leavesOut(before: before, after: after)
        else { return }
        let own = await ownAddresses()
        let recipients = DAViCalAttendeeUpdate.earlierAttendees(before: before, after: after, own: own)
        guard !recipients.isEmpty else { return }
        guard let account = try? await client.schedulingAccount(at: collection), let outbox = account.outbox else {
            notes.add(unsentNote(href, to: recipients, reason: "the account has no schedule outbox"))
            return
        }
        let stamp = Self.stampAfter(after, now: Date())
        var unsent: [String] = []
        var reason = ""
        var sent: [Data] = []
        for recipient in recipients {
            for message in OutboxRequest.messages(from: written, to: recipient, own: own, stamp: stamp) {
                do {
                    try await client.postSchedulingMessage(message, to: outbox)
                    sent.append(message)
                } catch let error as HTTPError {
                    reason = error.serverReason ?? error.status.map { "answered \($0)" } ?? error.message
                    if unsent.last != recipient { unsent.append(recipient) }
                } catch {
                    reason = "\(error)"
                    if unsent.last != recipient { unsent.append(recipient) }
                }
            }
        }
        if !unsent.isEmpty {
            notes.add(unsentNote(href, to: unsent, reason: "POST to the schedule outbox: \(reason)"))
        }
        if let inbox = account.inbox, !sent.isEmpty { await removeOwnCopies(of: sent, from: inbox) }
    }

    /// The account's calendar addresses, normalised; asked of the server once per run.
    func ownAddresses() async -> Set<String> {
        Set(
            await accountAddresses.get {
                ((try? await self.client.schedulingAccount(at: self.collection).addresses) ?? []).map(
                    CalendarUser.normalized)
            })
    }

    /// A second after the latest DTSTAMP of `calendar`'s events, or `now` when later: the
    /// attendee's client orders two messages of one SEQUENCE by DTSTAMP, and the server's own
    /// message carries the organizer's.
    static func stampAfter(_ calendar: Component, now: Date) -> Date {
        let latest = calendar.components.compactMap { $0["DTSTAMP"]?.dateTime }.map {
            Date(timeIntervalSince1970: TimeInterval($0.local.secondsSinceEpoch))
        }.max()
        return max(now, latest.map { $0.addingTimeInterval(1) } ?? now)
    }

    private func unsentNote(_ href: Href, to recipients: [String], reason: String) -> String {
        "\(href.path): the server's update to \(recipients.joined(separator: ", ")) leaves part of your change out "
            + "(a cancelled occurrence, a shortened series, an override …), and sending the whole of it failed "
            + "(\(reason)); tell them yourself"
    }
}
