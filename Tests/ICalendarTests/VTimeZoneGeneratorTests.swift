import CalgwTestSupport
import Foundation
import Testing
@testable import ICalendar

@Suite struct VTimeZoneGeneratorTests {
    /// A day in 2026, so the rules read are those of 2026 and 2027.
    static let now = Date(
        timeIntervalSince1970: TimeInterval(LocalDateTime(year: 2026, month: 6, day: 1).secondsSinceEpoch))

    func vtimezone(_ zone: String) throws -> Component {
        try #require(VTimeZoneGenerator.vtimezone(for: zone, at: Self.now))
    }

    func observance(_ vtimezone: Component, _ name: String) throws -> Component {
        let found = vtimezone.components(named: name)
        try #require(found.count == 1, "\(name) in \(ICalendarSerializer().string(vtimezone))")
        return found[0]
    }

    @Test func berlinHasAStandardAndADaylightObservanceOnTheLastSundays() throws {
        let berlin = try vtimezone("Europe/Berlin")
        #expect(berlin["TZID"]?.value == "Europe/Berlin")
        #expect(berlin.components.map(\.name) == ["STANDARD", "DAYLIGHT"])
        let standard = try observance(berlin, "STANDARD"), daylight = try observance(berlin, "DAYLIGHT")
        #expect(standard["RRULE"]?.value == "FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU")
        #expect(standard["DTSTART"]?.value == "19701025T030000")
        #expect(standard["TZOFFSETFROM"]?.value == "+0200" && standard["TZOFFSETTO"]?.value == "+0100")
        #expect(daylight["RRULE"]?.value == "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU")
        #expect(daylight["DTSTART"]?.value == "19700329T020000")
        #expect(daylight["TZOFFSETFROM"]?.value == "+0100" && daylight["TZOFFSETTO"]?.value == "+0200")
        #expect(standard["TZNAME"] != nil && daylight["TZNAME"] != nil)
    }

    @Test func tokyoHasOneStandardObservance() throws {
        let tokyo = try vtimezone("Asia/Tokyo")
        #expect(tokyo.components.map(\.name) == ["STANDARD"])
        let standard = try observance(tokyo, "STANDARD")
        #expect(standard["DTSTART"]?.value == "19700101T000000")
        #expect(standard["TZOFFSETFROM"]?.value == "+0900" && standard["TZOFFSETTO"]?.value == "+0900")
        #expect(standard["RRULE"] == nil)
    }

    @Test func newYorkChangesOnTheSecondSundayOfMarchAndTheFirstOfNovember() throws {
        let newYork = try vtimezone("America/New_York")
        let standard = try observance(newYork, "STANDARD"), daylight = try observance(newYork, "DAYLIGHT")
        #expect(daylight["RRULE"]?.value == "FREQ=YEARLY;BYMONTH=3;BYDAY=2SU")
        #expect(daylight["DTSTART"]?.value == "19700308T020000")
        #expect(daylight["TZOFFSETFROM"]?.value == "-0500" && daylight["TZOFFSETTO"]?.value == "-0400")
        #expect(standard["RRULE"]?.value == "FREQ=YEARLY;BYMONTH=11;BYDAY=1SU")
        #expect(standard["DTSTART"]?.value == "19701101T020000")
        #expect(standard["TZOFFSETFROM"]?.value == "-0400" && standard["TZOFFSETTO"]?.value == "-0500")
    }

    /// Chile changes on the first Sunday on or after the 2nd (tz: `Sun>=2`), which no n-th
    /// Sunday gives every year.
    @Test func santiagoChangesOnASundayOnOrAfterTheSecond() throws {
        let santiago = try vtimezone("America/Santiago")
        let standard = try observance(santiago, "STANDARD"), daylight = try observance(santiago, "DAYLIGHT")
        #expect(standard["RRULE"]?.value == "FREQ=YEARLY;BYMONTH=4;BYDAY=SU;BYMONTHDAY=2,3,4,5,6,7,8")
        #expect(daylight["RRULE"]?.value == "FREQ=YEARLY;BYMONTH=9;BYDAY=SU;BYMONTHDAY=2,3,4,5,6,7,8")
        #expect(daylight["TZOFFSETFROM"]?.value == "-0400" && daylight["TZOFFSETTO"]?.value == "-0300")
    }

