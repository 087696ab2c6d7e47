import Foundation
import ICalendar

/// The form an item is uploaded in: valid, canonical iCalendar, whatever the vdir file looks
/// like. A hand-written file may lack PRODID, VERSION or DTSTAMP, end its lines with LF or
/// leave long lines unfolded; the server gets CRLF, folded lines, escaped TEXT and the missing
/// properties, while the file keeps what its author wrote. Time zones are made complete
/// (`TimeZoneCompletion`): a TZID without its VTIMEZONE gets one generated from the system's
/// tz database, a Windows or path-prefixed name becoming its IANA name first, so a server
/// that checks (Radicale answers 400) takes the object. `ContentHash` ignores all of these
/// differences, so the two copies still count as the same item.
enum UploadForm {
    static let productID = "-//calgw//calgw//EN"

    /// `data` in upload form; data that does not parse goes as it is.
    /// - Parameters:
    ///   - clientScheduled: mark the organizer and each attendee of its meetings
    ///     `SCHEDULE-AGENT=CLIENT` (RFC 6638 §7.1), for a server that would otherwise invite them
    ///     (see ``StorageCapabilities/marksCopiesClientScheduled``); a mark already there stays.
    ///   - unmarked: take such marks off first (a person's action, which the server is to
    ///     schedule for, whatever a copy left in the file), and the SCHEDULE-STATUS of earlier
    ///     messages too (RFC 6638 §3.2.9: the server's to set), so that a status in the version
    ///     stored is the server's word on this write's messages, not an old one the file kept.
    static func canonical(_ data: Data, now: Date = Date(), clientScheduled: Bool = false, unmarked: Bool = false)
        -> Data
    {
        guard let parsed = try? ICalendarParser().parse(data), !parsed.components.isEmpty else { return data }
        var components = parsed.components
        for i in components.indices {
            Canonicalizer().canonicalize(&components[i])
            guard components[i].name == "VCALENDAR" else { continue }
            mendTaskStarts(&components[i])
            TimeZoneCompletion.complete(&components[i], at: now)
            if components[i].properties(named: "VERSION").isEmpty {
                components[i].properties.insert(Property(name: "VERSION", value: "2.0"), at: 0)
            }
            if components[i].properties(named: "PRODID").isEmpty {
                components[i].properties.insert(Property(name: "PRODID", value: productID), at: 0)
            }
            for j in components[i].components.indices
            where ["VEVENT", "VTODO", "VJOURNAL"].contains(components[i].components[j].name)
                && components[i].components[j].properties(named: "DTSTAMP").isEmpty
            {
                let stamp =
                    components[i].components[j].properties(named: "LAST-MODIFIED").first?.value
                    ?? components[i].components[j].properties(named: "CREATED").first?.value
                    ?? utcStamp(now)
                let uidIndex = components[i].components[j].properties.firstIndex { $0.name == "UID" }
                components[i].components[j].properties.insert(
                    Property(name: "DTSTAMP", value: stamp), at: uidIndex.map { $0 + 1 } ?? 0)
            }
            if unmarked {
                removeClientSchedulingMarks(&components[i])
                removeScheduleStatuses(&components[i])
            }
            if clientScheduled { markClientScheduled(&components[i]) }
        }
        return ICalendarSerializer().data(components)
    }

    /// `data` without the `SCHEDULE-AGENT=CLIENT` marks on its meetings' organizer and
    /// attendees: what a server that keeps the marks calgw puts on copies (DAViCal) stored is
    /// written to the vdir without them, so that a file never carries one, and a later person's
    /// action on it schedules. An attendee's address whose domain calgw spelled in upper case on
    /// such a server (``withOwnAttendeeRespelled(_:addresses:)``) gets it back in lower case.
    /// Data without such a mark, or that does not parse, is returned as it is (the common case
    /// costs one search of the bytes).
    static func withoutClientSchedulingMarks(_ data: Data) -> Data {
        guard data.range(of: Data(clientMark.utf8)) != nil || data.range(of: Data(clientMark.lowercased().utf8)) != nil,
            let parsed = try? ICalendarParser().parse(data), !parsed.components.isEmpty
        else { return data }
        var components = parsed.components
        var changed = false
        for i in components.indices where components[i].name == "VCALENDAR" {
            changed = removeClientSchedulingMarks(&components[i]) || changed
            changed = spellAttendeesBack(&components[i]) || changed
        }
        return changed ? ICalendarSerializer().data(components) : data
    }

