import Foundation
import ICalendar

extension GraphEvent {
    /// The product calgw names in the VCALENDARs it makes.
    static let productID = "-//calgw//calgw//EN"

    /// The event as one VCALENDAR: a single event, or a series master with its RRULE, an
    /// EXDATE per cancelled occurrence and a RECURRENCE-ID VEVENT per exception, each zone
    /// used with its VTIMEZONE (`TimeZoneCompletion`).
    ///
    /// Times are written in the zone the event was made in (`originalStartTimeZone`, as IANA
    /// name) even when Graph sent them in UTC (`Prefer: outlook.timezone="UTC"`), so that a
    /// series keeps its wall-clock time across daylight-saving changes. DTSTART is the series'
    /// first occurrence: Graph's master may start on a date its pattern skips (RFC 5545 would
    /// count that date), and is then moved to the first date that fits. See
    /// docs/graph-mapping.md for every field. An exception takes each field it lacks (one not
    /// `$select`ed) from the master.
    ///
    /// - Parameters:
    ///   - exceptions: the series' exceptions (`type: exception`, full events, e.g. from
    ///     delta or `/instances`); the master's `exceptionOccurrences` when nil.
    ///   - cancelledOccurrences: `OID.<master id>.<YYYY-MM-DD>` ids of deleted occurrences; the
    ///     master's `cancelledOccurrences` when nil.
    ///   - date: the date whose zone rules generated VTIMEZONEs state, and the DTSTAMP of an
    ///     event Graph sent without `lastModifiedDateTime` or `createdDateTime`.
    /// - Returns: a VCALENDAR.
    /// - Throws: `GraphMappingError` (`.unreadableEvent`) when the event has no start, a zone
    ///   that cannot be resolved, or a pattern missing a field its type needs.
    public func iCalendar(
        exceptions: [GraphEvent]? = nil, cancelledOccurrences: [String]? = nil, at date: Date = Date()
    ) throws -> Component {
        let uid = try seriesUID()
        var master = Component(name: "VEVENT")
        master.append(Property.text("UID", uid))
        appendStamps(to: &master, at: date)
        var times = try GraphEventTimes(self, seriesZone: nil)
        var rule: RecurrenceRule?
        var noOccurrence = false
        if let recurrence {
            var r = try recurrence.patternRule()
            let anchor = recurrence.range.startDate.flatMap(LocalDate.init(iso:)) ?? times.start.date
            let first = recurrence.occurrenceDates(from: anchor, limit: 1).first
            if let first, first != times.start.date {
                times.move(byDays: first.daysSinceEpoch - times.start.date.daysSinceEpoch)
            }
            // A range that ends before the pattern's first date has no occurrence at all; RFC
            // 5545 would still count DTSTART, so DTSTART is excluded.
            noOccurrence = first == nil
            switch recurrence.range.type {
            case .numbered:
                guard let n = recurrence.range.numberOfOccurrences, n >= 1 else {
                    throw GraphMappingError.unreadable(
                        "recurrence.range.numberOfOccurrences", "a numbered range needs a positive number")
                }
                r.count = n
            case .endDate:
                guard let end = recurrence.range.endDate.flatMap(LocalDate.init(iso:)) else {
                    throw GraphMappingError.unreadable("recurrence.range.endDate", "an endDate range needs a date")
                }
                r.until = times.until(endDate: end, recurrenceTimeZone: recurrence.range.recurrenceTimeZone)
            default:
                break
            }
            rule = r
        }
        master.append(Property.dateTime("DTSTART", times.start))
        master.append(Property.dateTime("DTEND", times.end))
        if let rule { master.append(Property(name: "RRULE", value: rule.description)) }
        if noOccurrence { master.append(Property.dateTime("EXDATE", times.start)) }
        if rule != nil {
            for id in cancelledOccurrences ?? self.cancelledOccurrences ?? [] {
                guard let day = Self.occurrenceDate(ofID: id) else { continue }
                master.append(Property.dateTime("EXDATE", times.startValue(on: day)))
            }
        }
        appendContent(to: &master)

        var calendar = Component(
            name: "VCALENDAR",
            properties: [Property(name: "VERSION", value: "2.0"), Property(name: "PRODID", value: Self.productID)])
        calendar.components.append(master)
        if rule != nil {
            for exception in exceptions ?? exceptionOccurrences ?? [] {
                let full = exception.inheriting(from: self)
                calendar.components.append(try full.overrideComponent(uid: uid, series: times, at: date))
            }
        }
        TimeZoneCompletion.complete(&calendar, at: date)
        return calendar
    }

