import ICalendar

/// What a person's action on a meeting asked the server to send, and what the server says it
/// did for each person, as the `--json` of `event add`, `edit`, `delete` and `reply` gives it
/// (`scheduling`). A server that schedules marks what it sent in the version it stores
/// (RFC 6638 §3.2.9 `SCHEDULE-STATUS`: on each attendee of an organizer's meeting, on the
/// organizer of an attendee's answer), which calgw reads back after the write. Pure.
public struct SchedulingReport: Sendable, Equatable, Encodable {
    /// What the action sends.
    public enum Message: String, Sendable, Encodable {
        /// A new meeting's invitations.
        case invitation
        /// The organizer's change of a meeting.
        case update
        /// The organizer's deletion of a meeting.
        case cancellation
        /// An attendee's answer (a deletion of an invitation declines it).
        case reply
    }

    /// One person the message is for.
    public struct Recipient: Sendable, Equatable, Encodable {
        /// Their calendar address as the meeting writes it (`mailto:…`).
        public var address: String
        /// The SCHEDULE-STATUS the server wrote for them (`1.2`: delivered, `3.7`: not a
        /// calendar user it knows, `5.x`: not delivered, …); nil when it wrote none.
        public var status: String?
        /// True for a status the RFC counts as sent or delivered (1.x, 2.x), false for a
        /// failure (3.x, 5.x), nil when the server says nothing; for a mailed message, whether
        /// the mail command took it.
        public var delivered: Bool?
        /// Why a mailed message was not handed over (the mail command's own words).
        public var failure: String?
        /// What this person is sent when it differs from the report's message: a cancellation
        /// to an attendee an update removed; nil otherwise.
        public var message: Message?
        /// True when calgw mailed it through the pair's `mail_command` (the server sends none,
        /// or marked it undelivered); nil otherwise.
        public var mailed: Bool?
        /// True when the mail command did not take it and it is kept for the pair's next run
        /// (``MailQueue``); nil otherwise.
        public var kept: Bool?

        /// `address`, marked `status` by the server (nil: not marked).
        public init(address: String, status: String?) {
            self.address = address
            self.status = status
            delivered = status.flatMap { $0.first }.flatMap { first in
                "12".contains(first) ? true : "35".contains(first) ? false : nil
            }
        }

        /// This person as a deletion that `scheduling` tells of left them: marked with the
        /// status the server gave, or not delivered for the server's failure.
        func deleted(_ scheduling: DeletionScheduling) -> Recipient {
            var recipient = Recipient(address: address, status: scheduling.status)
            if let failure = scheduling.failure {
                recipient.delivered = false
                recipient.failure = failure
            }
            recipient.message = message
            return recipient
        }

        /// `address`, for a message mailed through the pair's `mail_command` (the server sends
        /// none): `delivered` when the command took it.
        public init(address: String, delivered: Bool, message: Message? = nil) {
            self.address = address
            self.delivered = delivered
            self.message = message
        }
    }

    /// What was sent.
    public var message: Message
    /// Whether the server was asked to send it: the write reached a server that schedules, as
    /// the person's own action.
    public var asked: Bool
    /// Why it was not asked, when it was not (scheduling off, `--offline`, not on the server yet).
    public var reason: String?
    /// Each person the message is for, with what the server says of it.
    public var recipients: [Recipient]
    /// True when calgw mailed the message through the pair's `mail_command`, to everyone (the
    /// server sends none) or to those the server marked undelivered; nil otherwise.
    public var mailed: Bool?

    /// A report of `message` for `recipients`.
    public init(message: Message, asked: Bool, reason: String? = nil, recipients: [Recipient]) {
        self.message = message
        self.asked = asked
        self.reason = reason
        self.recipients = recipients
    }