    private static let clientMark = "SCHEDULE-AGENT=CLIENT"

    /// Takes `SCHEDULE-AGENT=CLIENT` off the organizer and each attendee of the calendar's
    /// events, to-dos and journals.
    /// - Returns: whether any was there.
    @discardableResult
    static func removeClientSchedulingMarks(_ calendar: inout Component) -> Bool {
        var changed = false
        for j in calendar.components.indices
        where ["VEVENT", "VTODO", "VJOURNAL"].contains(calendar.components[j].name) {
            for k in calendar.components[j].properties.indices {
                let property = calendar.components[j].properties[k]
                guard property.name == "ORGANIZER" || property.name == "ATTENDEE",
                    property[parameter: "SCHEDULE-AGENT"]?.uppercased() == "CLIENT"
                else { continue }
                calendar.components[j].properties[k].setParameter("SCHEDULE-AGENT", nil)
                changed = true
            }
        }
        return changed
    }

    /// Takes SCHEDULE-STATUS off the organizer and each attendee of the calendar's events,
    /// to-dos and journals.
    static func removeScheduleStatuses(_ calendar: inout Component) {
        for j in calendar.components.indices
        where ["VEVENT", "VTODO", "VJOURNAL"].contains(calendar.components[j].name) {
            for k in calendar.components[j].properties.indices
            where ["ORGANIZER", "ATTENDEE"].contains(calendar.components[j].properties[k].name) {
                calendar.components[j].properties[k].setParameter("SCHEDULE-STATUS", nil)
            }
        }
    }

    /// Marks the organizer and each attendee of the calendar's events, to-dos and journals
    /// `SCHEDULE-AGENT=CLIENT`, unless they say who schedules already.
    static func markClientScheduled(_ calendar: inout Component) {
        for j in calendar.components.indices
        where ["VEVENT", "VTODO", "VJOURNAL"].contains(calendar.components[j].name) {
            for k in calendar.components[j].properties.indices {
                let property = calendar.components[j].properties[k]
                guard property.name == "ORGANIZER" || property.name == "ATTENDEE",
                    property[parameter: "SCHEDULE-AGENT"] == nil
                else { continue }
                calendar.components[j].properties[k].setParameter("SCHEDULE-AGENT", "CLIENT")
            }
        }
    }

    /// The ORGANIZER of the first meeting in `data` that has an attendee marked
    /// `SCHEDULE-AGENT=CLIENT`; nil when none has (the common case costs one search of the bytes).
    static func organizerOfMeetingWithMarkedAttendees(_ data: Data) -> String? {
        guard data.range(of: Data(clientMark.utf8)) != nil || data.range(of: Data(clientMark.lowercased().utf8)) != nil,
            let parsed = try? ICalendarParser().parse(data)
        else { return nil }
        for item in parsed.components.lazy.flatMap(\.components) where item["ORGANIZER"] != nil {
            let marked = item.properties.contains {
                $0.name == "ATTENDEE" && $0[parameter: "SCHEDULE-AGENT"]?.uppercased() == "CLIENT"
            }
            if marked { return item["ORGANIZER"]?.value }
        }
        return nil
    }

