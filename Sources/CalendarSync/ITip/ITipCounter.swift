import ICalendar

/// An attendee's proposal of another time for a meeting the person organizes (COUNTER, RFC
/// 5546 §3.2.7), and the organizer's refusal of one (DECLINECOUNTER, §3.2.8). Neither changes
/// the vdir: a proposal is the organizer's to take, by an edit that then goes to every
/// attendee as any update does; a refusal leaves the meeting as it is. What each says, and the
/// command that takes a proposal, are worked out here. Pure.
struct ITipCounter {
    /// The message.
    var message: ITipMessage
    /// The organizer's copy of the meeting (its VCALENDAR).
    var copy: Component

    /// The proposed event: the occurrence it is about, or the series.
    var proposed: Component? { message.events.first }

    /// The copy's event the proposal is about: the same occurrence, else the series.
    var held: Component? {
        let mine = copy.components.filter { $0["UID"]?.text == message.uid }
        let rid = proposed?["RECURRENCE-ID"]?.value
        return mine.first { $0["RECURRENCE-ID"]?.value == rid } ?? mine.first { $0["RECURRENCE-ID"] == nil }
    }

    /// What the proposal asks, in words: `bob@example.net proposes Wed 2027-03-10 11:00–12:00
    /// UTC instead of Tue 2027-03-09 10:00–11:00 UTC ("Tuesdays are full")`.
    func proposal(from attendee: String, zone: any ZoneRules) -> String {
        let view = InvitationView(message: message, held: copy, own: [], zone: zone)
        let new = proposed.flatMap { view.when($0) } ?? "no time"
        let now = held.flatMap { view.when($0) }
        let occurrence = proposed?["RECURRENCE-ID"]?.dateTime.map {
            " for the occurrence \(OccurrenceText.display($0))"
        }
        let comment = (proposed?["COMMENT"]?.text).map { " (\"\($0)\")" } ?? ""
        return "\(attendee) proposes \(new)\(occurrence ?? "")" + (now.map { " instead of \($0)" } ?? "") + comment
            + ": nothing is changed until you take it"
    }

    /// The `calgw event edit` command that moves the meeting (or the occurrence) to the
    /// proposed time, its times as instants (`2027-03-10T10:00Z`) so that they mean the same in
    /// any zone; nil when the proposal carries no start.
    func takingCommand() -> String? {
        guard let proposed, let start = proposed["DTSTART"]?.dateTime else { return nil }
        let resolver = TimeZoneResolver(calendar: message.calendar)
        func typed(_ value: DateTimeValue) -> String {
            guard case .zoned(let tzid) = value.form, let rules = resolver.zone(for: tzid) else {
                return OccurrenceText.display(value)
            }
            let utc = rules.utc(forLocal: value.local)
            return OccurrenceText.display(DateTimeValue(LocalDateTime(secondsSinceEpoch: utc), form: .utc))
        }
        var words = ["calgw", "event", "edit", ShellWord.quoted(message.uid)]
        if let rid = proposed["RECURRENCE-ID"]?.dateTime { words += ["--occurrence", OccurrenceText.display(rid)] }
        words += ["--start", typed(start)]
        if let end = proposed["DTEND"]?.dateTime {
            words += ["--end", typed(end)]
        } else if let length = proposed["DURATION"]?.value {
            words += ["--duration", ShellWord.quoted(length)]
        }
        return words.joined(separator: " ")
    }

    /// What a refusal of the person's proposal says: the meeting stays at the copy's time.
    func refusal(from organizer: String, zone: any ZoneRules) -> String {
        let view = InvitationView(message: message, held: copy, own: [], zone: zone)
        let stays = held.flatMap { view.when($0) }.map { ": the meeting stays at \($0)" } ?? ""
        return "\(organizer) declines your proposal of another time for \(message.uid)\(stays)"
    }
}
