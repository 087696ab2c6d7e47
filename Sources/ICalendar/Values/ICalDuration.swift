/// A DURATION value (RFC 5545 §3.3.6).
///
/// Weeks and days are *nominal*: added on the wall clock, so `P1D` across a DST change is
/// still "same time tomorrow". Hours, minutes and seconds are *exact* elapsed time.
public struct ICalDuration: Hashable, Sendable, CustomStringConvertible {
    /// True for a duration backwards in time (a leading `-`).
    public var isNegative: Bool
    /// Weeks, nominal (7 days each).
    public var weeks: Int
    /// Days, nominal: the same wall-clock time so many days on.
    public var days: Int
    /// Hours, exact.
    public var hours: Int
    /// Minutes, exact.
    public var minutes: Int
    /// Seconds, exact.
    public var seconds: Int

    /// A duration with these parts; zero unless given.
    public init(
        isNegative: Bool = false, weeks: Int = 0, days: Int = 0, hours: Int = 0, minutes: Int = 0, seconds: Int = 0
    ) {
        self.isNegative = isNegative
        self.weeks = weeks
        self.days = days
        self.hours = hours
        self.minutes = minutes
        self.seconds = seconds
    }

    /// A duration of exactly `seconds` seconds, expressed in days, hours, minutes and seconds
    /// when it divides evenly into whole days (so `86400` becomes `P1D`, a nominal day).
    public init(totalSeconds: Int64, preferNominalDays: Bool = false) {
        var s = abs(totalSeconds)
        var d: Int64 = 0
        if preferNominalDays && s % 86_400 == 0 { d = s / 86_400; s = 0 }
        self.init(
            isNegative: totalSeconds < 0, days: Int(d), hours: Int(s / 3600), minutes: Int(s / 60 % 60),
            seconds: Int(s % 60))
    }

    /// The nominal part in days (weeks × 7 + days), signed.
    public var nominalDays: Int { (isNegative ? -1 : 1) * (weeks * 7 + days) }

    /// The exact part in seconds, signed.
    public var exactSeconds: Int64 {
        (isNegative ? -1 : 1) * (Int64(hours) * 3600 + Int64(minutes) * 60 + Int64(seconds))
    }

    /// The whole duration in seconds, counting a nominal day as 86,400 s.
    public var approximateSeconds: Int64 { Int64(nominalDays) * 86_400 + exactSeconds }

    /// Parses `[+-]P[nW][nD][T[nH][nM][nS]]`. Lower-case letters are accepted.
    public init?(parsing text: some StringProtocol) {
        // Read as bytes: a duration is ASCII (a first pull reads one per event, and upper-casing
        // and reading it by Character showed in its profile).
        var bytes = text.utf8.makeIterator()
        var result = ICalDuration()
        var first = bytes.next()
        if first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            result.isNegative = first == UInt8(ascii: "-")
            first = bytes.next()
        }
        guard first == UInt8(ascii: "P") || first == UInt8(ascii: "p") else { return nil }
        var inTime = false
        var number: Int? = nil
        var sawUnit = false
        var sawTimeUnit = false
        while let byte = bytes.next() {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                let (v, overflow) = (number ?? 0).multipliedReportingOverflow(by: 10)
                guard !overflow, v <= Int(Int32.max) else { return nil }
                number = v + Int(byte - UInt8(ascii: "0"))
                continue
            }
            let unit = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 0x20 : byte
            if unit == UInt8(ascii: "T") { guard !inTime, number == nil else { return nil }; inTime = true; continue }
            guard let n = number else { return nil }
            switch (unit, inTime) {
            case (UInt8(ascii: "W"), false): result.weeks = n
            case (UInt8(ascii: "D"), false): result.days = n
            case (UInt8(ascii: "H"), true): result.hours = n
            case (UInt8(ascii: "M"), true): result.minutes = n
            case (UInt8(ascii: "S"), true): result.seconds = n
            default: return nil
            }
            number = nil
            sawUnit = true
            sawTimeUnit = sawTimeUnit || inTime
        }
        guard number == nil, sawUnit, !inTime || sawTimeUnit else { return nil }
        self = result
    }

    /// The RFC 5545 form, `P1W` or `P2DT3H`; weeks with other parts are written as days, zero as
    /// `PT0S`.
    public var description: String {
        var s = isNegative ? "-P" : "P"
        if weeks > 0 && days == 0 && hours == 0 && minutes == 0 && seconds == 0 { return s + "\(weeks)W" }
        let totalDays = weeks * 7 + days
        if totalDays > 0 { s += "\(totalDays)D" }
        if hours > 0 || minutes > 0 || seconds > 0 {
            s += "T"
            if hours > 0 { s += "\(hours)H" }
            if minutes > 0 { s += "\(minutes)M" }
            if seconds > 0 { s += "\(seconds)S" }
        }
        if s.hasSuffix("P") { s += "T0S" }
        return s
    }
}
