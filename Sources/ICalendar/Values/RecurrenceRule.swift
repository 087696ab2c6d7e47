/// A RECUR value (RFC 5545 §3.3.10): the rule part of an RRULE.
///
/// Parsing validates every part's range, so an expander can trust the numbers.
/// Parts calgw does not model (RSCALE, SKIP from RFC 7529, X- parts) are kept in `otherParts`.
public struct RecurrenceRule: Hashable, Sendable, CustomStringConvertible {
    /// FREQ: the unit the rule repeats in, from SECONDLY to YEARLY.
    public enum Frequency: String, CaseIterable, Hashable, Sendable, Comparable {
        case secondly = "SECONDLY", minutely = "MINUTELY", hourly = "HOURLY", daily = "DAILY"
        case weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY"

        private var rank: Int { Frequency.allCases.firstIndex(of: self)! }
        /// Finer frequencies first: SECONDLY before YEARLY.
        public static func < (a: Frequency, b: Frequency) -> Bool { a.rank < b.rank }
    }

    /// A BYDAY entry: a weekday, optionally with an ordinal (`-1SU`, `2MO`).
    public struct WeekdayNumber: Hashable, Sendable, CustomStringConvertible {
        /// The ordinal, -53 to 53 without 0 (`-1` for the last); nil for every such weekday.
        public var ordinal: Int?
        /// The weekday.
        public var weekday: Weekday

        /// `weekday`, with `ordinal` when given.
        public init(_ weekday: Weekday, ordinal: Int? = nil) {
            self.weekday = weekday
            self.ordinal = ordinal
        }

        /// The BYDAY form: `-1SU`, `2MO`, `TU`.
        public var description: String { (ordinal.map(String.init) ?? "") + weekday.rawValue }
    }

    /// FREQ.
    public var frequency: Frequency
    /// INTERVAL: every how many `frequency` units; 1 when absent.
    public var interval: Int = 1
    /// COUNT: how many occurrences in all; nil when not given (at most one of COUNT and UNTIL is).
    public var count: Int?
    /// UNTIL: the last instant an occurrence may start; nil when not given.
    public var until: DateTimeValue?
    /// BYSECOND: seconds 0 to 60.
    public var bySecond: [Int] = []
    /// BYMINUTE: minutes 0 to 59.
    public var byMinute: [Int] = []
    /// BYHOUR: hours 0 to 23.
    public var byHour: [Int] = []
    /// BYDAY: weekdays, each with an optional ordinal.
    public var byDay: [WeekdayNumber] = []
    /// BYMONTHDAY: days of the month, 1 to 31 or -31 to -1 counting from the end.
    public var byMonthDay: [Int] = []
    /// BYYEARDAY: days of the year, 1 to 366 or -366 to -1 counting from the end.
    public var byYearDay: [Int] = []
    /// BYWEEKNO: ISO weeks of the year, 1 to 53 or -53 to -1 counting from the end.
    public var byWeekNo: [Int] = []
    /// BYMONTH: months 1 to 12.
    public var byMonth: [Int] = []
    /// BYSETPOS: positions within each interval's set of occurrences, negative from the end.
    public var bySetPos: [Int] = []
    /// WKST: the day weeks start on; Monday when absent.
    public var weekStart: Weekday = .monday
    /// Whether WKST was written explicitly (kept so serialization does not add it).
    public var hasExplicitWeekStart = false
    /// Parts not modelled, in their original order, e.g. `("RSCALE", "GREGORIAN")`.
    public var otherParts: [(name: String, value: String)] = []

    /// A rule of `frequency` with every other part at its default.
    public init(frequency: Frequency) { self.frequency = frequency }

    /// Whether the rule uses RFC 7529 RSCALE with a non-Gregorian calendar.
    public var usesNonGregorianScale: Bool {
        otherParts.contains { $0.name == "RSCALE" && $0.value.uppercased() != "GREGORIAN" }
    }

