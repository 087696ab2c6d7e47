import Foundation
import ICalendar
import Recurrence

/// A scheduling message as a person reads it before answering: `calgw itip --show`, the viewer
/// a mail program's mailcap names (`text/calendar; calgw itip --show %s; copiousoutput`). What
/// it is, who organizes it, when (in the meeting's zone and in the reader's), what it repeats,
/// where, who else comes, what changed against the copy the reader holds, what else is on the
/// reader's calendar then, and the command that answers it. Pure: the caller finds the clashes.
public struct InvitationView {
    /// The message.
    public var message: ITipMessage
    /// The reader's copy of the meeting (its VCALENDAR), nil when none is held.
    public var held: Component?
    /// The reader's addresses, normalised.
    public var own: Set<String>
    /// The reader's zone (times are shown in it too, and floating times read in it).
    public var zone: any ZoneRules
    /// The reader's other events at the meeting's first time, one line each.
    public var clashes: [String] = []

    /// How many attendees are named before "and N more".
    static let attendeesShown = 12

    public init(message: ITipMessage, held: Component?, own: Set<String>, zone: any ZoneRules) {
        self.message = message
        self.held = held
        self.own = own
        self.zone = zone
    }

    /// The message's main event: its series (or the one occurrence it is about).
    var event: Component? { message.events.first { $0["RECURRENCE-ID"] == nil } ?? message.events.first }

    /// The view, a line each.
    public var lines: [String] {
        guard let event else { return ["\(message.method.rawValue): no event in it"] }
        var out = ["\(title): \(event["SUMMARY"]?.text ?? "(no title)")"]
        func field(_ name: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            out.append(name.padding(toLength: 11, withPad: " ", startingAt: 0) + value)
        }
        field("Organizer:", event["ORGANIZER"].map(Self.person))
        // A cancellation may carry no time: the held copy's is shown.
        field("When:", when(event) ?? heldEvent.flatMap { when($0) })
        if message.method == .cancel, let rid = message.events.first?["RECURRENCE-ID"]?.dateTime {
            field("Occurrence:", "only the one of \(Self.wall(rid.local, isDate: rid.isDate)) is cancelled")
        }
        field("Repeats:", event["RRULE"].map { Self.words(rule: $0.value) })
        field("Where:", event["LOCATION"]?.text)
        field("Join:", (event["CONFERENCE"] ?? event["URL"])?.value)
        field("Attendees:", attendees(event))
        if message.method == .counter { field("Now:", heldEvent.flatMap { when($0) }) }
        if [.reply, .counter].contains(message.method) { field("Comment:", event["COMMENT"]?.text) }
        field("Changed:", changes(event))
        for (index, line) in clashes.enumerated() { field(index == 0 ? "Clashes:" : "", line) }
        for (index, line) in notes(event).enumerated() { field(index == 0 ? "Notes:" : "", line) }
        field("Answer:", answerCommand(event))
        return out
    }

    /// The held copy's event of the message's UID and occurrence.
    var heldEvent: Component? {
        held?.components.first {
            $0["UID"]?.text == message.uid && $0["RECURRENCE-ID"]?.value == event?["RECURRENCE-ID"]?.value
        }
    }

    /// What the message is: an invitation, an update of one held, a cancellation, an answer.
    var title: String {
        switch message.method {
        case .request: held == nil ? "Invitation" : "Updated invitation"
        case .publish: "Event"
        case .cancel: "Cancelled"
        case .reply: "Answer"
        case .counter: "Another time proposed"
        case .declineCounter: "Your proposal declined"
        default: message.method.rawValue.capitalized
        }
    }

    /// `Alice Example <alice@example.org>`, or the address alone.
    static func person(_ line: Property) -> String {
        let address = CalendarUser.normalized(line.value)
        guard let name = line[parameter: "CN"], !name.isEmpty else { return address }
        return "\(name) <\(address)>"
    }

    /// When it takes place, in its own zone, and in the reader's where that differs.
    func when(_ event: Component) -> String? {
        guard let start = event["DTSTART"]?.dateTime else { return nil }
        if start.isDate { return Self.wall(start.local, isDate: true) + " (all day)" }
        let resolver = TimeZoneResolver(calendar: message.calendar)
        let startUTC = instant(start, resolver)
        let length =
            event["DTEND"]?.dateTime.map { instant($0, resolver) - startUTC }
            ?? event["DURATION"]?.duration?.approximateSeconds
            ?? 0
        let own = start.tzid.flatMap { resolver.zone(for: $0) } ?? (start.form == .utc ? FixedOffsetZone.utc : zone)
        var text = span(startUTC, length, in: own) + " " + (start.tzid ?? (start.form == .utc ? "UTC" : "(floating)"))
        if own.identifier != zone.identifier, own.offset(atUTC: startUTC) != zone.offset(atUTC: startUTC) {
            text += "; yours: " + span(startUTC, length, in: zone) + " " + zone.identifier
        }
        return text
    }

    /// The instant of `value` (a floating time read in the reader's zone).
    func instant(_ value: DateTimeValue, _ resolver: TimeZoneResolver) -> Int64 {
        switch value.form {
        case .utc: value.local.secondsSinceEpoch
        case .date, .floating: zone.utc(forLocal: value.local)
        case .zoned(let tzid): (resolver.zone(for: tzid) ?? zone).utc(forLocal: value.local)
        }
    }