    /// The exception with each field it lacks taken from its master: an `$expand`ed
    /// `exceptionOccurrences` holds only the fields `$select`ed, and what an exception does not
    /// say it shares with its series.
    func inheriting(from master: GraphEvent) -> GraphEvent {
        var e = self
        func inherit<T>(_ field: WritableKeyPath<GraphEvent, T?>) {
            if e[keyPath: field] == nil { e[keyPath: field] = master[keyPath: field] }
        }
        inherit(\.subject)
        inherit(\.body)
        inherit(\.isAllDay)
        inherit(\.originalStartTimeZone)
        inherit(\.originalEndTimeZone)
        inherit(\.location)
        inherit(\.locations)
        inherit(\.categories)
        inherit(\.showAs)
        inherit(\.sensitivity)
        inherit(\.importance)
        inherit(\.isReminderOn)
        inherit(\.reminderMinutesBeforeStart)
        inherit(\.organizer)
        inherit(\.attendees)
        return e
    }

    /// calgw's UID when the event carries it, else Graph's iCalUId, else its id.
    func seriesUID() throws -> String {
        if let uid = extendedProperty(GraphExtendedProperty.uidID), !uid.isEmpty { return uid }
        if let uid = iCalUId, !uid.isEmpty { return uid }
        if let id, !id.isEmpty { return id }
        throw GraphMappingError.unreadable("iCalUId", "the event has no UID, iCalUId or id")
    }

    /// The date of `OID.<master id>.<YYYY-MM-DD>`.
    public static func occurrenceDate(ofID id: String) -> LocalDate? {
        guard let dot = id.lastIndex(of: ".") else { return nil }
        return LocalDate(iso: String(id[id.index(after: dot)...]))
    }

    /// An exception as a VEVENT with the series' UID and a RECURRENCE-ID in the master's form.
    private func overrideComponent(uid: String, series: GraphEventTimes, at date: Date) throws -> Component {
        var c = Component(name: "VEVENT")
        c.append(Property.text("UID", uid))
        let original = originalStart.flatMap(GraphTimestamp.init(parsing:))
        let recurrenceID: DateTimeValue
        if let instant = original?.instant {
            recurrenceID = series.value(atInstant: instant)
        } else {
            // Without originalStart, the exception's own start stands for its slot.
            recurrenceID = try GraphEventTimes(self, seriesZone: series).start
        }
        c.append(Property.dateTime("RECURRENCE-ID", recurrenceID))
        appendStamps(to: &c, at: date)
        let times = try GraphEventTimes(self, seriesZone: series)
        c.append(Property.dateTime("DTSTART", times.start))
        c.append(Property.dateTime("DTEND", times.end))
        appendContent(to: &c)
        return c
    }

    private func appendStamps(to c: inout Component, at date: Date) {
        let created = createdDateTime.flatMap(Self.utcValue)
        let modified = lastModifiedDateTime.flatMap(Self.utcValue)
        let now = DateTimeValue(
            LocalDateTime(secondsSinceEpoch: Int64(date.timeIntervalSince1970.rounded(.down))), form: .utc)
        c.append(Property.dateTime("DTSTAMP", modified ?? created ?? now))
        if let created { c.append(Property.dateTime("CREATED", created)) }
        if let modified { c.append(Property.dateTime("LAST-MODIFIED", modified)) }
    }

    static func utcValue(_ text: String) -> DateTimeValue? {
        guard let instant = GraphTimestamp(parsing: text)?.instant else { return nil }
        return DateTimeValue(LocalDateTime(secondsSinceEpoch: instant), form: .utc)
    }
}