    /// The people `message` about `uid` in `calendar` (the stored version) is for: for a
    /// reply the organizer, else every attendee but the organizer, each once, with the
    /// SCHEDULE-STATUS the stored version gives them.
    /// - Parameter statuses: false to leave the statuses out (a deletion, whose server keeps
    ///   no version to read them from).
    public static func recipients(of message: Message, in calendar: Component, uid: String, statuses: Bool = true)
        -> [Recipient]
    {
        var found: [Recipient] = []
        var seen: [String: Int] = [:]
        func note(_ property: Property) {
            let key = CalendarUser.normalized(property.value)
            let status = statuses ? property[parameter: "SCHEDULE-STATUS"] : nil
            if let i = seen[key] {
                if found[i].status == nil, status != nil {
                    found[i] = Recipient(address: found[i].address, status: status)
                }
                return
            }
            seen[key] = found.count
            found.append(Recipient(address: property.value, status: status))
        }
        for event in calendar.components where event.name == "VEVENT" && event["UID"]?.text == uid {
            guard let organizer = event["ORGANIZER"] else { continue }
            if message == .reply {
                note(organizer)
                continue
            }
            let chair = CalendarUser.normalized(organizer.value)
            for attendee in event.properties
            where attendee.name == "ATTENDEE" && CalendarUser.normalized(attendee.value) != chair {
                note(attendee)
            }
        }
        return found
    }

    /// When `mail_command` took the message for nobody or only some: the error that ends the
    /// command (exit 1), naming who still waits for it and that the message is kept; nil when
    /// every mailed message was taken, or nothing was mailed.
    public var unmailed: String? {
        let waiting = recipients.filter { $0.mailed == true && $0.delivered != true }
        guard !waiting.isEmpty else { return nil }
        let who = waiting.map { CalendarUser.normalized($0.address) }.joined(separator: ", ")
        let kept = waiting.allSatisfy { $0.kept == true }
        return "the \(message.rawValue) to \(who) was not mailed"
            + (kept ? "; it is kept, and the pair's next run (sync, push, an event command) mails it again" : "")
    }

    /// Where the server sends nothing and nothing was mailed (no `mail_command`): one line
    /// naming who was not told and how to have it mailed; none otherwise (offline, scheduling
    /// off: said elsewhere).
    var unsentLines: [String] {
        guard let reason, !recipients.isEmpty, recipients.allSatisfy({ $0.delivered == false && $0.mailed == nil })
        else { return [] }
        let who = recipients.map { CalendarUser.normalized($0.address) }.joined(separator: ", ")
        return ["\(message.rawValue) to \(who) not sent: \(reason)"]
    }

    /// What to do about an ``unmailed`` message.
    public static let unmailedHint = "calgw status lists it; once mail_command works, the pair's next run mails it"

    /// One line per person for the person who acted: `invitation sent to bob@example.org`,
    /// `reply to alice@example.org not delivered (SCHEDULE-STATUS 5.1)`. Where the server
    /// marked some people and not others (calgw sends no status of its own: see
    /// ``UploadForm``), it sent the others nothing: `update to bob@example.org not sent by the
    /// server`. What calgw mailed says so: `update mailed to bob@example.net`, `reply mailed to
    /// alice@example.org (the server could not: SCHEDULE-STATUS 5.1)`.
    public var lines: [String] {
        guard asked || mailed == true else { return unsentLines }
        let marks = recipients.contains { $0.status != nil }
        return recipients.map { recipient in
            let who = CalendarUser.normalized(recipient.address)
            let what = (recipient.message ?? message).rawValue
            let serverFailed = recipient.status.map { " (the server could not: SCHEDULE-STATUS \($0))" } ?? ""
            switch (recipient.mailed, recipient.delivered) {
            case (true?, true?): return "\(what) mailed to \(who)" + serverFailed
            case (true?, _):
                return "\(what) to \(who) not mailed: \(recipient.failure ?? "the mail command failed")" + serverFailed
            case (_, true?): return "\(what) sent to \(who)"
            case (_, false?) where recipient.status == nil:
                return "\(what) to \(who) not sent: \(recipient.failure ?? "the server failed to send it")"
            case (_, false?):
                return "\(what) to \(who) not delivered (SCHEDULE-STATUS \(recipient.status ?? "?"))"
            case (_, nil) where marks: return "\(what) to \(who) not sent by the server"
            case (_, nil): return "\(what) to \(who) asked of the server"
            }
        }
    }
}
