import ICalendar
import Recurrence
import Testing
@testable import CalendarSync

/// The blocks a projection makes of calendar objects: the times and nothing else, the events
/// that block, series kept series, blocks never projected again, the hours and the horizon.
@Suite struct BusyBlocksTests {
    static let me: Set<String> = ["bob@example.net"]
    /// 2027-03-01T00:00:00Z: the events below are within the default horizon of it.
    static let now: Int64 = 1_803_859_200

    static func projection(skip: [String] = [], hours: String? = nil) throws -> BusyBlocks {
        BusyBlocks(
            settings: try BusySettings(name: "work-to-home", from: ["work"], to: "home", skip: skip, hours: hours),
            own: me, zone: FixedOffsetZone.utc, now: now)
    }

    static func calendar(_ events: [[String]]) throws -> Component {
        let lines =
            ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"]
            + events.flatMap { ["BEGIN:VEVENT"] + $0 + ["END:VEVENT"] } + ["END:VCALENDAR", ""]
        return try #require(try ICalendarParser().parse(lines.joined(separator: "\r\n")).calendar)
    }

    static func event(
        uid: String = "m1", start: String = "20270310T090000Z", end: String = "20270310T100000Z", _ extra: [String] = []
    ) -> [String] {
        ["UID:\(uid)", "DTSTAMP:20270101T000000Z", "DTSTART:\(start)", "DTEND:\(end)", "SUMMARY:Salary review"] + extra
    }

