import CalgwTestSupport
import Foundation

/// What Python's email package and icalendar read from a mail (Scripts/oracles/mail.py): the
/// outside reference the mail reader is compared with.
struct MailOracle {
    struct Reading: Decodable {
        struct Calendar: Decodable {
            var method: String?
            var attachment: Bool
            var text: String
        }
        var error: String?
        var from: String?
        var to: [String]?
        var subject: String?
        var calendars: [Calendar]?
        var chosen: Int?
        var uid: String?
        var objectMethod: String?
        var dtstart: String?
        var tzid: String?
    }

    private struct Request: Encodable {
        var files: [String] = []
        var messages: [String] = []
    }

    static let script = TestPaths.packageRoot.appendingPathComponent("Scripts/oracles/mail.py")

    /// Python's reading of each file, in order.
    static func read(files: [URL]) async throws -> [Reading] {
        try await ProcessRunner.python(script, input: Request(files: files.map(\.path)), as: [Reading].self)
    }

    /// Python's reading of each message, in order.
    static func read(messages: [Data]) async throws -> [Reading] {
        try await ProcessRunner.python(
            script, input: Request(messages: messages.map { $0.base64EncodedString() }), as: [Reading].self)
    }
}

/// The first value of a property in an iCalendar text, read as simply as RFC 5545 §3.1 allows:
/// lines unfolded, the first VEVENT or VTODO (or the VCALENDAR, for METHOD) searched.
/// Enough to compare a decoded part with what icalendar reads; the ICalendar module does the
/// real reading.
struct ContentLines {
    var lines: [String]

    init(_ text: String) {
        var lines: [String] = []
        for raw in text.replacingOccurrences(of: "\r\n", with: "\n").split(
            separator: "\n", omittingEmptySubsequences: false)
        {
            if let first = raw.first, first == " " || first == "\t", !lines.isEmpty {
                lines[lines.count - 1] += raw.dropFirst()
            } else {
                lines.append(String(raw))
            }
        }
        self.lines = lines
    }

    /// The value and parameters of `name` in the calendar (outside any component) or in the
    /// first VEVENT or VTODO.
    func property(_ name: String, inComponent: Bool) -> (value: String, parameters: String)? {
        var depth = 0
        var inFirst = false
        var seenFirst = false
        for line in lines {
            let upper = line.uppercased()
            if upper.hasPrefix("BEGIN:") {
                depth += 1
                if depth == 2 && !seenFirst && (upper == "BEGIN:VEVENT" || upper == "BEGIN:VTODO") {
                    inFirst = true
                    seenFirst = true
                }
                continue
            }
            if upper.hasPrefix("END:") {
                if depth == 2 { inFirst = false }
                depth -= 1
                continue
            }
            let wanted = inComponent ? (inFirst && depth == 2) : depth == 1
            guard wanted, let colon = line.firstIndex(of: ":") else { continue }
            let head = line[..<colon]
            let propertyName = head.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
            guard propertyName.uppercased() == name else { continue }
            let parameters = head.dropFirst(propertyName.count)
            return (String(line[line.index(after: colon)...]), String(parameters))
        }
        return nil
    }
}
