import CalendarSync
import Foundation
import Testing
@testable import calgw

/// `calgw status`'s lines keep a start whole, its UTC offset included.
@Suite struct StatusLineTests {
    func item(start: String) throws -> PendingItem {
        let json = #"{"action": "create", "uid": "u1", "summary": "Dentist", "start": "\#(start)"}"#
        return try JSONDecoder().decode(PendingItem.self, from: Data(json.utf8))
    }

    @Test func aStartWithAnOffsetIsNotCut() throws {
        let line = StatusLine.item(try item(start: "2026-11-27T13:00:00+01:00"))
        #expect(line.contains("2026-11-27 13:00+01:00 \"Dentist\""), "\(line)")
    }

    @Test func shorterStartsKeepTheirColumn() throws {
        let utc = StatusLine.item(try item(start: "2026-11-27T13:00:00+00:00"))
        let day = StatusLine.item(try item(start: "2026-11-27"))
        #expect(utc.contains("2026-11-27 13:00Z \"Dentist\""), "\(utc)")
        #expect(
            utc.range(of: "\"Dentist\"")?.lowerBound.utf16Offset(in: utc)
                == day.range(of: "\"Dentist\"")?.lowerBound.utf16Offset(in: day))
    }

    /// A task without a start shows its due time, called due (`status --json` gives `due`).
    @Test func aTasksDueTimeIsCalledDue() throws {
        let json =
            #"{"action": "create", "uid": "t1", "summary": "Submit tax form", "due": "2026-03-10T17:00:00+00:00"}"#
        let line = StatusLine.item(try JSONDecoder().decode(PendingItem.self, from: Data(json.utf8)))
        #expect(line.contains("due 2026-03-10 17:00Z \"Submit tax form\""), "\(line)")
    }
}
