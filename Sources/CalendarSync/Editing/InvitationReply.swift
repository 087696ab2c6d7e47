import Foundation
import ICalendar

/// An answer to an invitation (RFC 5545 PARTSTAT; RFC 6638 implicit scheduling): the person's
/// own ATTENDEE in the event gets the answer, and a scheduling server, seeing an attendee's
/// copy change that way, sends the REPLY to the organizer. Pure: no files, no server.
public struct InvitationReply: Sendable {
    /// The answer.
    public enum Answer: String, Sendable, CaseIterable {
        case accepted = "ACCEPTED", declined = "DECLINED", tentative = "TENTATIVE"
    }

    /// The answer to give.
    public var answer: Answer
    /// The person's calendar addresses (`mailto:…`), as the server knows them.
    public var addresses: [String]
    /// A note for the organizer (COMMENT on the event).
    public var comment: String?
    /// DTSTAMP and LAST-MODIFIED of the answer (UTC).
    public var now: DateTimeValue

    /// An answer from the person at `addresses`, stamped with `now`.
    public init(answer: Answer, addresses: [String], comment: String? = nil, now: DateTimeValue) {
        self.answer = answer
        self.addresses = addresses
        self.comment = comment
        self.now = now
    }

    /// Why an answer cannot be given.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// None of the event's attendees is the person.
        case notInvited(uid: String, attendees: [String], addresses: [String])
        /// The person organizes the event: there is nobody to answer.
        case organizer(uid: String)
        /// The event is no meeting (no ORGANIZER): nobody invited the person.
        case notAMeeting(uid: String)
        /// The organizer cancelled the meeting (STATUS:CANCELLED): there is nothing to answer.
        case cancelled(uid: String, organizer: String?)
        /// The person's own ATTENDEE line (at `line` of the file) holds no calendar address
        /// (`value` lacks its `mailto:`): a server would take the answer for another attendee's.
        case invalidAddress(uid: String, value: String, line: Int)

        /// What prevents the answer, naming the event.
        public var description: String {
            switch self {
            case .notInvited(let uid, let attendees, let addresses):
                "you are not invited to \(uid): none of its attendees (\(attendees.isEmpty ? "none" : attendees.joined(separator: ", "))) "
                    + "is your address (\(addresses.isEmpty ? "none known" : addresses.joined(separator: ", ")))"
            case .organizer(let uid): "you organize \(uid): an answer is for an invitation"
            case .notAMeeting(let uid): "\(uid) is not a meeting (it has no organizer): there is nothing to answer"
            case .invalidAddress(let uid, let value, let line):
                "your ATTENDEE line in \(uid) (line \(line) of its file) is not valid: '\(value)' is not a calendar address (mailto:…), "
                    + "so the server would take your answer for another attendee's; nothing was written"
            case .cancelled(let uid, let organizer):
                "\(organizer.map { CalendarUser.normalized($0) } ?? "the organizer") cancelled \(uid): there is nothing to answer"
            }
        }
    }

    /// The calendar with the person's PARTSTAT set to the answer in the component at `index`
    /// (the series, or one occurrence's override), RSVP dropped, DTSTAMP and LAST-MODIFIED
    /// moved; SEQUENCE is the organizer's and stays. The COMMENT is this answer's: an earlier
    /// answer's goes, so it is not sent again.
    /// - Throws: ``Refusal``.
    public func applied(to calendar: Component, at index: Int, uid: String) throws -> Component {
        var result = calendar
        var event = calendar.components[index]
        let mine = Set(addresses.map(CalendarUser.normalized))
        if event["ORGANIZER"] == nil { throw Refusal.notAMeeting(uid: uid) }
        if OwnPart.organizes(event, addresses: mine) { throw Refusal.organizer(uid: uid) }
        if event["STATUS"]?.value.uppercased() == "CANCELLED" {
            throw Refusal.cancelled(uid: uid, organizer: event["ORGANIZER"]?.value)
        }
        guard let own = OwnPart.attendee(event, addresses: mine)?.index else {
            let attendees = event.properties.filter { $0.name == "ATTENDEE" }.map(\.value)
            throw Refusal.notInvited(uid: uid, attendees: attendees, addresses: addresses)
        }
        let value = event.properties[own].value
        guard BrokenCalendarUser.isAddress(value) else {
            throw Refusal.invalidAddress(uid: uid, value: value, line: event.properties[own].line)
        }
        event.properties[own].setParameter("PARTSTAT", answer.rawValue)
        event.properties[own].setParameter("RSVP", nil)
        event.properties[own].setParameter("SCHEDULE-STATUS", nil)
        event.properties.removeAll { $0.name == "COMMENT" }
        if let comment { event.properties.append(.text("COMMENT", comment)) }
        event.set(.dateTime("DTSTAMP", now))
        event.set(.dateTime("LAST-MODIFIED", now))
        result.components[index] = event
        return result
    }
}