    @Test func aBlockHasTheTimesAndNothingElse() throws {
        let source = try Self.calendar([
            Self.event([
                "ORGANIZER:mailto:alice@example.org", "ATTENDEE;PARTSTAT=ACCEPTED:mailto:bob@example.net",
                "DESCRIPTION:Secret", "LOCATION:Room 4", "URL:https://meet.example/x",
                "CONFERENCE;VALUE=URI:https://c/x",
                "ATTACH:https://files/x", "CATEGORIES:HR", "CLASS:PUBLIC",
            ])
        ])
        let blocks = try Self.projection().blocks(of: source)
        #expect(blocks.count == 1)
        let (uid, block) = try #require(blocks.first)
        #expect(uid == BusyBlocks.uid(projection: "work-to-home", source: "m1") && uid.hasPrefix("calgw-busy-"))
        #expect(uid == BusyBlocks.uid(projection: "work-to-home", source: "m1"), "stable")
        let event = try #require(block.components.first { $0.name == "VEVENT" })
        #expect(
            Set(event.properties.map(\.name))
                == ["UID", "DTSTAMP", "DTSTART", "DTEND", "SUMMARY", "CLASS", "TRANSP", "X-CALGW-BUSY"])
        #expect(event["SUMMARY"]?.text == "Busy" && event["CLASS"]?.value == "PRIVATE")
        #expect(event["TRANSP"]?.value == "OPAQUE" && event["X-CALGW-BUSY"]?.text == "work-to-home")
        #expect(event["DTSTART"]?.value == "20270310T090000Z" && event.components.isEmpty)
        #expect(try Self.projection().blocks(of: block).isEmpty, "a block is never projected again")
    }

    @Test func declinedFreeAndCancelledEventsBlockNothing() throws {
        let mine = "ATTENDEE;PARTSTAT=%@:mailto:bob@example.net"
        func blocks(_ extra: [String], skip: [String] = []) throws -> Int {
            try Self.projection(skip: skip).blocks(of: try Self.calendar([Self.event(extra)])).count
        }
        #expect(try blocks([mine.replacingOccurrences(of: "%@", with: "DECLINED")]) == 0)
        #expect(try blocks(["TRANSP:TRANSPARENT"]) == 0)
        #expect(try blocks(["STATUS:CANCELLED"]) == 0)
        #expect(try blocks([mine.replacingOccurrences(of: "%@", with: "TENTATIVE")]) == 1)
        #expect(try blocks([mine.replacingOccurrences(of: "%@", with: "TENTATIVE")], skip: ["tentative"]) == 0)
        #expect(try blocks([mine.replacingOccurrences(of: "%@", with: "NEEDS-ACTION")], skip: ["needs-action"]) == 0)
        let allDay = try Self.calendar([
            ["UID:d", "DTSTAMP:20270101T000000Z", "DTSTART;VALUE=DATE:20270310", "SUMMARY:Off"]
        ])
        #expect(try Self.projection(skip: ["all-day"]).blocks(of: allDay).isEmpty)
        #expect(try Self.projection().blocks(of: allDay).count == 1)
    }

    @Test func aSeriesStaysASeries() throws {
        let source = try Self.calendar([
            Self.event(["RRULE:FREQ=WEEKLY;COUNT=10", "EXDATE:20270317T090000Z"]),
            Self.event(start: "20270324T140000Z", end: "20270324T150000Z", ["RECURRENCE-ID:20270324T090000Z"]),
            Self.event(["RECURRENCE-ID:20270331T090000Z", "ATTENDEE;PARTSTAT=DECLINED:mailto:bob@example.net"]),
        ])
        let block = try #require(try Self.projection().blocks(of: source).first?.value)
        let events = block.components.filter { $0.name == "VEVENT" }
        #expect(events.count == 2, "the series and its moved occurrence")
        #expect(events[0]["RRULE"]?.value == "FREQ=WEEKLY;COUNT=10")
        #expect(Set(events[0].properties(named: "EXDATE").map(\.value)) == ["20270317T090000Z", "20270331T090000Z"])
        #expect(
            events[1]["RECURRENCE-ID"]?.value == "20270324T090000Z" && events[1]["DTSTART"]?.value == "20270324T140000Z"
        )
        let starts = CalendarExpansion(calendar: block).occurrences(from: Self.now, to: Self.now + 120 * 86_400)
        #expect(starts.count == 8, "ten weeks less the one left out and the one declined")
    }

    @Test func hoursKeepThePartWithinThemAndMoveTheSeriesKeys() throws {
        let source = try Self.calendar([
            Self.event(
                start: "20270310T080000Z", end: "20270310T100000Z",
                ["RRULE:FREQ=WEEKLY;COUNT=3", "EXDATE:20270317T080000Z"]),
            Self.event(uid: "late", start: "20270310T180000Z", end: "20270310T190000Z"),
        ])
        let blocks = try Self.projection(hours: "09:00-17:00").blocks(of: source)
        #expect(blocks.count == 1, "the evening event is outside the hours")
        let series = try #require(blocks.values.first?.components.first { $0.name == "VEVENT" })
        #expect(series["DTSTART"]?.value == "20270310T090000Z" && series["DTEND"]?.value == "20270310T100000Z")
        #expect(series["EXDATE"]?.value == "20270317T090000Z", "the left-out occurrence is still left out")
    }

    @Test func theHorizonBoundsWhatIsProjected() throws {
        let far = try Self.calendar([Self.event(start: "20290310T090000Z", end: "20290310T100000Z")])
        #expect(try Self.projection().blocks(of: far).isEmpty)
        let endless = try Self.calendar([
            Self.event(start: "20200106T090000Z", end: "20200106T100000Z", ["RRULE:FREQ=WEEKLY"])
        ])
        #expect(try Self.projection().blocks(of: endless).count == 1, "an endless series from long ago still blocks")
    }

    @Test func settingsAreChecked() {
        #expect(throws: BusySettingsError.self) { try BusySettings(name: "x", from: [], to: "home") }
        #expect(throws: BusySettingsError.self) { try BusySettings(name: "x", from: ["home"], to: "home") }
        #expect(throws: BusySettingsError.self) { try BusySettings(name: "x", from: ["a"], to: "b", skip: ["maybe"]) }
        #expect(throws: BusySettingsError.self) {
            try BusySettings(name: "x", from: ["a"], to: "b", hours: "17:00-09:00")
        }
        #expect(throws: BusySettingsError.self) { try BusySettings(name: "x", from: ["a"], to: "b", horizon: "soon") }
        #expect(
            (try? BusySettings(name: "x", from: ["a"], to: "b", horizon: "-2d..+30d"))?.horizon.ahead == 30 * 86_400)
    }
}
