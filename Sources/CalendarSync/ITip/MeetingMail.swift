import Foundation
import ICalendar
import Mail

/// The scheduling messages a person's action on a meeting mails where the pair's server sends
/// none (Radicale, Xandikos): through the pair's `mail_command`, one mail (RFC 6047) per message
/// a scheduling server would have sent — an invitation or update to each attendee, a
/// cancellation to each, an answer to the organizer. Copies never mail: only what
/// ``MeetingWrite/scheduling(_:acting:pushed:pair:offline:stored:before:uid:)`` reports as the
/// person's action does.
public enum MeetingMail {
    /// `report` with what was mailed: each recipient delivered or not, or, without a
    /// `mail_command`, the reason saying how to have it mailed. A report the server was asked
    /// for, or none, is returned as it is.
    /// - Parameters:
    ///   - stored: the meeting as written (nil for a deletion); `before`: as it was.
    public static func deliver(
        _ report: SchedulingReport?, pair: Pair, offline: Bool, stored: Component?, before: Component, uid: String,
        now: Date = Date()
    ) -> SchedulingReport? {
        guard var report, !report.asked, !offline, pair.schedules,
            (pair.remoteIsGoogle ? true : OwnAddresses.cachedAccount(of: pair)?.autoSchedules) == false
        else { return report }
        guard let command = pair.mailCommand else {
            report.reason =
                (report.reason ?? "this server does not schedule meetings")
                + "; set mail_command in pair \(pair.name) to mail it"
            report.recipients = report.recipients.map {
                SchedulingReport.Recipient(address: $0.address, delivered: false)
            }
            return report
        }
        let calendar = stored ?? before
        let stamp = DateTimeValue(LocalDateTime(secondsSinceEpoch: Int64(now.timeIntervalSince1970)), form: .utc)
        report.mailed = true
        report.reason = nil
        report.recipients = report.recipients.map { recipient in
            var sent = SchedulingReport.Recipient(address: recipient.address, delivered: false)
            do {
                guard
                    let mail = message(
                        report.message, to: recipient.address, in: calendar, pair: pair, uid: uid, now: stamp)
                else {
                    sent.failure = "calgw cannot make the message from the event"
                    return sent
                }
                try MailCommand(command).send(mail.bytes)
                sent.delivered = true
            } catch {
                sent.failure = "\(error)"
            }
            return sent
        }
        return report
    }

    /// The mail of `message` to `recipient` about the meeting `uid` in `calendar`.
    static func message(
        _ message: SchedulingReport.Message, to recipient: String, in calendar: Component, pair: Pair, uid: String,
        now: DateTimeValue
    ) -> SchedulingMail? {
        let events = calendar.components.filter { ["VEVENT", "VTODO"].contains($0.name) && $0["UID"]?.text == uid }
        guard let first = events.first(where: { $0["RECURRENCE-ID"] == nil }) ?? events.first,
            let organizer = first["ORGANIZER"]
        else { return nil }
        let summary = first["SUMMARY"]?.text ?? "(no title)"
        let itip: Component, from: Property, subject: String
        switch message {
        case .reply:
            let own = Set(
                (pair.addresses + (OwnAddresses.cachedAccount(of: pair)?.addresses ?? [])).map(CalendarUser.normalized))
            let answered = events.first { OwnPart.attendee($0, addresses: own) != nil }
            guard let answered, let line = OwnPart.attendee(answered, addresses: own),
                let reply = ITipReplyMessage.reply(
                    to: calendar, uid: uid, recurrenceID: answered["RECURRENCE-ID"]?.value, own: own,
                    comment: answered["COMMENT"]?.text, now: now)
            else { return nil }
            itip = reply
            from = answered.properties[line.index]
            subject = "\(Self.answerWord(line.answer)): \(summary)"
        case .invitation, .update:
            itip = Self.request(calendar, uid: uid)
            from = organizer
            subject = (message == .invitation ? "Invitation: " : "Updated invitation: ") + summary
        case .cancellation:
            itip = Self.cancel(first, zones: calendar.components(named: "VTIMEZONE"), now: now)
            from = organizer
            subject = "Cancelled: \(summary)"
        }
        let text = ICalendarSerializer().string(itip)
        let when = first["DTSTART"]?.value ?? ""
        return SchedulingMail(
            from: MailAddress(address: CalendarUser.normalized(from.value), name: from[parameter: "CN"]),
            to: [MailAddress(address: CalendarUser.normalized(recipient))], subject: subject,
            text: "\(subject)\nWhen: \(when)\nOrganizer: \(CalendarUser.normalized(organizer.value))\n",
            calendar: text, method: itip["METHOD"]?.value ?? "REQUEST")
    }

    /// The meeting as a REQUEST: its events and zones, without alarms or delivery marks.
    static func request(_ calendar: Component, uid: String) -> Component {
        var message = ITipMessage.copy(of: calendar)
        message.components = message.components.filter {
            $0.name == "VTIMEZONE" || $0["UID"]?.text == uid
        }.map { component in
            var component = component
            component.components.removeAll { $0.name == "VALARM" }
            return component
        }
        message.properties.removeAll { $0.name == "METHOD" }
        message.properties.insert(Property(name: "METHOD", value: "REQUEST"), at: min(2, message.properties.count))
        return message
    }

    /// The cancellation of the whole meeting whose main event is `event` (RFC 5546 §3.2.5).
    static func cancel(_ event: Component, zones: [Component], now: DateTimeValue) -> Component {
        var cancelled = Component(name: event.name)
        let kept: Set<String> = ["UID", "DTSTART", "DTEND", "DURATION", "SUMMARY", "ORGANIZER", "ATTENDEE", "RRULE"]
        cancelled.properties = event.properties.filter { kept.contains($0.name) }
        cancelled.properties.append(Property(name: "SEQUENCE", value: String((event["SEQUENCE"]?.integer ?? 0) + 1)))
        cancelled.properties.append(.dateTime("DTSTAMP", now))
        cancelled.properties.append(Property(name: "STATUS", value: "CANCELLED"))
        let used = Set(cancelled.properties.compactMap { $0[parameter: "TZID"] })
        return Component(
            name: "VCALENDAR",
            properties: [
                Property(name: "VERSION", value: "2.0"), Property(name: "PRODID", value: "-//calgw//calgw//EN"),
                Property(name: "METHOD", value: "CANCEL"),
            ],
            components: zones.filter { used.contains($0["TZID"]?.value ?? "") } + [cancelled])
    }

    static func answerWord(_ partstat: String) -> String {
        switch partstat {
        case "ACCEPTED": "Accepted"
        case "DECLINED": "Declined"
        case "TENTATIVE": "Tentatively accepted"
        default: "Answer"
        }
    }
}
