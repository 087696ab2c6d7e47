import ICalendar

extension GraphWriter {
    /// The properties Graph holds (read into the body) or calgw leaves out on purpose (stamps
    /// Graph sets itself); every other property is a ``GraphNotHeld`` note.
    static let handled: Set<String> = [
        "UID", "DTSTAMP", "CREATED", "LAST-MODIFIED", "SEQUENCE", "DTSTART", "DTEND", "DURATION", "RRULE", "EXDATE",
        "RECURRENCE-ID", "SUMMARY", "DESCRIPTION", "X-ALT-DESC", "LOCATION", "CATEGORIES", "TRANSP",
        "X-MICROSOFT-CDO-BUSYSTATUS", "CLASS", "PRIORITY", "ORGANIZER", "ATTENDEE", "STATUS",
    ]

    /// The body fields of one VEVENT, noting what Graph does not hold.
    mutating func content(of c: Component, times: WriteTimes, recurrenceID: String?) throws -> GraphEvent {
        func note(_ part: String, _ reason: String) {
            let n = GraphNotHeld(part, reason, recurrenceID: recurrenceID)
            if !notHeld.contains(n) { notHeld.append(n) }
        }
        var e = GraphEvent()
        e.subject = c["SUMMARY"]?.text ?? ""
        e.isAllDay = times.isAllDay
        e.start = times.graphStart
        e.end = times.graphEnd
        e.body = Self.body(of: c, note: note)
        let location = c["LOCATION"]
        if location?[parameter: "ALTREP"] != nil { note("LOCATION;ALTREP", "Graph's location has a name only") }
        e.location = GraphLocation(displayName: location?.text ?? "")
        e.categories = c.properties(named: "CATEGORIES").flatMap(\.textList).filter { !$0.isEmpty }
        e.showAs = Self.showAs(of: c)
        e.sensitivity = Self.sensitivity(of: c, note: note)
        e.importance = Self.importance(of: c, note: note)
        Self.reminder(of: c, into: &e, note: note)
        e.attendees = Self.attendees(of: c, note: note)
        if recurrenceID == nil, c["ORGANIZER"] != nil {
            note("ORGANIZER", "Graph makes the mailbox's owner the organizer; not written")
        }
        switch c["STATUS"]?.value.uppercased() {
        case "TENTATIVE"?: note("STATUS:TENTATIVE", "Graph has no tentative event status (showAs is free/busy)")
        case "CANCELLED"? where recurrenceID == nil:
            note("STATUS:CANCELLED", "Graph cancels a meeting only by its cancel action; not written")
        default: break
        }
        var seen = Set<String>()
        for p in c.properties where !Self.handled.contains(p.name) && seen.insert(p.name).inserted {
            note(p.name, p.name.hasPrefix("X-") ? "Graph keeps no X- properties" : "Graph's event has no such field")
        }
        for sub in c.components where sub.name != "VALARM" && seen.insert(sub.name).inserted {
            note(sub.name, "Graph's event holds no such component")
        }
        return e
    }

    /// DESCRIPTION as text, or the HTML of `X-ALT-DESC;FMTTYPE=text/html` when the text is the
    /// HTML's own (nobody edited DESCRIPTION since the body was read from Graph).
    private static func body(of c: Component, note: (String, String) -> Void) -> GraphItemBody {
        let description = c["DESCRIPTION"]
        if description?[parameter: "ALTREP"] != nil {
            note("DESCRIPTION;ALTREP", "Graph's body has no link to another form")
        }
        let text = description?.text ?? ""
        if let alt = c.properties(named: "X-ALT-DESC").first(where: {
            $0[parameter: "FMTTYPE"]?.lowercased() == "text/html"
        }) {
            let html = alt.text
            if Self.words(HTMLText.plainText(html)) == Self.words(text) {
                return GraphItemBody(contentType: .html, content: html)
            }
            note("X-ALT-DESC", "DESCRIPTION no longer matches the HTML; the body is written as DESCRIPTION's text")
        }
        return GraphItemBody(contentType: .text, content: text)
    }

    private static func words(_ text: String) -> [Substring] {
        text.split(whereSeparator: { $0.isWhitespace })
    }

    /// TRANSP, refined by X-MICROSOFT-CDO-BUSYSTATUS where the two agree.
    private static func showAs(of c: Component) -> GraphShowAs {
        let transp = c["TRANSP"]?.value.uppercased()
        let free = transp == "TRANSPARENT"
        if let status = c["X-MICROSOFT-CDO-BUSYSTATUS"].map({ GraphShowAs(rawValue: $0.value) }), status.isKnown,
            status != .unknown, transp == nil || (status == .free) == free
        {
            return status
        }
        return free ? .free : .busy
    }

