import Foundation
import ICalendar

extension UploadForm {
    /// `data` with the account's own ATTENDEE lines naming it by its address with the domain
    /// spelled in another letter case (`mailto:bob@EXAMPLE.NET`): the same mailbox (RFC 5321
    /// §2.4: a domain's case does not matter), which calgw compares case-insensitively too.
    ///
    /// DAViCal 1.1.12 takes every write of an attendee's copy as a reply to send, and finds
    /// the writer's line in it by comparing addresses exactly. Its reply code fails (500, in
    /// WritableCollection) whenever the organizer's schedule Inbox is of the calendar type, as
    /// DAViCal's admin screen makes every Inbox, and that write is then not stored. Spelled
    /// otherwise, the copy is stored and DAViCal sends no reply for it, as a copy must not.
    /// - Parameter addresses: the account's addresses, normalized (``CalendarUser/normalized(_:)``).
    /// - Returns: `data` as it is when no ATTENDEE line is the account's or it does not parse.
    static func withOwnAttendeeRespelled(_ data: Data, addresses: Set<String>) -> Data {
        guard !addresses.isEmpty, let parsed = try? ICalendarParser().parse(data), !parsed.components.isEmpty else {
            return data
        }
        var components = parsed.components
        var changed = false
        for i in components.indices where components[i].name == "VCALENDAR" {
            for j in components[i].components.indices {
                for k in components[i].components[j].properties.indices {
                    let property = components[i].components[j].properties[k]
                    guard property.name == "ATTENDEE", addresses.contains(CalendarUser.normalized(property.value)),
                        let respelled = respelled(property.value)
                    else { continue }
                    components[i].components[j].properties[k].value = respelled
                    changed = true
                }
            }
        }
        return changed ? ICalendarSerializer().data(components) : data
    }

    /// Gives each ATTENDEE of the calendar's events whose address has its domain in upper case
    /// (as ``withOwnAttendeeRespelled(_:addresses:)`` spells the account's) the domain in lower
    /// case: the same mailbox, as the server names it.
    /// - Returns: whether any was changed.
    static func spellAttendeesBack(_ calendar: inout Component) -> Bool {
        spellBack(&calendar, names: ["ATTENDEE"])
    }

    /// ``spellAttendeesBack(_:)`` for the ORGANIZER of each event too: a message calgw sent by
    /// DAViCal's Outbox spells both (``OutboxRequest``).
    static func spellAddressesBack(_ calendar: inout Component) {
        _ = spellBack(&calendar, names: ["ATTENDEE", "ORGANIZER"])
    }

    /// The addresses of the properties `names` of the calendar's events, each domain in upper
    /// case put in lower case.
    /// - Returns: whether any was changed.
    private static func spellBack(_ calendar: inout Component, names: Set<String>) -> Bool {
        var changed = false
        for j in calendar.components.indices {
            for k in calendar.components[j].properties.indices
            where names.contains(calendar.components[j].properties[k].name) {
                let address = calendar.components[j].properties[k].value
                guard let at = address.lastIndex(of: "@") else { continue }
                let domain = address[address.index(after: at)...]
                guard domain.contains(where: \.isLetter), domain.uppercased() == domain else { continue }
                calendar.components[j].properties[k].value = String(address[...at]) + domain.lowercased()
                changed = true
            }
        }
        return changed
    }

    /// `address` with its domain in upper case, or in lower case when it is upper case
    /// already; nil when it has no domain with a letter.
    static func respelled(_ address: String) -> String? {
        guard let at = address.lastIndex(of: "@") else { return nil }
        let domain = address[address.index(after: at)...]
        guard domain.contains(where: \.isLetter) else { return nil }
        let upper = domain.uppercased()
        return String(address[...at]) + (upper == domain ? domain.lowercased() : upper)
    }

    /// `data` with the ORGANIZER of each of its events spelled as ``respelled(_:)`` spells it.
    ///
    /// DAViCal 1.1.12 takes the organizer's deletion of any member of a collection of the
    /// calendar type as the meeting's cancellation, and sends one to its attendees, whatever the
    /// request's `Schedule-Reply` header says; an Inbox made by its admin screen is of that
    /// type. An answer in the organizer's Inbox is rewritten so first: its ORGANIZER is then not
    /// the account as DAViCal compares addresses, and its deletion schedules nothing.
    static func withOrganizerRespelled(_ data: Data) -> Data {
        withEachOrganizer(data) { $0.value = respelled($0.value) ?? $0.value }
    }
}
