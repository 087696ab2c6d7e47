import Foundation
import Testing
@testable import ICalendar

@Suite struct TimeZoneResolutionTests {
    @Test(arguments: [
        ("Europe/Berlin", "Europe/Berlin"),
        ("\"Europe/Berlin\"", "Europe/Berlin"),
        ("W. Europe Standard Time", "Europe/Berlin"),
        ("Eastern Standard Time", "America/New_York"),
        ("Tokyo Standard Time", "Asia/Tokyo"),
        ("/mozilla.org/20070129_1/America/New_York", "America/New_York"),
        ("/freeassociation.sourceforge.net/Tzfile/America/Argentina/Buenos_Aires", "America/Argentina/Buenos_Aires"),
        ("/citadel.org/20190914_1/Europe/Stockholm", "Europe/Stockholm"),
    ])
    func resolvesToIANA(_ tzid: String, _ iana: String) {
        #expect(TimeZoneResolver.ianaIdentifier(for: tzid) == iana)
    }

    @Test func everyWindowsNameInCLDRResolvesToAZoneTheSystemKnows() {
        #expect(WindowsZones.ianaByWindowsName.count >= 130)
        for (windows, iana) in WindowsZones.ianaByWindowsName {
            #expect(SystemZone(identifier: iana) != nil, "\(windows) → \(iana)")
        }
    }

    @Test func customNamesFallBackToTheFilesVTimeZone() throws {
        let calendar = try #require(try ICalendarParser().parse(Self.customNewYork).calendar)
        let resolver = TimeZoneResolver(calendar: calendar)
        #expect(TimeZoneResolver.ianaIdentifier(for: "My Custom Eastern") == nil)
        let zone = try #require(resolver.zone(for: "My Custom Eastern"))
        #expect(zone is VTimeZoneRules)
        #expect(resolver.zone(for: "Nowhere/Unknown") == nil)
    }

    /// The embedded definition agrees with the system's tz database at every hour around each
    /// transition from 2008 to 2035 (US rules since 2007).
    @Test func embeddedRulesAgreeWithTheSystemDatabase() throws {
        let calendar = try #require(try ICalendarParser().parse(Self.customNewYork).calendar)
        let embedded = try #require(TimeZoneResolver(calendar: calendar).zone(for: "My Custom Eastern"))
        let system = try #require(SystemZone(identifier: "America/New_York"))
        var utc = LocalDateTime(year: 2008, month: 1, day: 1).secondsSinceEpoch
        let end = LocalDateTime(year: 2035, month: 12, day: 31).secondsSinceEpoch
        var checked = 0
        while utc < end {
            #expect(
                embedded.offset(atUTC: utc) == system.offset(atUTC: utc), "at \(LocalDateTime(secondsSinceEpoch: utc))Z"
            )
            utc += 1800
            checked += 1
        }
        #expect(checked > 400_000)
        let wall = LocalDateTime(year: 2030, month: 3, day: 10, hour: 2, minute: 30)
        #expect(embedded.utc(forLocal: wall) == system.utc(forLocal: wall))
    }

    static let customNewYork = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        BEGIN:VTIMEZONE\r
        TZID:My Custom Eastern\r
        BEGIN:DAYLIGHT\r
        TZOFFSETFROM:-0500\r
        TZOFFSETTO:-0400\r
        DTSTART:20070311T020000\r
        RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU\r
        END:DAYLIGHT\r
        BEGIN:STANDARD\r
        TZOFFSETFROM:-0400\r
        TZOFFSETTO:-0500\r
        DTSTART:20071104T020000\r
        RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU\r
        END:STANDARD\r
        END:VTIMEZONE\r
        END:VCALENDAR\r

        """
}

/// RFC 5545 §3.3.5: a time in a DST gap moves forward by the gap; a time in an overlap is the
/// first of its two instants.
@Suite struct GapAndOverlapTests {
    func utc(_ zone: any ZoneRules, _ y: Int, _ m: Int, _ d: Int, _ h: Int, _ min: Int) -> LocalDateTime {
        LocalDateTime(
            secondsSinceEpoch: zone.utc(forLocal: LocalDateTime(year: y, month: m, day: d, hour: h, minute: min)))
    }

    @Test func berlin() throws {
        let berlin = try #require(SystemZone(identifier: "Europe/Berlin"))
        // 02:30 does not exist on 2026-03-29: read with +01:00 → 01:30Z, which is 03:30 CEST.
        #expect(utc(berlin, 2026, 3, 29, 2, 30) == LocalDateTime(year: 2026, month: 3, day: 29, hour: 1, minute: 30))
        #expect(
            berlin.local(atUTC: berlin.utc(forLocal: LocalDateTime(year: 2026, month: 3, day: 29, hour: 2, minute: 30)))
                == LocalDateTime(year: 2026, month: 3, day: 29, hour: 3, minute: 30))
        // 02:30 happens twice on 2026-10-25: the first is CEST (+02:00) → 00:30Z.
        #expect(utc(berlin, 2026, 10, 25, 2, 30) == LocalDateTime(year: 2026, month: 10, day: 25, hour: 0, minute: 30))
        #expect(utc(berlin, 2026, 7, 1, 12, 0) == LocalDateTime(year: 2026, month: 7, day: 1, hour: 10, minute: 0))
    }

    @Test func newYork() throws {
        let ny = try #require(SystemZone(identifier: "America/New_York"))
        #expect(utc(ny, 2026, 3, 8, 2, 30) == LocalDateTime(year: 2026, month: 3, day: 8, hour: 7, minute: 30))
        #expect(utc(ny, 2026, 11, 1, 1, 30) == LocalDateTime(year: 2026, month: 11, day: 1, hour: 5, minute: 30))
    }
}