    /// `data` with `SCHEDULE-AGENT=CLIENT` taken off every ATTENDEE, the ORGANIZER's kept: an
    /// attendee's copy that asks the server to send no reply (RFC 6638 §7.1) and still lets the
    /// organizer's messages reach the attendee.
    static func withoutAttendeeMarks(_ data: Data) -> Data {
        guard let parsed = try? ICalendarParser().parse(data), !parsed.components.isEmpty else { return data }
        var components = parsed.components
        for i in components.indices where components[i].name == "VCALENDAR" {
            for j in components[i].components.indices {
                for k in components[i].components[j].properties.indices {
                    let property = components[i].components[j].properties[k]
                    guard property.name == "ATTENDEE", property[parameter: "SCHEDULE-AGENT"]?.uppercased() == "CLIENT"
                    else { continue }
                    components[i].components[j].properties[k].setParameter("SCHEDULE-AGENT", nil)
                }
            }
        }
        return ICalendarSerializer().data(components)
    }

    /// True when `data` holds a meeting whose organizer or an attendee says nothing of who
    /// schedules for them: a server that schedules by what it stores would schedule for it.
    static func needsClientSchedulingMark(_ data: Data) -> Bool {
        guard let parsed = try? ICalendarParser().parse(data) else { return false }
        return parsed.components.contains { calendar in
            calendar.components.contains { item in
                ["VEVENT", "VTODO", "VJOURNAL"].contains(item.name) && item["ORGANIZER"] != nil
                    && item.properties.contains {
                        ($0.name == "ORGANIZER" || $0.name == "ATTENDEE") && $0[parameter: "SCHEDULE-AGENT"] == nil
                    }
            }
        }
    }

    /// The address of the first ORGANIZER among `data`'s events, to-dos and journals.
    static func organizer(of data: Data) -> String? {
        guard let parsed = try? ICalendarParser().parse(data) else { return nil }
        return parsed.components.lazy.flatMap(\.components).compactMap { $0["ORGANIZER"]?.value }.first
    }

    static func utcStamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }
}

extension Executor {
    /// The bytes written to `side`: the upload form for the server (its meetings marked for a
    /// server that would otherwise invite for a copy, on either side of a pair of servers),
    /// the bytes as they are for the vdir.
    /// A person's own action on `key` is not marked, and goes without any mark its file holds:
    /// the server is to schedule for it. What comes from a side that marks its copies goes
    /// without the marks to a side that does not (the vdir): they are that server's alone.
    func outgoing(_ data: Data, to side: Side, key: ItemKey? = nil) -> Data {
        outgoing(data, to: side, key: key, marking: copyMarking())
    }

    /// ``outgoing(_:to:key:)`` with what each side's server wants of copies already read: a
    /// batch of writes reads it once (asking a storage builds its whole capabilities value).
    func outgoing(_ data: Data, to side: Side, key: ItemKey? = nil, marking: CopyMarking) -> Data {
        let acting = key.map(isPersonsAction) ?? false
        let marks = marking[side] && !acting
        let unmarks = acting || !marks && marking[side.other]
        if side == .remote || marks { return UploadForm.canonical(data, clientScheduled: marks, unmarked: acting) }
        return unmarks ? UploadForm.withoutClientSchedulingMarks(data) : data
    }

    /// Whether each side's server wants copies marked client-scheduled
    /// (``StorageCapabilities/marksCopiesClientScheduled``), as it says now.
    func copyMarking() -> CopyMarking {
        CopyMarking(
            local: local.capabilities.marksCopiesClientScheduled,
            remote: remote.capabilities.marksCopiesClientScheduled)
    }

    /// Whether writes of `key` are the person's own action (see ``SyncPolicy/personsActions``).
    func isPersonsAction(_ key: ItemKey) -> Bool {
        !personsActions.isEmpty && personsActions.contains(key.value)
    }

    /// Why a write of `key` is made: the person's action, or a copy (``WriteIntent``).
    func writeIntent(for key: ItemKey) -> WriteIntent { isPersonsAction(key) ? .personsAction : .copy }
}

/// Whether each side's server wants the copies uploaded to it marked client-scheduled, read
/// at one moment for a batch of writes.
struct CopyMarking {
    var local: Bool
    var remote: Bool

    subscript(side: Side) -> Bool { side == .local ? local : remote }
}
