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
    /// `mail_command`, the reason saying how to have it mailed. Where the server was asked, only
    /// the people it marked undelivered (SCHEDULE-STATUS 3.x or 5.x: an address outside it that
    /// it cannot mail) are mailed, so each person gets the message once, from the server or
    /// from calgw. Returned as it is when the server's scheduling is unknown, or offline.
    /// - Parameters:
    ///   - stored: the meeting as written (nil for a deletion); `before`: as it was.
    public static func deliver(
        _ report: SchedulingReport?, pair: Pair, offline: Bool, stored: Component?, before: Component, uid: String,
        now: Date = Date()
    ) -> SchedulingReport? {
        guard var report, !offline, pair.schedules else { return report }
        let serverSchedules = pair.serverSchedules
        let calendar = stored ?? before
        let declining = stored == nil && report.message == .reply
        let stamp = DateTimeValue(LocalDateTime(secondsSinceEpoch: Int64(now.timeIntervalSince1970)), form: .utc)
        if report.asked {
            // The server sent what it could; what it marked undelivered goes by mail, if mailable.
            guard let command = pair.mailCommand, report.recipients.contains(where: { $0.delivered == false })
            else { return report }
            report.recipients = report.recipients.map { recipient in
                guard recipient.delivered == false else { return recipient }
                var sent = send(
                    recipient.message ?? report.message, to: recipient.address, calendar: calendar, before: before,
                    pair: pair, uid: uid, now: stamp, command: command, declining: declining)
                sent.status = recipient.status
                sent.message = recipient.message
                return sent
            }
            report.mailed = true
            return report
        }
        guard serverSchedules == false else { return report }
        let removed =
            stored != nil && report.message == .update
            ? removedAttendees(from: before, in: calendar, uid: uid).map {
                SchedulingReport.Recipient(address: $0, delivered: false, message: .cancellation)
            } : []
        guard let command = pair.mailCommand else {
            report.reason =
                (report.reason ?? "this server does not schedule meetings")
                + "; set mail_command in pair \(pair.name) to mail it"
            report.recipients =
                report.recipients.map { SchedulingReport.Recipient(address: $0.address, delivered: false) } + removed
            return report
        }
        report.mailed = true
        report.reason = nil
        report.recipients = (report.recipients + removed).map { recipient in
            var sent = send(
                recipient.message ?? report.message, to: recipient.address, calendar: calendar, before: before,
                pair: pair, uid: uid, now: stamp, command: command, declining: declining)
            sent.message = recipient.message
            return sent
        }
        return report
    }

    /// Mails `message` to `address` through `command`: the recipient as mailed, delivered or
    /// with the reason it was not.
    static func send(
        _ message: SchedulingReport.Message, to address: String, calendar: Component, before: Component,
        pair: Pair, uid: String, now: DateTimeValue, command: [String], declining: Bool = false
    ) -> SchedulingReport.Recipient {
        var sent = SchedulingReport.Recipient(address: address, delivered: false)
        sent.mailed = true
        guard
            let mail = self.message(
                message, to: address, in: calendar, before: before, pair: pair, uid: uid, now: now,
                declining: declining)
        else {
            sent.failure = "calgw cannot make the message from the event"
            return sent
        }
        do {
            try MailCommand(command).send(mail.bytes)
            sent.delivered = true
        } catch {
            // Kept with the pair: its next run mails it again (``MailQueue``).
            let kept = (try? MailQueue(pair: pair).keep(mail.bytes)) != nil
            sent.failure = "\(error)" + (kept ? "; kept, the pair's next run mails it again" : "")
            sent.kept = kept
        }
        return sent
    }

    /// The attendees of `uid` in `before` whom `calendar` no longer names anywhere (the
    /// organizer aside): an update removed them, and a scheduling server would cancel the
    /// meeting for them (RFC 6638 §3.2.1.2).
    static func removedAttendees(from before: Component, in calendar: Component, uid: String) -> [String] {
        func attendees(_ calendar: Component) -> [(key: String, value: String)] {
            calendar.components.filter { $0.name == "VEVENT" && $0["UID"]?.text == uid }.flatMap { event in
                let chair = event["ORGANIZER"].map { CalendarUser.normalized($0.value) }
                return event.properties.filter { $0.name == "ATTENDEE" }
                    .map { (key: CalendarUser.normalized($0.value), value: $0.value) }
                    .filter { $0.key != chair }
            }
        }
        let kept = Set(attendees(calendar).map(\.key))
        var seen = Set<String>()
        return attendees(before).filter { !kept.contains($0.key) && seen.insert($0.key).inserted }.map(\.value)
    }

    /// The mail of `message` to `recipient` about the meeting `uid` in `calendar`.
    /// - Parameter declining: a deletion of the invitation: the answer mailed is a decline.
    static func message(
        _ message: SchedulingReport.Message, to recipient: String, in calendar: Component, before: Component,
        pair: Pair, uid: String, now: DateTimeValue, declining: Bool = false
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
            // A deletion of the invitation declines it, whatever was answered before.
            let answering = declining ? Self.declined(calendar, uid: uid, own: own) : calendar
            let named = answering.components.filter {
                ["VEVENT", "VTODO"].contains($0.name) && $0["UID"]?.text == uid
                    && OwnPart.attendee($0, addresses: own) != nil
            }
            // The series when its answer changed (or for a decline), else the occurrence whose
            // answer changed (a one-occurrence answer), else the series.
            let changed = declining ? named : named.filter { Self.answerChanged($0, since: before, own: own) }
            let answered =
                changed.first { $0["RECURRENCE-ID"] == nil } ?? changed.first
                ?? named.first { $0["RECURRENCE-ID"] == nil } ?? named.first
            guard let answered, let line = OwnPart.attendee(answered, addresses: own),
                let reply = ITipReplyMessage.reply(
                    to: answering, uid: uid, recurrenceID: answered["RECURRENCE-ID"]?.value, own: own,
                    comment: declining ? nil : answered["COMMENT"]?.text, now: now)
            else { return nil }
            itip = reply
            from = answered.properties[line.index]
            subject = "\(Self.answerWord(line.answer)): \(summary)"
        case .invitation, .update:
            itip = Self.request(calendar, uid: uid)
            from = organizer
            subject = (message == .invitation ? "Invitation: " : "Updated invitation: ") + summary
        case .cancellation:
            let zones = calendar.components(named: "VTIMEZONE")
            let key = CalendarUser.normalized(recipient)
            if first["ATTENDEE"] != nil,
                !first.properties.contains(where: {
                    $0.name == "ATTENDEE" && CalendarUser.normalized($0.value) == key
                })
            {
                // Removed by an update: cancelled for them alone, at the update's sequence.
                let line = before.components.lazy.compactMap { event in
                    event.properties.first { $0.name == "ATTENDEE" && CalendarUser.normalized($0.value) == key }
                }.first
                itip = Self.cancel(first, zones: zones, now: now, removed: line.map { [$0] })
            } else {
                itip = Self.cancel(first, zones: zones, now: now)
            }
            from = organizer
            subject = "Cancelled: \(summary)"
        }
        let text = ICalendarSerializer().string(itip)
        let when = first["DTSTART"]?.value ?? ""
        return SchedulingMail(
            from: MailAddress(address: CalendarUser.normalized(from.value), name: from[parameter: "CN"]),
            to: [MailAddress(address: CalendarUser.normalized(recipient))], subject: subject,
            text: InvitationView.mailText(of: text, before: message == .update ? before : nil)
                ?? "\(subject)\nWhen: \(when)\nOrganizer: \(CalendarUser.normalized(organizer.value))\n",
            calendar: text, method: itip["METHOD"]?.value ?? "REQUEST")
    }

    /// Whether `event`'s answer for the person differs from the one `before` gave at the same
    /// occurrence (its PARTSTAT or its COMMENT), or `before` has no such occurrence: the
    /// component a one-occurrence answer made or changed.
    static func answerChanged(_ event: Component, since before: Component, own: Set<String>) -> Bool {
        let occurrence = event["RECURRENCE-ID"]?.value
        guard
            let earlier = before.components.first(where: {
                $0.name == event.name && $0["UID"]?.text == event["UID"]?.text
                    && $0["RECURRENCE-ID"]?.value == occurrence
            })
        else { return true }
        return OwnPart.attendee(earlier, addresses: own)?.answer != OwnPart.attendee(event, addresses: own)?.answer
            || earlier["COMMENT"]?.text != event["COMMENT"]?.text
    }

    /// `calendar` with the person's answer DECLINED in every component of `uid` naming them.
    static func declined(_ calendar: Component, uid: String, own: Set<String>) -> Component {
        var result = calendar
        for i in result.components.indices where result.components[i]["UID"]?.text == uid {
            if let line = OwnPart.attendee(result.components[i], addresses: own) {
                result.components[i].properties[line.index].setParameter("PARTSTAT", "DECLINED")
            }
        }
        return result
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

    /// The cancellation of the whole meeting whose main event is `event` (RFC 5546 §3.2.5): to
    /// everyone after a deletion (the sequence raised past the last version), or to the
    /// `removed` attendees alone after an update that left them out (its own sequence).
    static func cancel(_ event: Component, zones: [Component], now: DateTimeValue, removed: [Property]? = nil)
        -> Component
    {
        var cancelled = Component(name: event.name)
        let kept: Set<String> = ["UID", "DTSTART", "DTEND", "DURATION", "SUMMARY", "ORGANIZER", "ATTENDEE", "RRULE"]
        cancelled.properties = event.properties.filter { kept.contains($0.name) }
        if let removed {
            cancelled.properties.removeAll { $0.name == "ATTENDEE" }
            cancelled.properties.append(contentsOf: removed)
        }
        let sequence = (event["SEQUENCE"]?.integer ?? 0) + (removed == nil ? 1 : 0)
        cancelled.properties.append(Property(name: "SEQUENCE", value: String(sequence)))
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
