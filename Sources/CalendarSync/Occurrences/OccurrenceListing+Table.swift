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
        var rows: [[String]] = []
        for e in entries {
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
            let summary = [
                event["SUMMARY"]?.text ?? "(no title)",
                Self.answerMark(ownAnswer(event), cancelled: event["STATUS"]?.value.uppercased() == "CANCELLED"),
            ].compactMap { $0 }.joined(separator: " ")
            var row = [date, time, Self.oneLine(summary), Self.oneLine(event["LOCATION"]?.text ?? "")]
            if withCalendar { row.insert(sources[e.source].calendar ?? "-", at: 2) }
            rows.append(row)
        }
        let padded = withCalendar ? 4 : 3
        // Widths in the units ``padding(_:to:)`` counts, so that no cell is cut short (an emoji
        // is two of them and one character).
        var widths = Array(repeating: 0, count: padded)
        for r in rows { for i in 0..<padded { widths[i] = max(widths[i], r[i].utf16.count) } }
        return rows.map { r in
            Self.trimmingTrailingSpace(
                (0..<padded).map { Self.padding(r[$0], to: widths[$0]) }.joined(separator: "  ")
                    + (r[padded].isEmpty ? "" : "  " + r[padded]))
        }
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
        if units < width { return text + String(repeating: " ", count: width - units) }
        return text.padding(toLength: width, withPad: " ", startingAt: 0)  // cut short, as Foundation cuts
    }

    /// `line` without the white space it ends with, as `replacingOccurrences(of: "\\s+$", with:
    /// "", options: .regularExpression)` gives it (ICU's `\s` is Unicode's White_Space, line
    /// terminators included), without making a regular expression for each of thousands of lines.
    public static func trimmingTrailingSpace(_ line: String) -> String {
        // Most lines end in a letter or digit: an ASCII byte that is no white space.
        if let last = line.utf8.last, last < 0x80, last != 0x20, !(0x09...0x0D).contains(last) { return line }
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
