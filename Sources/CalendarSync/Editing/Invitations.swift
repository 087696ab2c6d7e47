import Foundation
import ICalendar

/// The invitations in a calendar that await the person's answer: events (a series, or one
/// occurrence's override) naming the person as an attendee whose PARTSTAT is NEEDS-ACTION
/// (RFC 5545's default when none is given), organized by someone else. Pure.
public enum Invitations {
    /// One invitation awaiting an answer.
    public struct Invitation: Sendable, Equatable, Encodable {
        /// The event's UID.
        public var uid: String
        /// The event's SUMMARY, when it has one.
        public var summary: String?
        /// DTSTART as written (`20270301T100000Z`, with its zone in `zone`).
        public var start: String?
        /// DTSTART's TZID; nil for UTC, floating times and dates.
        public var zone: String?
        /// DTSTART as a time (with its zone), to show it at its instant.
        public var startValue: DateTimeValue?
        /// The occurrence an override answers for (its RECURRENCE-ID as written); nil for a
        /// whole event.
        public var occurrence: String?
        /// The same occurrence as a time (with its zone), to name it on a command line.
        public var occurrenceStart: DateTimeValue?
        /// The ORGANIZER's address as written (`mailto:…`).
        public var organizer: String?
        /// True when the event has an RRULE.
        public var recurring: Bool

        enum CodingKeys: String, CodingKey { case uid, summary, start, zone, occurrence, organizer, recurring }
    }

    /// The UIDs of the meetings in `calendar` organized by someone else that name none of
    /// `addresses` among their attendees: most likely sent to another address of the
    /// person's, which the server does not give for the account (a meeting cancelled is
    /// left out).
    public static func unclaimed(in calendar: Component, addresses: [String]) -> [String] {
        let mine = Set(addresses.map(CalendarUser.normalized))
        var found: [String] = []
        for event in calendar.components where event.name == "VEVENT" && event["ORGANIZER"] != nil {
            guard let uid = event["UID"]?.text, !found.contains(uid), !OwnPart.organizes(event, addresses: mine),
                OwnPart.attendee(event, addresses: mine) == nil, event["STATUS"]?.value.uppercased() != "CANCELLED"
            else { continue }
            found.append(uid)
        }
        return found
    }

    /// The invitations in `calendar` awaiting an answer from the person at `addresses`.
    public static func awaiting(in calendar: Component, addresses: [String]) -> [Invitation] {
        let mine = Set(addresses.map(CalendarUser.normalized))
        var found: [Invitation] = []
        for event in calendar.components where event.name == "VEVENT" {
            guard let uid = event["UID"]?.text else { continue }
            guard !OwnPart.organizes(event, addresses: mine),
                OwnPart.attendee(event, addresses: mine)?.answer == "NEEDS-ACTION"
            else { continue }
            if event["STATUS"]?.value.uppercased() == "CANCELLED" { continue }
            found.append(
                Invitation(
                    uid: uid, summary: event["SUMMARY"]?.text, start: event["DTSTART"]?.value,
                    zone: event["DTSTART"]?.tzid, startValue: event["DTSTART"]?.dateTime,
                    occurrence: event["RECURRENCE-ID"]?.value,
                    occurrenceStart: event["RECURRENCE-ID"]?.dateTime,
                    organizer: event["ORGANIZER"]?.value, recurring: event["RRULE"] != nil))
        }
        return found
    }
}