    private static func sensitivity(of c: Component, note: (String, String) -> Void) -> GraphSensitivity {
        guard let value = c["CLASS"]?.value.uppercased() else { return .normal }
        switch value {
        case "PUBLIC": return .normal
        case "PRIVATE": return .private
        case "CONFIDENTIAL": return .confidential
        case "X-PERSONAL": return .personal
        default:
            note("CLASS:\(value)", "Graph has normal, personal, private and confidential; written as private")
            return .private
        }
    }

    private static func importance(of c: Component, note: (String, String) -> Void) -> GraphImportance {
        guard let p = c["PRIORITY"]?.integer, p > 0 else { return .normal }
        if ![1, 5, 9].contains(p) {
            note("PRIORITY:\(p)", "Graph has three levels: 1–4 are high, 5 normal, 6–9 low")
        }
        return p < 5 ? .high : p == 5 ? .normal : .low
    }

    /// The first alarm before (or at) the start as Graph's one reminder; the rest are notes.
    private static func reminder(of c: Component, into e: inout GraphEvent, note: (String, String) -> Void) {
        e.isReminderOn = false
        for alarm in c.components(named: "VALARM") {
            let a = Alarm(alarm)
            let before: Int64? = {
                guard case .relative(let d, fromEnd: false)? = a.trigger else { return nil }
                let seconds = Int64(d.nominalDays) * 86_400 + d.exactSeconds
                return seconds <= 0 ? -seconds : nil
            }()
            guard e.isReminderOn == false, let before, a.action == "DISPLAY" || a.action == "AUDIO" else {
                note("VALARM", "Graph holds one reminder, some minutes before the start")
                continue
            }
            e.isReminderOn = true
            e.reminderMinutesBeforeStart = Int(before / 60)
            if before % 60 != 0 { note("VALARM TRIGGER", "Graph counts reminders in whole minutes") }
            if a.action == "AUDIO" { note("VALARM ACTION:AUDIO", "Graph's reminder is shown, not played") }
            if alarm["REPEAT"] != nil { note("VALARM REPEAT", "Graph's reminder goes off once") }
        }
    }

    private static func attendees(of c: Component, note: (String, String) -> Void) -> [GraphAttendee] {
        let organizer = c["ORGANIZER"].map { CalendarUser.normalized($0.value) }
        var result: [GraphAttendee] = []
        for p in c.properties(named: "ATTENDEE") {
            guard p.value.lowercased().hasPrefix("mailto:") else {
                note("ATTENDEE:\(p.value)", "Graph invites e-mail addresses only")
                continue
            }
            let address = CalendarUser.normalized(p.value)
            if address == organizer { continue }
            let cutype = p[parameter: "CUTYPE"]?.uppercased()
            let role = p[parameter: "ROLE"]?.uppercased()
            let type: GraphAttendeeType
            if cutype == "RESOURCE" || cutype == "ROOM" {
                type = .resource
            } else {
                type = role == "OPT-PARTICIPANT" || role == "NON-PARTICIPANT" ? .optional : .required
                if role == "CHAIR" || role == "NON-PARTICIPANT" {
                    note("ATTENDEE;ROLE=\(role!)", "Graph has required, optional and resource attendees")
                }
                if let cutype, cutype != "INDIVIDUAL" {
                    note("ATTENDEE;CUTYPE=\(cutype)", "Graph has people and resources only")
                }
            }
            for name in ["DELEGATED-TO", "DELEGATED-FROM", "SENT-BY", "MEMBER", "DIR"] where p[parameter: name] != nil {
                note("ATTENDEE;\(name)", "Graph's attendee has an address, a name and a type only")
            }
            let original = String(p.value.dropFirst(7))
            result.append(
                GraphAttendee(
                    type: type, emailAddress: GraphEmailAddress(address: original, name: p[parameter: "CN"])))
        }
        return result
    }
}

extension GraphEvent {
    /// Leaves out what equals the master's, for an occurrence's PATCH; start and end stay.
    mutating func keepOnlyDifferences(from master: GraphEvent) {
        func drop<T: Equatable>(_ field: WritableKeyPath<GraphEvent, T?>) {
            if self[keyPath: field] == master[keyPath: field] { self[keyPath: field] = nil }
        }
        drop(\.subject)
        drop(\.body)
        drop(\.location)
        drop(\.categories)
        drop(\.showAs)
        drop(\.sensitivity)
        drop(\.importance)
        drop(\.isAllDay)
        drop(\.attendees)
        if isReminderOn == master.isReminderOn && reminderMinutesBeforeStart == master.reminderMinutesBeforeStart {
            isReminderOn = nil
            reminderMinutesBeforeStart = nil
        }
    }
}