    @Test func anUnknownZoneHasNoDefinition() {
        #expect(VTimeZoneGenerator.vtimezone(for: "Mars/Olympus", at: Self.now) == nil)
        #expect(VTimeZoneGenerator.vtimezone(for: "", at: Self.now) == nil)
    }

    /// Read back as calgw reads a VTIMEZONE, the definition gives the system's offset at every
    /// hour of the years its rules have held; for a zone whose changes follow no yearly rule
    /// (Morocco's follow Ramadan) the changes are listed, from 1970 on.
    @Test(arguments: [
        ("Europe/Berlin", 1997), ("America/New_York", 2008), ("Australia/Sydney", 2009),
        ("Asia/Tokyo", 1970), ("Asia/Kolkata", 1970), ("America/Sao_Paulo", 2020), ("Africa/Casablanca", 2019),
        ("America/Santiago", 2023), ("Europe/Dublin", 1997), ("Pacific/Auckland", 2008),
    ])
    func definitionAgreesWithTheSystemDatabase(_ zone: String, since year: Int) throws {
        let rules = try #require(VTimeZoneRules(try vtimezone(zone)))
        let system = try #require(SystemZone(identifier: zone))
        var utc = LocalDateTime(year: max(year, 2000), month: 1, day: 1).secondsSinceEpoch
        let end = LocalDateTime(year: 2036, month: 1, day: 1).secondsSinceEpoch
        var disagreements: [String] = []
        while utc < end {
            if rules.offset(atUTC: utc) != system.offset(atUTC: utc) {
                disagreements.append("\(LocalDateTime(secondsSinceEpoch: utc))Z")
            }
            utc += 3600
        }
        #expect(disagreements.isEmpty, "\(zone): \(disagreements.count) hours differ, first \(disagreements.prefix(3))")
    }

    /// python `icalendar` (dateutil rules built from the VTIMEZONE) reads a summer and a winter
    /// time in the generated definition as the instants zoneinfo gives for the zone.
    @Test func anOutsideReaderGetsTheSameInstants() async throws {
        struct Case: Encodable { var ics: String; var zone: String }
        let zones = [
            "Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Tokyo", "America/Santiago",
            "Africa/Casablanca",
        ]
        let times = ["summer": "20260715T120000", "winter": "20260115T120000", "past": "20100705T093000"]
        var cases: [Case] = []
        for zone in zones {
            // A TZID python does not know, so that it reads the VTIMEZONE.
            var definition = try vtimezone(zone)
            let tzid = "calgw oracle " + zone.replacingOccurrences(of: "/", with: " ")
            definition.set(Property(name: "TZID", value: tzid))
            let events = times.sorted { $0.key < $1.key }.map { uid, time in
                Component(
                    name: "VEVENT",
                    properties: [
                        Property(name: "UID", value: uid), Property(name: "DTSTAMP", value: "20260101T000000Z"),
                        Property(name: "DTSTART", parameters: [Parameter("TZID", tzid)], value: time),
                    ])
            }
            let calendar = Component(
                name: "VCALENDAR",
                properties: [Property(name: "VERSION", value: "2.0"), Property(name: "PRODID", value: "-//t//EN")],
                components: [definition] + events)
            cases.append(Case(ics: ICalendarSerializer().string(calendar), zone: zone))
        }
        let script = TestPaths.packageRoot.appendingPathComponent("Scripts/oracles/vtimezone_instants.py")
        let answers = try await ProcessRunner.python(script, input: cases, as: [[[String]]].self)
        #expect(answers.count == zones.count)
        for (zone, rows) in zip(zones, answers) {
            let system = try #require(SystemZone(identifier: zone))
            #expect(rows.count == times.count)
            for row in rows {
                let local = try #require(DateTimeValue(parsing: times[row[0]]!)).local
                let expected = LocalDateTime(secondsSinceEpoch: system.utc(forLocal: local)).description + "Z"
                #expect(
                    row[1] == expected,
                    "\(zone) \(row[0]): VTIMEZONE read by python gives \(row[1]), the system \(expected)")
                #expect(row[2] == expected, "\(zone) \(row[0]): zoneinfo gives \(row[2]), the system \(expected)")
            }
        }
    }
}

