import ICalendar

/// An organizer's scheduling message to the account (an iTIP REQUEST or CANCEL, RFC 5546
/// §3.2.2, §3.2.5) from its schedule Inbox, applied to the account's copy of the meeting: what
/// a server that delivers such messages to the Inbox only (DAViCal) leaves the client to do.
/// Pure: it turns the copy as read into the copy as the message leaves it.
///
/// - Order: a message older than the copy (lower SEQUENCE, or equal SEQUENCE and a DTSTAMP no
///   later than the copy's) is stale and changes nothing; so is one sent by anyone but the
///   copy's ORGANIZER, and one for a meeting the account organizes.
/// - REQUEST: a message holding the series (no RECURRENCE-ID) replaces every event of the
///   meeting; one holding occurrences replaces or adds those occurrences only. The account's
///   own answer (PARTSTAT) stays where the event's time did not change, and goes back to
///   NEEDS-ACTION where it did (RFC 5546 §3.2.2: the organizer asks again); its alarms stay.
/// - CANCEL: of the series, every event of the copy becomes `STATUS:CANCELLED` (the copy stays,
///   as Cyrus keeps it, so the person sees it was cancelled); of an occurrence, the occurrence
///   becomes an EXDATE of the series and its override goes.
public struct OrganizerMessage: Sendable {
    /// What the organizer asks.
    public enum Method: String, Sendable {
        /// A new or changed meeting, or occurrences of it.
        case request = "REQUEST"
        /// The meeting, or occurrences of it, cancelled.
        case cancel = "CANCEL"
    }

    /// What applying a message to a copy comes to.
    public enum Outcome: Sendable, Equatable {
        /// The copy as the message leaves it.
        case applied(Component)
        /// The copy is as new as the message, or newer: nothing to do, the message is done.
        case stale
        /// Sent by someone other than the meeting's organizer, or for a meeting the account
        /// organizes: not applied, and not the client's to remove.
        case notApplicable
    }

    /// REQUEST or CANCEL.
    public var method: Method
    /// The meeting's UID.
    public var uid: String
    /// The sender's address, normalised (``CalendarUser/normalized(_:)``).
    public var organizer: String
    /// The message's events (a series and its overrides, or occurrences).
    public var events: [Component]
    /// The message's time zones.
    public var timeZones: [Component]

    /// The message in `calendar` (a VCALENDAR with a METHOD); nil when it is no REQUEST or
    /// CANCEL of events of one meeting with an ORGANIZER.
    public init?(_ calendar: Component) {
        guard let method = calendar["METHOD"].flatMap({ Method(rawValue: $0.value.uppercased()) }) else { return nil }
        let events = calendar.components(named: "VEVENT")
        let uids = Set(events.compactMap { $0["UID"]?.text })
        guard uids.count == 1, let uid = uids.first,
            let organizer = events.lazy.compactMap({ $0["ORGANIZER"]?.value }).first
        else { return nil }
        self.method = method
        self.uid = uid
        self.organizer = CalendarUser.normalized(organizer)
        self.events = events
        self.timeZones = calendar.components(named: "VTIMEZONE")
    }

    /// The highest SEQUENCE and latest DTSTAMP among the message's events: what orders two
    /// messages for one meeting.
    public var order: (sequence: Int, stamp: String) {
        (
            events.compactMap { $0["SEQUENCE"]?.integer }.max() ?? 0,
            events.compactMap { $0["DTSTAMP"]?.value }.max() ?? ""
        )
    }

    /// `copy` (the VCALENDAR holding the account's copy of the meeting) as this message leaves it.
    /// - Parameter own: the account's calendar addresses, normalised.
    public func apply(to copy: Component, own: Set<String>) -> Outcome {
        let mine = copy.components.filter { $0.name == "VEVENT" && $0["UID"]?.text == uid }
        guard let copyOrganizer = mine.lazy.compactMap({ $0["ORGANIZER"]?.value }).first.map(CalendarUser.normalized),
            copyOrganizer == organizer, !own.contains(organizer)
        else { return .notApplicable }
        let master = mine.first { $0["RECURRENCE-ID"] == nil }
        let wholeMeeting = events.contains { $0["RECURRENCE-ID"] == nil }
        var result = copy
        var changed = false
        switch (method, wholeMeeting) {
        case (.request, true):
            guard let newest = mine.first(where: { $0["RECURRENCE-ID"] == nil }) ?? mine.first,
                isNewer(events.first { $0["RECURRENCE-ID"] == nil }!, than: newest)
            else { return .stale }
            let replaced = events.map { updated($0, previous: previous(of: $0, in: mine), master: master, own: own) }
            result.components.removeAll { $0.name == "VEVENT" && $0["UID"]?.text == uid }
            result.components += replaced
            changed = true
        case (.request, false):
            for event in events {
                let before = previous(of: event, in: mine) ?? master
                guard before.map({ isNewer(event, than: $0) }) ?? true else { continue }
                let new = updated(event, previous: previous(of: event, in: mine), master: master, own: own)
                replace(event, with: new, in: &result)
                changed = true
            }
        case (.cancel, true):
            let cancelling = events.first { $0["RECURRENCE-ID"] == nil }!
            for i in result.components.indices
            where result.components[i].name == "VEVENT" && result.components[i]["UID"]?.text == uid {
                let event = result.components[i]
                guard event["STATUS"]?.value.uppercased() != "CANCELLED", !isOlder(cancelling, than: event) else {
                    continue
                }
                result.components[i].set(Property(name: "STATUS", value: "CANCELLED"))
                result.components[i].set(
                    Property(name: "SEQUENCE", value: String(max(sequence(event), sequence(cancelling)))))
                changed = true
            }
        case (.cancel, false):
            for event in events {
                guard let recurrence = event["RECURRENCE-ID"], let masterIndex = index(ofMasterIn: result) else {
                    continue
                }
                let override = previous(of: event, in: mine)
                guard !isOlder(event, than: override ?? result.components[masterIndex]) else { continue }
                let excluded = result.components[masterIndex].properties(named: "EXDATE").contains {
                    $0.value.split(separator: ",").contains(Substring(recurrence.value))
                }
                if !excluded {
                    var exdate = recurrence
                    exdate.name = "EXDATE"
                    exdate.setParameter("RANGE", nil)
                    result.components[masterIndex].append(exdate)
                }
                if override != nil {
                    result.components.removeAll { Self.sameEvent($0, event) }
                }
                changed = changed || !excluded || override != nil
            }
        }
        guard changed else { return .stale }
        let known = Set(result.components(named: "VTIMEZONE").compactMap { $0["TZID"]?.value })
        let zones = timeZones.filter { !known.contains($0["TZID"]?.value ?? "") }
        if let first = result.components.firstIndex(where: { $0.name != "VTIMEZONE" }) {
            result.components.insert(contentsOf: zones, at: first)
        } else {
            result.components += zones
        }
        return .applied(result)
    }

