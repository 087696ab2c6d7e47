import Foundation
import ICalendar

/// A date or date-time given on the command line (CLI.md "Dates"):
/// `2026-03-29` (a whole day, or local midnight), `2026-03-29T10:00[:SS]` (local time in
/// `--tz` or the system zone), or RFC 3339 with an offset or `Z` (`2026-03-29T10:00:00+02:00`).
/// Used by `expand`, `list` and `event add/edit` (`--start`, `--end`, `--occurrence`).
public struct DateArgument: Hashable, Sendable, CustomStringConvertible {
    public enum Value: Hashable, Sendable {
        /// A calendar date.
        case date(LocalDate)
        /// A wall-clock time without zone, read in the command's zone.
        case local(LocalDateTime)
        /// An exact instant: the wall-clock time and the offset it was given with.
        case instant(LocalDateTime, offsetSeconds: Int)
    }

    /// What was given.
    public let value: Value
    /// The text as given.
    public let text: String

    /// Parses the text, or returns nil when it is none of the accepted forms.
    public init?(_ text: String) {
        self.text = text
        // Blanks at either end left out: tabs and Unicode's space separators, Foundation's
        // `.whitespaces` without its `CharacterSet` (half a million instructions a date).
        let scalars = text.unicodeScalars
        func isBlank(_ s: Unicode.Scalar) -> Bool { s == "\t" || s.properties.generalCategory == .spaceSeparator }
        let first = scalars.firstIndex { !isBlank($0) } ?? scalars.endIndex
        let end = scalars.lastIndex { !isBlank($0) }.map { scalars.index(after: $0) } ?? first
        let b = Array(text.utf8[first..<end])
        func num(_ i: Int, _ n: Int) -> Int? {
            guard i + n <= b.count else { return nil }
            var v = 0
            for k in i..<(i + n) { guard b[k] >= 48 && b[k] <= 57 else { return nil }; v = v * 10 + Int(b[k] - 48) }
            return v
        }
        guard b.count >= 10, let y = num(0, 4), b[4] == UInt8(ascii: "-"), let m = num(5, 2), b[7] == UInt8(ascii: "-"),
            let d = num(8, 2)
        else { return nil }
        let date = LocalDate(year: y, month: m, day: d)
        guard date.isValid else { return nil }
        if b.count == 10 { value = .date(date); return }
        guard b.count >= 16, b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t") || b[10] == UInt8(ascii: " "),
            let h = num(11, 2), b[13] == UInt8(ascii: ":"), let mi = num(14, 2)
        else { return nil }
        var i = 16
        var sec = 0
        if i < b.count && b[i] == UInt8(ascii: ":") {
            guard let sv = num(i + 1, 2) else { return nil }
            sec = sv
            i += 3
            if i < b.count && b[i] == UInt8(ascii: ".") {  // fractional seconds are dropped
                i += 1
                while i < b.count && b[i] >= 48 && b[i] <= 57 { i += 1 }
            }
        }
        let local = LocalDateTime(date: date, time: LocalTime(hour: h, minute: mi, second: sec))
        guard local.time.isValid, sec < 60 else { return nil }
        if i == b.count { value = .local(local); return }
        if b.count == i + 1 && (b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z")) {
            value = .instant(local, offsetSeconds: 0); return
        }
        guard b.count == i + 6, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-"), let oh = num(i + 1, 2),
            b[i + 3] == UInt8(ascii: ":"), let om = num(i + 4, 2), oh < 24, om < 60
        else { return nil }
        let offset = (oh * 3600 + om * 60) * (b[i] == UInt8(ascii: "-") ? -1 : 1)
        value = .instant(local, offsetSeconds: offset)
    }

    /// Whether only a date was given.
    public var isDate: Bool { if case .date = value { return true }; return false }

    /// The instant meant, reading dates (at midnight) and local times in `zone`.
    public func instant(in zone: any ZoneRules) -> Int64 {
        switch value {
        case .date(let d): return zone.utc(forLocal: LocalDateTime(date: d))
        case .local(let l): return zone.utc(forLocal: l)
        case .instant(let l, let offset): return l.secondsSinceEpoch - Int64(offset)
        }
    }

    /// The value as a DATE / DATE-TIME in the form of `form` (a RECURRENCE-ID given "the same
    /// way as the occurrence's original start"): dates stay dates, instants become UTC, local
    /// times take the zone `tzid` (or float when nil).
    public func dateTimeValue(tzid: String?) -> DateTimeValue {
        switch value {
        case .date(let d): return DateTimeValue(date: d)
        case .local(let l): return DateTimeValue(l, form: tzid.map { .zoned(tzid: $0) } ?? .floating)
        case .instant(let l, let offset): return DateTimeValue(l.adding(seconds: -Int64(offset)), form: .utc)
        }
    }

    /// The text as given.
    public var description: String { text }

    /// The zone named by `--tz`, or the system's zone.
    /// - Throws: `EventCommandError` (usage) when the name is not a known zone.
    public static func zone(named name: String?) throws -> any ZoneRules {
        if let name {
            if let iana = TimeZoneResolver.ianaIdentifier(for: name), let z = SystemZone(identifier: iana) { return z }
            if name.uppercased() == "UTC" || name == "Z" { return FixedOffsetZone.utc }
            throw EventCommandError(
                "unknown time zone '\(name)'", recovery: "give an IANA name such as Europe/Berlin or America/New_York",
                kind: .usage)
        }
        return SystemZone(identifier: TimeZone.current.identifier) ?? FixedOffsetZone.utc
    }

    /// Parses an option's value, or throws a usage error naming the option.
    public static func parse(_ text: String, option: String) throws -> DateArgument {
        guard let d = DateArgument(text) else {
            throw EventCommandError(
                "\(option): '\(text)' is not a date",
                recovery: "use 2026-03-29, 2026-03-29T10:00, or 2026-03-29T10:00:00+02:00", kind: .usage)
        }
        return d
    }
}