@Suite struct TimeZoneCompletionTests {
    static let now = VTimeZoneGeneratorTests.now

    func calendar(_ body: String) throws -> Component {
        try #require(
            try ICalendarParser().parse(
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n" + body + "END:VCALENDAR\r\n"
            ).calendar)
    }

    @Test func addsAVTimeZoneBeforeTheEventForAnIANAName() throws {
        var c = try calendar(
            "BEGIN:VEVENT\r\nUID:1\r\nDTSTART;TZID=Europe/Berlin:20260701T100000\r\nDTEND;TZID=Europe/Berlin:20260701T110000\r\nEND:VEVENT\r\n"
        )
        #expect(TimeZoneCompletion.complete(&c, at: Self.now))
        #expect(c.components.map(\.name) == ["VTIMEZONE", "VEVENT"])
        #expect(c.components[0]["TZID"]?.value == "Europe/Berlin")
        #expect(c.components[1]["DTSTART"]?.tzid == "Europe/Berlin")
        #expect(!TimeZoneCompletion.complete(&c, at: Self.now))
    }

    @Test func mapsWindowsAndPrefixedNamesToIANAInEveryProperty() throws {
        var c = try calendar(
            """
            BEGIN:VEVENT\r
            UID:1\r
            DTSTART;TZID=W. Europe Standard Time:20260701T100000\r
            DTEND;TZID="/mozilla.org/20050126_1/America/New_York":20260701T110000\r
            RRULE:FREQ=DAILY;COUNT=3\r
            EXDATE;TZID=W. Europe Standard Time:20260702T100000\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:1\r
            RECURRENCE-ID;TZID=W. Europe Standard Time:20260703T100000\r
            DTSTART;TZID=Tokyo Standard Time:20260703T120000\r
            END:VEVENT\r

            """)
        TimeZoneCompletion.complete(&c, at: Self.now)
        #expect(c.components.map(\.name) == ["VTIMEZONE", "VTIMEZONE", "VTIMEZONE", "VEVENT", "VEVENT"])
        #expect(
            c.components.prefix(3).compactMap { $0["TZID"]?.value } == [
                "Europe/Berlin", "America/New_York", "Asia/Tokyo",
            ])
        #expect(
            c.components[3]["DTSTART"]?.tzid == "Europe/Berlin" && c.components[3]["EXDATE"]?.tzid == "Europe/Berlin")
        #expect(c.components[3]["DTEND"]?.tzid == "America/New_York")
        #expect(
            c.components[4]["RECURRENCE-ID"]?.tzid == "Europe/Berlin"
                && c.components[4]["DTSTART"]?.tzid == "Asia/Tokyo")
        #expect(c.components[3]["DTSTART"]?.value == "20260701T100000")
    }

    @Test func leavesDefinedAndUnknownZonesAlone() throws {
        let text = """
            BEGIN:VTIMEZONE\r
            TZID:W. Europe Standard Time\r
            BEGIN:STANDARD\r
            DTSTART:16010101T000000\r
            TZOFFSETFROM:+0100\r
            TZOFFSETTO:+0100\r
            END:STANDARD\r
            END:VTIMEZONE\r
            BEGIN:VEVENT\r
            UID:1\r
            DTSTART;TZID=W. Europe Standard Time:20260701T100000\r
            DTEND;TZID=My Own Zone:20260701T110000\r
            END:VEVENT\r

            """
        var c = try calendar(text)
        let before = c
        #expect(!TimeZoneCompletion.complete(&c, at: Self.now))
        #expect(c == before)
    }
}