    /// Parses a RECUR value such as `FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20261231T000000Z`.
    /// - Parameter tzid: the zone of DTSTART, used for an UNTIL written without `Z` (a common error).
    /// - Throws: `RecurrenceRuleError` naming the offending part.
    public init(parsing text: String, tzid: String? = nil) throws {
        var freq: Frequency?
        var rule = RecurrenceRule(frequency: .daily)
        var seen: [String] = []
        for part in Self.parts(of: text) {
            guard let name = part.name else { throw RecurrenceRuleError("'\(part.text)' is not NAME=VALUE") }
            let value = part.value
            guard !seen.contains(name) else { throw RecurrenceRuleError("\(name) appears twice") }
            seen.append(name)
            switch name {
            case "FREQ":
                guard let f = Frequency(rawValue: value.uppercased()) else {
                    throw RecurrenceRuleError("FREQ=\(value) is not a frequency")
                }
                freq = f
            case "INTERVAL":
                guard let n = Int(value), n >= 1 else {
                    throw RecurrenceRuleError("INTERVAL=\(value) must be a positive integer")
                }
                rule.interval = n
            case "COUNT":
                guard let n = Int(value), n >= 1 else {
                    throw RecurrenceRuleError("COUNT=\(value) must be a positive integer")
                }
                rule.count = n
            case "UNTIL":
                guard let u = DateTimeValue(parsing: value, tzid: nil) else {
                    throw RecurrenceRuleError("UNTIL=\(value) is not a date or date-time")
                }
                if u.form == .floating, let tzid {
                    rule.until = DateTimeValue(u.local, form: .zoned(tzid: tzid))
                } else {
                    rule.until = u
                }
            case "BYSECOND": rule.bySecond = try Self.numbers(value, name, 0...60, allowNegative: false)
            case "BYMINUTE": rule.byMinute = try Self.numbers(value, name, 0...59, allowNegative: false)
            case "BYHOUR": rule.byHour = try Self.numbers(value, name, 0...23, allowNegative: false)
            case "BYMONTHDAY": rule.byMonthDay = try Self.numbers(value, name, 1...31, allowNegative: true)
            case "BYYEARDAY": rule.byYearDay = try Self.numbers(value, name, 1...366, allowNegative: true)
            case "BYWEEKNO": rule.byWeekNo = try Self.numbers(value, name, 1...53, allowNegative: true)
            case "BYMONTH": rule.byMonth = try Self.numbers(value, name, 1...12, allowNegative: false)
            case "BYSETPOS": rule.bySetPos = try Self.numbers(value, name, 1...366, allowNegative: true)
            case "BYDAY": rule.byDay = try Self.weekdays(value)
            case "WKST":
                guard let w = Weekday(rawValue: value.uppercased()) else {
                    throw RecurrenceRuleError("WKST=\(value) is not a weekday")
                }
                rule.weekStart = w
                rule.hasExplicitWeekStart = true
            default:
                rule.otherParts.append((name, value))
            }
        }
        guard let freq else { throw RecurrenceRuleError("FREQ is missing") }
        rule.frequency = freq
        if rule.count != nil && rule.until != nil {
            throw RecurrenceRuleError("COUNT and UNTIL must not both be given")
        }
        self = rule
    }

    /// Combinations RFC 5545 §3.3.10 forbids but that real files contain. They parse (an
    /// expander still gives them a meaning, as other implementations do) and lint reports them.
    public var rfcViolations: [String] {
        var problems: [String] = []
        let f = frequency
        if byDay.contains(where: { $0.ordinal != nil }) && !(f == .monthly || f == .yearly) {
            problems.append("BYDAY with a number is only valid with FREQ=MONTHLY or YEARLY")
        }
        if f == .yearly && !byWeekNo.isEmpty && byDay.contains(where: { $0.ordinal != nil }) {
            problems.append("BYDAY with a number is not valid together with BYWEEKNO")
        }
        if !byWeekNo.isEmpty && f != .yearly { problems.append("BYWEEKNO is only valid with FREQ=YEARLY") }
        if !byYearDay.isEmpty && [.daily, .weekly, .monthly].contains(f) {
            problems.append("BYYEARDAY is not valid with FREQ=\(f.rawValue)")
        }
        if !byMonthDay.isEmpty && f == .weekly { problems.append("BYMONTHDAY is not valid with FREQ=WEEKLY") }
        return problems
    }

    /// A part of a rule's text between `;`s: its name (trimmed of spaces and tabs, in upper
    /// case) and value (trimmed) when it holds a `=`; else nil and the part as written.
    private struct Part {
        var name: String?
        var value: String
        var text: String
    }

    /// The parts of a rule's text, empty ones left out, split on scalars, not Characters: a
    /// combining mark after `;` or `=` must not hide it. An ASCII text (nearly every rule) is
    /// split over its bytes, which give the same parts: the scalars' views and the strings
    /// made of each of their pieces were most of a rule's reading, some 30,000 instructions.
    private static func parts(of text: String) -> [Part] {
        var text = text
        if let parts = text.withUTF8({ asciiParts(of: $0) }) { return parts }
        return text.unicodeScalars.split(separator: ";", omittingEmptySubsequences: true).map { scalars in
            let kv = scalars.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                .map { String(Substring($0)) }
            guard kv.count == 2 else { return Part(name: nil, value: "", text: String(Substring(scalars))) }
            return Part(name: kv[0].trimmingSpaces.uppercased(), value: kv[1].trimmingSpaces, text: "")
        }
    }

