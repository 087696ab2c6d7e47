import ICalendar
import Recurrence

/// An attendee's answer to a meeting the account organizes (an iTIP REPLY, RFC 5546 §3.2.3)
/// from the account's schedule Inbox, applied to the organizer's copy: what a server that
/// delivers the REPLY without applying it leaves the organizer's client to do (DAViCal, for a
/// REPLY an attendee's client sent through its schedule Outbox). Pure.
///
/// Only the PARTSTAT of the attendees the REPLY names changes, in the events it names (the
/// series, or an occurrence: one the copy holds no exception for gets one made from the
/// series, at the series' SEQUENCE, as RFC 5546 §3.2.3 has an organizer record an answer to
/// one instance), never the account's own line; a REPLY to an
/// older SEQUENCE than the copy's event answers a version the organizer has since changed and
/// changes nothing, and so does one that says what the copy says already (stale, done). A REPLY
/// for a meeting the account does not organize, or naming no attendee of the copy, is not
/// applicable and stays.
public struct AttendeeReply: Sendable {
    /// The meeting's UID.
    public var uid: String
    /// The REPLY's events: the series, occurrences, or both.
    public var events: [Component]

    /// The REPLY in `calendar` (a VCALENDAR with `METHOD:REPLY` and events of one meeting); nil
    /// for any other.
    public init?(_ calendar: Component) {
        guard calendar["METHOD"]?.value.uppercased() == "REPLY" else { return nil }
        let events = calendar.components(named: "VEVENT")
        let uids = Set(events.compactMap { $0["UID"]?.text })
        guard uids.count == 1, let uid = uids.first else { return nil }
        self.uid = uid
        self.events = events
    }

    /// The latest DTSTAMP among the REPLY's events: of two answers, the later one counts.
    public var stamp: String { events.compactMap { $0["DTSTAMP"]?.value }.max() ?? "" }

    /// `copy` (the VCALENDAR holding the organizer's copy of the meeting) as this REPLY leaves it.
    /// - Parameter own: the account's calendar addresses, normalised.
    public func apply(to copy: Component, own: Set<String>) -> OrganizerMessage.Outcome {
        var result = copy
        var named = false
        var changed = false
        for reply in events {
            let recurrence = reply["RECURRENCE-ID"]?.value
            let held = result.components.firstIndex(where: {
                $0.name == "VEVENT" && $0["UID"]?.text == uid && $0["RECURRENCE-ID"]?.value == recurrence
            })
            guard let index = held ?? exception(for: reply, in: &result),
                let organizer = result.components[index]["ORGANIZER"]?.value,
                own.contains(CalendarUser.normalized(organizer))
            else { continue }
            let event = result.components[index]
            for answer in reply.properties where answer.name == "ATTENDEE" {
                let who = CalendarUser.normalized(answer.value)
                guard !own.contains(who), let partstat = answer[parameter: "PARTSTAT"]?.uppercased(),
                    let line = event.properties.firstIndex(where: {
                        $0.name == "ATTENDEE" && CalendarUser.normalized($0.value) == who
                    })
                else { continue }
                named = true
                guard (reply["SEQUENCE"]?.integer ?? 0) >= (event["SEQUENCE"]?.integer ?? 0) else { continue }
                if event.properties[line][parameter: "PARTSTAT"]?.uppercased() != partstat {
                    result.components[index].properties[line].setParameter("PARTSTAT", partstat)
                    changed = true
                }
                if Self.keep(reply["COMMENT"], of: "mailto:" + who, in: &result.components[index]) { changed = true }
            }
        }
        guard named else { return .notApplicable }
        return changed ? .applied(result) : .stale
    }

    /// Keeps an attendee's `comment` (a REPLY's COMMENT) in `event` as a COMMENT marked with
    /// `X-CALGW-ATTENDEE=mailto:…`, in place of that attendee's earlier one; without a
    /// comment, the earlier one goes. The organizer's own COMMENTs (unmarked) stay.
    /// - Returns: whether the event changed.
    static func keep(_ comment: Property?, of attendee: String, in event: inout Component) -> Bool {
        let marker = "X-CALGW-ATTENDEE"
        let mine = { (p: Property) in
            p.name == "COMMENT"
                && p[parameter: marker].map(CalendarUser.normalized) == CalendarUser.normalized(attendee)
        }
        let before = event.properties.filter(mine).map(\.value)
        event.properties.removeAll(where: mine)
        guard let comment, !comment.value.isEmpty else { return !before.isEmpty }
        var kept = Property(name: "COMMENT", value: comment.value)
        kept.setParameter(marker, attendee)
        event.properties.append(kept)
        return before != [comment.value]
    }

    /// Makes the exception of the occurrence `reply` answers in `calendar` (its index), from
    /// the series, when it is one of the series' occurrences; nil otherwise. The exception
    /// keeps the series' SEQUENCE: it records an answer, it is no new version.
    private func exception(for reply: Component, in calendar: inout Component) -> Int? {
        guard let rid = reply["RECURRENCE-ID"]?.dateTime,
            let stamp = reply["DTSTAMP"]?.dateTime ?? SeriesEdit.master(of: calendar, uid: uid)?["DTSTAMP"]?.dateTime,
            let instances = SeriesExpansion(calendar: calendar, uid: uid),
            let editor = try? SeriesEditor(calendar: calendar, uid: uid, now: stamp),
            let made = try? editor.editOccurrence(
                rid, span: .thisEvent, changes: EventChanges(), instances: instances, newUID: ""
            ).resource,
            let master = SeriesEdit.master(of: calendar, uid: uid)
        else { return nil }
        let frame = DateTimeFrame(resolver: TimeZoneResolver(calendar: made))
        guard
            let index = made.components.firstIndex(where: {
                $0["UID"]?.text == uid && ($0["RECURRENCE-ID"]?.dateTime).map { frame.same($0, rid) } == true
            })
        else { return nil }
        calendar = made
        if let sequence = master["SEQUENCE"] {
            calendar.components[index].set(sequence)
        } else {
            calendar.components[index].remove("SEQUENCE")
        }
        return index
    }
}
