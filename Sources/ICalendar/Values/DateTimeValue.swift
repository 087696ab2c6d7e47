/// A DATE or DATE-TIME value (RFC 5545 §3.3.4, §3.3.5) with its form of time.
///
/// The three DATE-TIME forms are kept apart because they mean different things:
/// a UTC time is one instant everywhere, a zoned time is wall-clock time in its TZID,
/// and a floating time is the same wall-clock time in whatever zone the reader is in.
public struct DateTimeValue: Hashable, Sendable, CustomStringConvertible {
    /// How the wall-clock fields relate to an instant.
    public enum Form: Hashable, Sendable {
        /// A DATE: a whole day, no time.
        case date
        /// Local time with no zone (`19980118T230000`).
        case floating
        /// UTC (`19980119T070000Z`).
        case utc
        /// Local time in the zone named by a TZID parameter.
        case zoned(tzid: String)
    }

    /// The wall-clock fields; midnight for a DATE.
    public var local: LocalDateTime
    /// Whether the value is a date, or a floating, UTC or zoned time.
    public var form: Form

    /// The value of `local` in `form`.
    public init(_ local: LocalDateTime, form: Form) {
        self.local = local
        self.form = form
    }

    /// A DATE value.
    public init(date: LocalDate) {
        self.init(LocalDateTime(date: date), form: .date)
    }

    /// True for a DATE.
    public var isDate: Bool { form == .date }
    /// The day the value falls on, by its wall clock.
    public var date: LocalDate { local.date }

    /// The TZID for a zoned value, else nil.
    public var tzid: String? {
        if case .zoned(let tzid) = form { return tzid }
        return nil
    }

    /// Parses the value text of a DATE or DATE-TIME. `tzid` is the TZID parameter, if any.
    /// Accepts a `Z` suffix in either case; a DATE is recognised by its length even without
    /// `VALUE=DATE`. Returns nil when the text is neither.
    public init?(parsing text: some StringProtocol, tzid: String? = nil) {
        // Over the text's own bytes when it has them in one piece: copied into an array first,
        // a date cost an allocation and a third more.
        let parsed =
            text.utf8.withContiguousStorageIfAvailable { Self.parse($0, tzid: tzid) }
            ?? Self.parse(Array(text.utf8), tzid: tzid)
        guard let parsed else { return nil }
        self = parsed
    }

    /// The value `bytes` write (indexed from 0), as ``init(parsing:tzid:)`` reads it.
    private static func parse<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, tzid: String?) -> DateTimeValue?
    where Bytes.Index == Int {
        guard let date = parseDate(bytes, at: 0) else { return nil }
        if bytes.count == 8 { return DateTimeValue(date: date) }
        guard bytes.count == 15 || bytes.count == 16, bytes[8] == UInt8(ascii: "T") || bytes[8] == UInt8(ascii: "t"),
            let time = parseTime(bytes, at: 9)
        else { return nil }
        let local = LocalDateTime(date: date, time: time)
        if bytes.count == 16 {
            guard bytes[15] == UInt8(ascii: "Z") || bytes[15] == UInt8(ascii: "z") else { return nil }
            return DateTimeValue(local, form: .utc)
        } else if let tzid, !tzid.isEmpty {
            return DateTimeValue(local, form: .zoned(tzid: tzid))
        } else {
            return DateTimeValue(local, form: .floating)
        }
    }

    /// The iCalendar text of the value (without the TZID, which is a parameter).
    public var description: String {
        switch form {
        case .date: return local.date.description
        case .utc: return local.description + "Z"
        case .floating, .zoned: return local.description
        }
    }

    static func parseDate<Bytes: RandomAccessCollection<UInt8>>(_ b: Bytes, at i: Int) -> LocalDate?
    where Bytes.Index == Int {
        guard b.count >= i + 8, let y = digits(b, i, 4), let m = digits(b, i + 4, 2), let d = digits(b, i + 6, 2) else {
            return nil
        }
        let date = LocalDate(year: y, month: m, day: d)
        return date.isValid ? date : nil
    }

    static func parseTime<Bytes: RandomAccessCollection<UInt8>>(_ b: Bytes, at i: Int) -> LocalTime?
    where Bytes.Index == Int {
        guard b.count >= i + 6, let h = digits(b, i, 2), let m = digits(b, i + 2, 2), let s = digits(b, i + 4, 2) else {
            return nil
        }
        let time = LocalTime(hour: h, minute: m, second: s)
        return time.isValid ? time : nil
    }
}

/// Parses `count` ASCII digits at `start` (of bytes indexed from 0), or nil if any is not a digit.
func digits<Bytes: RandomAccessCollection<UInt8>>(_ b: Bytes, _ start: Int, _ count: Int) -> Int?
where Bytes.Index == Int {
    guard start >= 0, start + count <= b.count else { return nil }
    var value = 0
    for k in start..<(start + count) {
        let c = b[k]
        guard c >= 48 && c <= 57 else { return nil }
        value = value * 10 + Int(c - 48)
    }
    return value
}
