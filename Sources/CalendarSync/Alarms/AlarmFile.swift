import Foundation
import ICalendar
import Recurrence

/// One .ics file read for its alarms, as `list` reads it for its occurrences (a calendar's
/// declared zone applied to its floating times). A file with no VALARM anywhere is not parsed:
/// in a vdir most are such, and reading one costs a scan of its bytes.
enum AlarmFile {
    /// The file's alarms; nil when it has none.
    /// - Throws: the read's or the parser's error (a message for people: ``problem(_:path:)``).
    static func read(_ url: URL) throws -> CalendarAlarms? {
        let data = try Data(contentsOf: url)
        guard mentionsAlarm(data) else { return nil }
        let parsed = try ICalendarParser().parse(data)
        let alarms = CalendarAlarms(components: parsed.components.map(DeclaredCalendarZone.applied(to:)))
        return alarms.hasAlarms ? alarms : nil
    }

    /// What a failed ``read(_:)`` says to people: "no such file", "is a directory", or the
    /// parser's message with its line.
    static func problem(_ error: Error, path: String) -> String {
        error is CocoaError || (error as NSError).domain == NSCocoaErrorDomain
            ? ReadFailure.words(error, path: path) : "\(error)"
    }

    /// Whether `data` holds `VALARM` in any case (the parser takes lower-case names too).
    static func mentionsAlarm(_ data: Data) -> Bool {
        let word = Array("valarm".utf8)
        return data.withUnsafeBytes { raw -> Bool in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard bytes.count >= word.count else { return false }
            for i in 0...(bytes.count - word.count) where bytes[i] | 0x20 == word[0] {
                var j = 1
                while j < word.count && bytes[i + j] | 0x20 == word[j] { j += 1 }
                if j == word.count { return true }
            }
            return false
        }
    }
}