    /// `Mon 2027-01-11 09:30–10:30` in `zone` (both dates when it ends on another day).
    func span(_ start: Int64, _ length: Int64, in zone: any ZoneRules) -> String {
        let from = zone.local(atUTC: start), to = zone.local(atUTC: start + length)
        let end = to.date == from.date ? Self.clock(to) : Self.wall(to, isDate: false)
        return Self.wall(from, isDate: false) + (length > 0 ? "–" + end : "")
    }

    /// `Mon 2027-01-11 09:30`, or `Mon 2027-01-11` for a date.
    static func wall(_ value: LocalDateTime, isDate: Bool) -> String {
        let day = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][value.date.weekday.isoIndex]
        let date = String(format: "%04d-%02d-%02d", value.date.year, value.date.month, value.date.day)
        return "\(day) \(date)" + (isDate ? "" : " " + clock(value))
    }

    static func clock(_ value: LocalDateTime) -> String {
        String(format: "%02d:%02d", value.time.hour, value.time.minute)
    }

    /// A recurrence rule in words: `every 2 weeks on Mon, Wed, 6 times`; as written when it
    /// does not parse.
    static func words(rule value: String) -> String {
        guard let rule = try? RecurrenceRule(parsing: value) else { return value }
        let units: [RecurrenceRule.Frequency: String] = [
            .secondly: "second", .minutely: "minute", .hourly: "hour", .daily: "day", .weekly: "week",
            .monthly: "month", .yearly: "year",
        ]
        let unit = units[rule.frequency] ?? rule.frequency.rawValue.lowercased()
        var text = rule.interval == 1 ? "every \(unit)" : "every \(rule.interval) \(unit)s"
        if !rule.byDay.isEmpty {
            let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
            text +=
                " on "
                + rule.byDay.map { day in
                    (day.ordinal.map { "the \(ordinal($0)) " } ?? "") + names[day.weekday.isoIndex]
                }.joined(separator: ", ")
        }
        if let count = rule.count { text += ", \(count) times" }
        if let until = rule.until { text += ", until \(OccurrenceText.display(until))" }
        return text
    }

    /// `1st`, `2nd`, `last`, `2nd last`: a BYDAY ordinal as people say it.
    static func ordinal(_ n: Int) -> String {
        if n == -1 { return "last" }
        if n < 0 { return ordinal(-n) + " last" }
        let suffix =
            (11...13).contains(n % 100) ? "th" : [1: "st", 2: "nd", 3: "rd"][n % 10] ?? "th"
        return "\(n)\(suffix)"
    }

    /// The attendees but the organizer, each with their answer: the reader first, marked.
    func attendees(_ event: Component) -> String? {
        let chair = event["ORGANIZER"].map { CalendarUser.normalized($0.value) }
        let lines = event.properties(named: "ATTENDEE").filter { CalendarUser.normalized($0.value) != chair }
        guard !lines.isEmpty else { return nil }
        let described = lines.map { line -> (mine: Bool, text: String) in
            let answer = (line[parameter: "PARTSTAT"] ?? "NEEDS-ACTION").lowercased().replacingOccurrences(
                of: "-", with: " ")
            let mine = own.contains(CalendarUser.normalized(line.value))
            return (mine, Self.person(line) + " (\(mine ? "you, " : "")\(answer))")
        }.sorted { $0.mine && !$1.mine }
        let shown = described.prefix(Self.attendeesShown).map(\.text)
        let more = described.count - shown.count
        return shown.joined(separator: ", ") + (more > 0 ? ", and \(more) more" : "")
    }

    /// What an update changes against the held copy: a clause each.
    func changes(_ event: Component) -> String? {
        guard message.method == .request, let held,
            let before = held.components.first(where: {
                $0["UID"]?.text == message.uid && $0["RECURRENCE-ID"]?.value == event["RECURRENCE-ID"]?.value
            })
        else { return nil }
        var said: [String] = []
        let was = InvitationView(message: message, held: nil, own: own, zone: zone)
        if let old = was.when(before), let new = was.when(event), old != new { said.append("moved from \(old)") }
        for (name, what) in [("SUMMARY", "title"), ("LOCATION", "place"), ("RRULE", "repetition")] {
            let old = before[name]?.text ?? "", new = event[name]?.text ?? ""
            if old != new { said.append("\(what) was \(old.isEmpty ? "none" : old)") }
        }
        if (before["DESCRIPTION"]?.text ?? "") != (event["DESCRIPTION"]?.text ?? "") {
            said.append("the notes changed")
        }
        return said.isEmpty ? "nothing you would see (a new version of the same)" : said.joined(separator: "; ")
    }

    /// The description's first lines.
    func notes(_ event: Component) -> [String] {
        guard let text = event["DESCRIPTION"]?.text else { return [] }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        return lines.prefix(8) + (lines.count > 8 ? ["…"] : [])
    }

    /// The command that answers an invitation naming the reader.
    func answerCommand(_ event: Component) -> String? {
        if message.method == .counter, let held {
            return ITipCounter(message: message, copy: held).takingCommand().map { "\($0) (to take it)" }
        }
        guard [.request].contains(message.method), OwnPart.attendee(event, addresses: own) != nil else { return nil }
        let occurrence = event["RECURRENCE-ID"]?.dateTime.map { " --occurrence \(OccurrenceText.display($0))" } ?? ""
        return "calgw event reply \(message.uid)\(occurrence) --accept (or --tentative, --decline; --comment TEXT)"
            + (held == nil ? ", once calgw itip has taken it" : "")
    }
}