    /// The copy's version of `event`: the component with its RECURRENCE-ID (or none).
    private func previous(of event: Component, in copy: [Component]) -> Component? {
        copy.first { Self.sameEvent($0, event) }
    }

    private static func sameEvent(_ a: Component, _ b: Component) -> Bool {
        a.name == "VEVENT" && a["UID"]?.text == b["UID"]?.text
            && a["RECURRENCE-ID"]?.value == b["RECURRENCE-ID"]?.value
    }

    private func index(ofMasterIn calendar: Component) -> Int? {
        calendar.components.firstIndex { $0.name == "VEVENT" && $0["UID"]?.text == uid && $0["RECURRENCE-ID"] == nil }
    }

    private func replace(_ event: Component, with new: Component, in calendar: inout Component) {
        if let i = calendar.components.firstIndex(where: { Self.sameEvent($0, event) }) {
            calendar.components[i] = new
        } else {
            calendar.components.append(new)
        }
    }

    /// The message's `event` as the account's copy keeps it: the server's delivery marks
    /// (SCHEDULE-STATUS) off, the account's answer kept unless the event moved, its alarms kept.
    private func updated(_ event: Component, previous: Component?, master: Component?, own: Set<String>) -> Component {
        var event = event
        for k in event.properties.indices where ["ATTENDEE", "ORGANIZER"].contains(event.properties[k].name) {
            event.properties[k].setParameter("SCHEDULE-STATUS", nil)
        }
        guard let mine = OwnPart.attendee(event, addresses: own)?.index else { return event }
        let before = previous ?? master
        let moved: Bool
        if let previous {
            moved = OrganizerChange.timing(of: previous) != OrganizerChange.timing(of: event)
        } else if event["RECURRENCE-ID"] != nil, let master {
            moved =
                event["DTSTART"]?.value != event["RECURRENCE-ID"]?.value
                || OrganizerChange.length(of: master) != OrganizerChange.length(of: event)
        } else {
            moved = true
        }
        if moved {
            event.properties[mine].setParameter("PARTSTAT", "NEEDS-ACTION")
            event.properties[mine].setParameter("RSVP", "TRUE")
        } else if let before, let answer = OwnPart.attendee(before, addresses: own) {
            event.properties[mine].setParameter("PARTSTAT", answer.answer)
            let rsvp = before.properties[answer.index][parameter: "RSVP"]
            event.properties[mine].setParameter("RSVP", rsvp)
        }
        if event.components(named: "VALARM").isEmpty, let before {
            event.components += before.components(named: "VALARM")
        }
        return event
    }

    private func sequence(_ event: Component) -> Int { event["SEQUENCE"]?.integer ?? 0 }

    /// True when `message` comes after the copy's `event`: a higher SEQUENCE, or the same and
    /// a later DTSTAMP (RFC 5546 §2.1.5).
    private func isNewer(_ message: Component, than event: Component) -> Bool {
        let (a, b) = (sequence(message), sequence(event))
        guard a == b else { return a > b }
        guard let stamp = message["DTSTAMP"]?.value else { return false }
        return stamp > (event["DTSTAMP"]?.value ?? "")
    }

    /// True when `message` comes before the copy's `event`: a lower SEQUENCE, or the same and
    /// an earlier DTSTAMP. A cancellation without a DTSTAMP (DAViCal sends them so) is not older.
    private func isOlder(_ message: Component, than event: Component) -> Bool {
        let (a, b) = (sequence(message), sequence(event))
        guard a == b else { return a < b }
        guard let stamp = message["DTSTAMP"]?.value, let copied = event["DTSTAMP"]?.value else { return false }
        return stamp < copied
    }
}
