import Foundation
import Testing
import CalgwTestSupport
import ICalendar
@testable import CalendarSync

/// The hand-edit check a scan makes from the parse it has anyway gives the answer of the full
/// lint, on the outside corpus and on the mistakes that block an upload.
@Suite struct HandEditCheckTests {
    static let mistakes: [String: String] = [
        "end-before-start": TestEvent.ics(uid: "a", summary: "x", start: "20260310T100000Z", end: "20260310T090000Z"),
        "bad-rrule": TestEvent.ics(uid: "b", summary: "x", extra: ["RRULE:FREQ=SOMETIMES"]),
        "bad-exrule": TestEvent.ics(uid: "c", summary: "x", extra: ["EXRULE:FREQ=DAILY;COUNT=x"]),
        "bad-attendee": TestEvent.ics(uid: "h", summary: "x", extra: ["ATTENDEE;CN=Bob:bob at example"]),
        "unbalanced": "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:d\r\nEND:VCALENDAR\r\n",
        "no-colon":
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:e\r\nSUMMARY x\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
        "not-ical": "hello\r\n",
        // `expand` and `list` read past a misspelled END; a sync holds the file back.
        "misspelled-end":
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:g\r\nDTSTAMP:20260101T000000Z\r\nEND:VTOOD\r\n"
            + "END:VCALENDAR\r\n",
        "fine": TestEvent.ics(uid: "f", summary: "x", extra: ["RRULE:FREQ=WEEKLY;COUNT=3"]),
    ]

    @Test func theCheckFromAParseAgreesWithTheFullLint() throws {
        var inputs = Self.mistakes.mapValues { Data($0.utf8) }
        for url in CorpusFiles.icsFiles() { inputs[CorpusFiles.name(of: url)] = try Data(contentsOf: url) }
        #expect(inputs.count > 50, "the corpus was not found")
        var blocked = 0
        for (name, data) in inputs {
            let parses = ItemContent(data).parses
            let full = HandEditCheck.blockingProblem(in: data, path: name, parses: parses)
            var fromParse: String?
            _ = ItemContent(data) { parsed in
                fromParse = HandEditCheck.blockingProblem(in: data, parsed: parsed, path: name)
            }
            #expect(fromParse == full, "\(name)")
            if full != nil { blocked += 1 }
        }
        // The mistakes above block; a recurring event that is fine does not.
        for name in Self.mistakes.keys where name != "fine" {
            var found: String?
            let data = inputs[name]!
            _ = ItemContent(data) { parsed in
                found = HandEditCheck.blockingProblem(in: data, parsed: parsed, path: name)
            }
            #expect(found?.hasPrefix("\(name):") == true, "\(name) is not blocked")
        }
        #expect(blocked >= Self.mistakes.count - 1)
    }

    @Test func aMisspelledEndIsHeldBackAtItsLine() {
        let data = Data(Self.mistakes["misspelled-end"]!.utf8)
        var found: String?
        let content = ItemContent(data) { parsed in
            found = HandEditCheck.blockingProblem(in: data, parsed: parsed, path: "todo.ics")
        }
        #expect(!content.parses)
        #expect(found?.hasPrefix("todo.ics:6: END:VTOOD closes BEGIN:VTODO of line 3") == true, "\(found ?? "nil")")
    }
}
