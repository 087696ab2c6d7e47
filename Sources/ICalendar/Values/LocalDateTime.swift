/// A calendar date in the proleptic Gregorian calendar, with no time zone.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The year, e.g. 2026.
    public var year: Int
    /// The month, 1 to 12 in a valid date.
    public var month: Int
    /// The day of the month, from 1.
    public var day: Int

    /// The date of these fields, not checked (see `isValid`).
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Whether the fields name a real date (no February 30th, no month 13).
    public var isValid: Bool {
        month >= 1 && month <= 12 && day >= 1 && day <= LocalDate.daysIn(month: month, year: year)
    }

    /// True for a Gregorian leap year: divisible by 4, except centuries not divisible by 400.
    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// The number of days in `month` of `year`.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The number of days in `year`: 365, or 366 in a leap year.
    public static func daysIn(year: Int) -> Int { isLeapYear(year) ? 366 : 365 }

    /// Days since 1970-01-01 (negative before it).
    public var daysSinceEpoch: Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date `days` days after 1970-01-01.
    public init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    /// The date `n` days later (earlier when negative).
    public func adding(days n: Int) -> LocalDate { LocalDate(daysSinceEpoch: daysSinceEpoch + n) }

    /// The weekday of this date.
    public var weekday: Weekday {
        // 1970-01-01 was a Thursday.
        let index = ((daysSinceEpoch % 7) + 7 + 3) % 7  // 0 = Monday
        return Weekday.allCases[index]
    }

    /// The 1-based day of the year.
    public var dayOfYear: Int {
        daysSinceEpoch - LocalDate(year: year, month: 1, day: 1).daysSinceEpoch + 1
    }

    /// Earlier dates first.
    public static func < (a: LocalDate, b: LocalDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// `YYYYMMDD`, the iCalendar DATE form.
    public var description: String {
        pad(year, 4) + pad(month, 2) + pad(day, 2)
    }

    /// `YYYY-MM-DD`, the ISO 8601 / RFC 3339 form.
    public var isoString: String {
        guard (0...9999).contains(year), (0...99).contains(month), (0...99).contains(day) else {
            return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        }
        // Written in place: one small string, no pieces joined (tables and JSON make thousands).
        return String(unsafeUninitializedCapacity: 10) { b in
            func put(_ value: Int, _ width: Int, at start: Int) {
                var v = value
                for k in stride(from: start + width - 1, through: start, by: -1) {
                    b[k] = 0x30 + UInt8(v % 10)
                    v /= 10
                }
            }
            put(year, 4, at: 0)
            b[4] = 0x2D
            put(month, 2, at: 5)
            b[7] = 0x2D
            put(day, 2, at: 8)
            return 10
        }
    }
}

/// A wall-clock time of day, with no time zone. `second` may be 60 for a leap second.
public struct LocalTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The hour, 0 to 23.
    public var hour: Int
    /// The minute, 0 to 59.
    public var minute: Int
    /// The second, 0 to 60 (60 for a leap second).
    public var second: Int

    /// The time of these fields, not checked (see `isValid`).
    public init(hour: Int, minute: Int, second: Int) {
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// 00:00:00, the start of a day.
    public static let midnight = LocalTime(hour: 0, minute: 0, second: 0)

    /// Whether the fields name a real time of day (a leap second allowed).
    public var isValid: Bool {
        (0...23).contains(hour) && (0...59).contains(minute) && (0...60).contains(second)
    }

    /// Seconds since midnight.
    public var secondsSinceMidnight: Int { hour * 3600 + minute * 60 + second }

    /// Earlier times of day first.
    public static func < (a: LocalTime, b: LocalTime) -> Bool {
        a.secondsSinceMidnight < b.secondsSinceMidnight
    }

    /// `HHMMSS`, the iCalendar TIME form.
    public var description: String { pad(hour, 2) + pad(minute, 2) + pad(second, 2) }
}

/// A date and a wall-clock time with no time zone attached.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The date.
    public var date: LocalDate
    /// The time of day.
    public var time: LocalTime

    /// `time` on `date`; midnight unless given.
    public init(date: LocalDate, time: LocalTime = .midnight) {
        self.date = date
        self.time = time
    }

    /// The date and time of these fields, not checked.
    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.init(
            date: LocalDate(year: year, month: month, day: day),
            time: LocalTime(hour: hour, minute: minute, second: second))
    }

    /// Seconds since 1970-01-01T00:00:00 on the same wall clock; for UTC values, Unix time.
    public var secondsSinceEpoch: Int64 {
        Int64(date.daysSinceEpoch) * 86_400 + Int64(time.secondsSinceMidnight)
    }

    /// The wall-clock time `seconds` seconds after 1970-01-01T00:00:00.
    public init(secondsSinceEpoch seconds: Int64) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = Int(seconds - days * 86_400)
        self.init(
            date: LocalDate(daysSinceEpoch: Int(days)),
            time: LocalTime(hour: rest / 3600, minute: rest / 60 % 60, second: rest % 60))
    }

    /// The wall-clock time `seconds` later.
    public func adding(seconds: Int64) -> LocalDateTime {
        LocalDateTime(secondsSinceEpoch: secondsSinceEpoch + seconds)
    }

    /// Earlier first, by date and then by time.
    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool {
        a.date != b.date ? a.date < b.date : a.time < b.time
    }

    /// `YYYYMMDDTHHMMSS`, the iCalendar form without a `Z`.
    public var description: String { date.description + "T" + time.description }

    /// `YYYY-MM-DDTHH:MM:SS`, the RFC 3339 form without an offset.
    public var isoString: String {
        date.isoString + "T" + pad(time.hour, 2) + ":" + pad(time.minute, 2) + ":" + pad(time.second, 2)
    }
}

/// A day of the week, in iCalendar's two-letter spelling.
public enum Weekday: String, CaseIterable, Hashable, Sendable {
    case monday = "MO", tuesday = "TU", wednesday = "WE", thursday = "TH"
    case friday = "FR", saturday = "SA", sunday = "SU"

    /// 0 for Monday through 6 for Sunday (ISO 8601 order).
    public var isoIndex: Int { Weekday.allCases.firstIndex(of: self)! }
}

@inline(__always)
func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(abs(value))
    let sign = value < 0 ? "-" : ""
    let count = digits.utf8.count
    return count >= width ? sign + digits : sign + String(repeating: "0" as Character, count: width - count) + digits
}