    /// ``parts(of:)`` of ASCII bytes; nil when any byte is not ASCII.
    private static func asciiParts(of bytes: UnsafeBufferPointer<UInt8>) -> [Part]? {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        func trimmed(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
            var start = range.lowerBound, end = range.upperBound
            while start < end, isSpace(bytes[start]) { start += 1 }
            while end > start, isSpace(bytes[end - 1]) { end -= 1 }
            return UnsafeBufferPointer(rebasing: bytes[start..<end])
        }
        var parts: [Part] = []
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: ";") { end += 1 }
            defer { start = end + 1 }
            guard end > start else { continue }
            guard let equals = bytes[start..<end].firstIndex(of: UInt8(ascii: "=")) else {
                parts.append(
                    Part(name: nil, value: "", text: String(decoding: bytes[start..<end], as: UTF8.self)))
                continue
            }
            // ASCII upper case is what `uppercased()` gives for ASCII.
            let name = String(unsafeUninitializedCapacity: equals - start) { name in
                var count = 0
                for byte in trimmed(start..<equals) {
                    name[count] = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 0x20 : byte
                    count += 1
                }
                return count
            }
            parts.append(
                Part(name: name, value: String(decoding: trimmed(equals + 1..<end), as: UTF8.self), text: ""))
        }
        return parts
    }

    private static func numbers(_ text: String, _ name: String, _ range: ClosedRange<Int>, allowNegative: Bool) throws
        -> [Int]
    {
        try text.split(separator: ",", omittingEmptySubsequences: false).map { item in
            let s = item.trimmingSpaces
            guard let n = Int(s.hasPrefix("+") ? String(s.dropFirst()) : s),
                range.contains(abs(n)), allowNegative || n >= 0
            else {
                throw RecurrenceRuleError(
                    "\(name)=\(text): '\(item)' is out of range \(allowNegative ? "±" : "")\(range.lowerBound)...\(range.upperBound)"
                )
            }
            return n
        }
    }

    private static func weekdays(_ text: String) throws -> [WeekdayNumber] {
        try text.split(separator: ",", omittingEmptySubsequences: false).map { item in
            let s = item.trimmingSpaces.uppercased()
            guard s.count >= 2, let day = Weekday(rawValue: String(s.suffix(2))) else {
                throw RecurrenceRuleError("BYDAY: '\(item)' is not a weekday")
            }
            let number = String(s.dropLast(2))
            if number.isEmpty { return WeekdayNumber(day) }
            guard let n = Int(number.hasPrefix("+") ? String(number.dropFirst()) : number), (1...53).contains(abs(n))
            else {
                throw RecurrenceRuleError("BYDAY: '\(item)' has an ordinal out of range ±1...53")
            }
            return WeekdayNumber(day, ordinal: n)
        }
    }

    /// The canonical text: FREQ first, then the other parts in RFC 5545's order.
    public var description: String {
        var parts = ["FREQ=\(frequency.rawValue)"]
        if let until { parts.append("UNTIL=\(until)") }
        if let count { parts.append("COUNT=\(count)") }
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        func list(_ name: String, _ values: [Int]) {
            if !values.isEmpty { parts.append(name + "=" + values.map(String.init).joined(separator: ",")) }
        }
        list("BYSECOND", bySecond)
        list("BYMINUTE", byMinute)
        list("BYHOUR", byHour)
        if !byDay.isEmpty { parts.append("BYDAY=" + byDay.map(\.description).joined(separator: ",")) }
        list("BYMONTHDAY", byMonthDay)
        list("BYYEARDAY", byYearDay)
        list("BYWEEKNO", byWeekNo)
        list("BYMONTH", byMonth)
        list("BYSETPOS", bySetPos)
        if hasExplicitWeekStart || weekStart != .monday { parts.append("WKST=\(weekStart.rawValue)") }
        for p in otherParts { parts.append("\(p.name)=\(p.value)") }
        return parts.joined(separator: ";")
    }

    /// Equal when both are written the same (see `description`).
    public static func == (a: RecurrenceRule, b: RecurrenceRule) -> Bool { a.description == b.description }
    /// Hashes the written form, as equality compares it.
    public func hash(into h: inout Hasher) { h.combine(description) }
}

/// Why a RECUR value was refused.
public struct RecurrenceRuleError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the rule.
    public var reason: String
    /// An error saying `reason`.
    public init(_ reason: String) { self.reason = reason }
    /// `invalid RRULE: reason`.
    public var description: String { "invalid RRULE: \(reason)" }
    /// The reason, after what was refused.
    public var message: String { description }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs, judged by scalar (a tab followed by a
    /// combining mark is still a tab).
    var trimmingSpaces: String {
        var scalars = Substring(self).unicodeScalars[...]
        while let first = scalars.first, first == " " || first == "\t" { scalars = scalars.dropFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars = scalars.dropLast() }
        return String(Substring(scalars))
    }
}
