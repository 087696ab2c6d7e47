import Foundation
import ICalendar
import Recurrence

/// The listing as a table for people (`list` and `expand` without `--json`), and the cells
/// other tables share (`alarms`, the reminders of `watch`).
extension OccurrenceListing {
    /// A few words for the table: what the person answered, or that an answer is awaited;
    /// for a meeting the organizer cancelled (STATUS:CANCELLED), that it is, since there is
    /// nothing left to answer.
    public static func answerMark(_ partstat: String?, cancelled: Bool = false) -> String? {
        switch partstat {
        case nil: nil
        case _ where cancelled: "[cancelled]"
        case "NEEDS-ACTION": "[to answer]"
        case "ACCEPTED": "[accepted]"
        case "DECLINED": "[declined]"
        case "TENTATIVE": "[tentative]"
        case let other?: "[\(other.lowercased())]"
        }
    }

    /// A compact table for people: date, time (in `zone`), the calendar when files have one,
    /// summary, location.
    public func table(zone: any ZoneRules) -> [String] {
        let withCalendar = sources.contains { $0.calendar != nil }
        let rows = entries.map { cells(of: $0, zone: zone, withCalendar: withCalendar) }
        let padded = withCalendar ? 4 : 3
        // Widths in UTF-16 units, as ``line(of:widths:)`` and ``padding(_:to:)`` pad, so that no
        // cell is cut short (an emoji is two of them and one character).
        var widths = Array(repeating: 0, count: padded)
        for r in rows { for i in 0..<padded { widths[i] = max(widths[i], r[i].utf16.count) } }
        return rows.map { Self.line(of: $0, widths: widths) }
    }

    /// The cells of one row: date, time, the calendar when shown, summary, location.
    func cells(of e: Entry, zone: any ZoneRules, withCalendar: Bool) -> [String] {
        let o = e.occurrence
        let date: String, time: String
        switch o.start.form {
        case .date:
            date = o.start.date.isoString
            let days = o.end.date.daysSinceEpoch - o.start.date.daysSinceEpoch
            time = days > 1 ? "all day (\(days) days)" : "all day"
        case .floating:
            date = o.start.date.isoString
            time = Self.hm(o.start.local) + "–" + Self.hm(o.end.local)
        case .utc, .zoned:
            let s = zone.local(atUTC: o.startInstant), en = zone.local(atUTC: o.endInstant)
            date = s.date.isoString
            time = Self.hm(s) + "–" + (en.date == s.date ? Self.hm(en) : en.date.isoString + " " + Self.hm(en))
        }
        let event = o.component
        var summary = event["SUMMARY"]?.text ?? "(no title)"
        if let mark = Self.answerMark(ownAnswer(event), cancelled: event["STATUS"]?.value.uppercased() == "CANCELLED") {
            summary += " " + mark
        }
        var row = [date, time, Self.oneLine(summary), Self.oneLine(event["LOCATION"]?.text ?? "")]
        if withCalendar { row.insert(sources[e.source].calendar ?? "-", at: 2) }
        return row
    }

    /// A row as a line of the table: the first cells padded to their columns' `widths` (the
    /// last of them only when a location follows it), two spaces between, white space at the
    /// end trimmed (``trimmingTrailingSpace(_:)``). Made as bytes: thousands of rows a listing.
    static func line(of cells: [String], widths: [Int]) -> String {
        let padded = widths.count
        let location = cells[padded]
        var bytes: [UInt8] = []
        bytes.reserveCapacity(widths.reduce(2 * padded, +) + location.utf8.count)
        for i in 0..<padded {
            if i > 0 { bytes += [0x20, 0x20] }
            bytes += cells[i].utf8
            if i < padded - 1 || !location.isEmpty {
                bytes += repeatElement(0x20, count: max(0, widths[i] - cells[i].utf16.count))
            }
        }
        if !location.isEmpty {
            bytes += [0x20, 0x20]
            bytes += location.utf8
        }
        return trimmingTrailingSpace(String(decoding: bytes, as: UTF8.self))
    }

    /// `text` on one line: each line break (a LOCATION or SUMMARY may hold several) becomes a
    /// space, so that an event stays one row of the table. Text without one is returned as is.
    public static func oneLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 10 || $0 == 13 }) else { return text }
        return text.replacingOccurrences(of: "\r\n", with: " ").split(whereSeparator: { $0 == "\n" || $0 == "\r" })
            .joined(separator: " ")
    }

    /// `text` as `text.padding(toLength: width, withPad: " ", startingAt: 0)` gives it
    /// (`width` counted in UTF-16 units), without Foundation for the common case: thousands of
    /// cells a listing.
    public static func padding(_ text: String, to width: Int) -> String {
        let units = text.utf16.count
        if units == width { return text }
        if units < width { return text + String(repeating: " " as Character, count: width - units) }
        return text.padding(toLength: width, withPad: " ", startingAt: 0)  // cut short, as Foundation cuts
    }

    /// `line` without the white space it ends with, as `replacingOccurrences(of: "\\s+$", with:
    /// "", options: .regularExpression)` gives it (ICU's `\s` is Unicode's White_Space, line
    /// terminators included), without making a regular expression for each of thousands of lines.
    public static func trimmingTrailingSpace(_ line: String) -> String {
        // Most lines end in ASCII: their white space is spaces and controls, read as bytes. A
        // line ending in another character is read by scalar, for Unicode's other spaces.
        let utf8 = line.utf8
        var cut = utf8.endIndex
        while cut > utf8.startIndex {
            let byte = utf8[utf8.index(before: cut)]
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                cut = utf8.index(before: cut)
            } else if byte < 0x80 {
                return cut == utf8.endIndex ? line : String(line[..<cut])
            } else {
                break
            }
        }
        let scalars = line.unicodeScalars
        var end = scalars.endIndex
        while end > scalars.startIndex {
            let before = scalars.index(before: end)
            guard scalars[before].properties.isWhitespace else { break }
            end = before
        }
        return end == scalars.endIndex ? line : String(scalars[..<end])
    }
}
