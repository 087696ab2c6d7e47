import Foundation
import ICalendar
import Testing

@testable import Graph

@Suite struct GraphReadingTests {
    @Test func aSingleEventBecomesOneVEventInItsZone() throws {
        let event = try GraphSamples.decode(GraphEvent.self, GraphSamples.created)
        let calendar = try event.iCalendar(at: GraphSamples.now)
        let vevents = calendar.components(named: "VEVENT")
        #expect(vevents.count == 1)
        let v = vevents[0]
        #expect(v["UID"]?.text == event.iCalUId)
        #expect(v["DTSTART"]?.tzid == "America/Los_Angeles")
        #expect(v["DTSTART"]?.value == "20190315T120000")
        #expect(v["DTEND"]?.value == "20190315T140000")
        #expect(v["SUMMARY"]?.text == "Let's go for lunch")
        #expect(v["DESCRIPTION"]?.text == "Does noon work for you?\nBring & share.")
        #expect(v["X-ALT-DESC"]?[parameter: "FMTTYPE"] == "text/html")
        // TEXT holds line ends as LF: the HTML keeps its CRLFs as LFs.
        #expect(v["X-ALT-DESC"]?.text == event.body?.content?.replacingOccurrences(of: "\r\n", with: "\n"))
        #expect(v["LOCATION"]?.text == "Harry's Bar")
        #expect(v["TRANSP"]?.value == "OPAQUE")
        #expect(v["CLASS"] == nil)
        #expect(v["DTSTAMP"]?.value == "20190315T005254Z")
        #expect(v["ORGANIZER"]?.value == "mailto:meganb@contoso.onmicrosoft.com")
        #expect(v["ORGANIZER"]?[parameter: "CN"] == "Megan Bowen")
        let attendee = try #require(v["ATTENDEE"])
        #expect(attendee.value == "mailto:adelev@contoso.onmicrosoft.com")
        #expect(attendee[parameter: "ROLE"] == "REQ-PARTICIPANT")
        #expect(attendee[parameter: "PARTSTAT"] == "NEEDS-ACTION")
        let alarm = try #require(v.components(named: "VALARM").first)
        #expect(alarm["TRIGGER"]?.value == "-PT15M")
        #expect(alarm["ACTION"]?.value == "DISPLAY")
        // The zone's definition is there, as calgw's files carry it.
        #expect(calendar.components(named: "VTIMEZONE").first?["TZID"]?.value == "America/Los_Angeles")
        #expect(Linter().lint(ICalendarSerializer().data([calendar])).filter { $0.severity == .error }.isEmpty)
    }

    @Test func aSeriesReadInUTCKeepsItsZoneExceptionsAndCancellations() throws {
        let master = try GraphSamples.decode(GraphEvent.self, GraphSamples.seriesMaster)
        let calendar = try master.iCalendar(at: GraphSamples.now)
        let vevents = calendar.components(named: "VEVENT")
        #expect(vevents.count == 2)
        let m = vevents[0]
        #expect(m["UID"]?.text == "040000008200E00074C5B7101A82E0080000000001")
        #expect(m["DTSTART"]?.tzid == "Europe/Berlin")
        #expect(m["DTSTART"]?.value == "20250501T113000")
        #expect(m["RRULE"]?.value == "FREQ=WEEKLY;COUNT=10;BYDAY=TH;WKST=MO")
        #expect(m["EXDATE"]?.value == "20250529T113000")
        #expect(m["EXDATE"]?.tzid == "Europe/Berlin")
        let x = vevents[1]
        #expect(x["UID"]?.text == m["UID"]?.text)
        #expect(x["RECURRENCE-ID"]?.value == "20250522T113000")
        #expect(x["RECURRENCE-ID"]?.tzid == "Europe/Berlin")
        #expect(x["DTSTART"]?.value == "20250521T140000")
        #expect(x["SUMMARY"]?.text == "Weekly sync (moved)")
        #expect(x["RRULE"] == nil)

        let starts = GraphSamples.startValues(calendar).map(\.local.date.isoString)
        #expect(starts.count == 9)
        #expect(starts.contains("2025-05-21"))
        #expect(!starts.contains("2025-05-22") && !starts.contains("2025-05-29"))
        // Read in UTC, every occurrence stays at 11:30 on Berlin's wall clock.
        #expect(
            Set(GraphSamples.startValues(calendar).filter { $0.local.date.isoString != "2025-05-21" }.map(\.local.time))
                == [LocalTime(hour: 11, minute: 30, second: 0)])
    }

    @Test func exceptionsArrivingSeparatelyAreUsedInsteadOfTheMastersOwn() throws {
        var master = try GraphSamples.decode(GraphEvent.self, GraphSamples.seriesMaster)
        let exceptions = master.exceptionOccurrences!
        master.exceptionOccurrences = nil
        master.cancelledOccurrences = nil
        let calendar = try master.iCalendar(
            exceptions: exceptions, cancelledOccurrences: ["OID.AAMkMASTER=.2025-05-29"], at: GraphSamples.now)
        let expected = try GraphSamples.decode(GraphEvent.self, GraphSamples.seriesMaster).iCalendar(
            at: GraphSamples.now)
        #expect(calendar == expected)
    }

    @Test func calgwsOwnUIDComesBackFromTheExtendedProperty() throws {
        var event = try GraphSamples.decode(GraphEvent.self, GraphSamples.created)
        event.singleValueExtendedProperties = [
            GraphExtendedProperty(id: GraphExtendedProperty.uidID, value: "mine@calgw")
        ]
        let calendar = try event.iCalendar(at: GraphSamples.now)
        #expect(calendar.components(named: "VEVENT")[0]["UID"]?.text == "mine@calgw")
    }

    @Test func allDayEventsAreDatesWhateverZoneTheyWereReadIn() throws {
        let json = """
            {"id":"A","iCalUId":"allday","subject":"Holiday","isAllDay":true,"originalStartTimeZone":"W. Europe Standard Time",
             "start":{"dateTime":"2026-12-24T00:00:00.0000000","timeZone":"UTC"},
             "end":{"dateTime":"2026-12-27T00:00:00.0000000","timeZone":"UTC"},"showAs":"free","isReminderOn":false,
             "sensitivity":"personal","importance":"high","categories":["Family","Red, bold"]}
            """
        let calendar = try GraphSamples.decode(GraphEvent.self, json).iCalendar(at: GraphSamples.now)
        let v = calendar.components(named: "VEVENT")[0]
        #expect(v["DTSTART"]?.value == "20261224")
        #expect(v["DTSTART"]?[parameter: "VALUE"] == "DATE")
        #expect(v["DTEND"]?.value == "20261227")
        #expect(v["TRANSP"]?.value == "TRANSPARENT")
        #expect(v["CLASS"]?.value == "X-PERSONAL")
        #expect(v["PRIORITY"]?.value == "1")
        #expect(v["CATEGORIES"]?.textList == ["Family", "Red, bold"])
        #expect(v.components(named: "VALARM").isEmpty)
        #expect(calendar.components(named: "VTIMEZONE").isEmpty)
    }

    @Test func aMasterStartingOffItsPatternStartsAtItsFirstOccurrence() throws {
        // Created on a Tuesday for "every Thursday": Graph's first occurrence is Thursday.
        let json = """
            {"id":"M","iCalUId":"offpattern","type":"seriesMaster","subject":"x",
             "start":{"dateTime":"2026-03-03T09:00:00.0000000","timeZone":"Eastern Standard Time"},
             "end":{"dateTime":"2026-03-03T10:00:00.0000000","timeZone":"Eastern Standard Time"},
             "recurrence":{"pattern":{"type":"weekly","interval":1,"daysOfWeek":["thursday"]},
                           "range":{"type":"numbered","startDate":"2026-03-03","numberOfOccurrences":3}}}
            """
        let calendar = try GraphSamples.decode(GraphEvent.self, json).iCalendar(at: GraphSamples.now)
        let v = calendar.components(named: "VEVENT")[0]
        #expect(v["DTSTART"]?.value == "20260305T090000")
        #expect(v["DTEND"]?.value == "20260305T100000")
        #expect(v["DTSTART"]?.tzid == "America/New_York")
        let starts = GraphSamples.startValues(calendar).map(\.local)
        #expect(starts.map(\.date.isoString) == ["2026-03-05", "2026-03-12", "2026-03-19"])
        // New York changes to summer time on March 8th: 09:00 stays 09:00.
        #expect(Set(starts.map(\.time)) == [LocalTime(hour: 9, minute: 0, second: 0)])
    }

    @Test func anEndDateIsTheLastSecondOfThatDayInTheRecurrenceZone() throws {
        let json = """
            {"id":"M","iCalUId":"enddate","type":"seriesMaster",
             "start":{"dateTime":"2026-10-01T23:30:00.0000000","timeZone":"W. Europe Standard Time"},
             "end":{"dateTime":"2026-10-01T23:45:00.0000000","timeZone":"W. Europe Standard Time"},
             "recurrence":{"pattern":{"type":"daily","interval":1},
                           "range":{"type":"endDate","startDate":"2026-10-01","endDate":"2026-10-31",
                                    "recurrenceTimeZone":"W. Europe Standard Time"}}}
            """
        let calendar = try GraphSamples.decode(GraphEvent.self, json).iCalendar(at: GraphSamples.now)
        let v = calendar.components(named: "VEVENT")[0]
        // 2026-10-31 23:59:59 in Berlin (winter time, UTC+1) is 22:59:59 UTC.
        #expect(v["RRULE"]?.value == "FREQ=DAILY;UNTIL=20261031T225959Z")
        let dates = GraphSamples.startValues(calendar).map(\.local.date.isoString)
        #expect(dates.count == 31)
        #expect(dates.last == "2026-10-31")
    }

    @Test func htmlBodiesThatAreEmptyPagesGiveNoDescription() throws {
        let json = """
            {"id":"E","iCalUId":"empty","start":{"dateTime":"2026-01-01T10:00:00","timeZone":"UTC"},
             "end":{"dateTime":"2026-01-01T11:00:00","timeZone":"UTC"},
             "body":{"contentType":"html","content":"<html><head><meta name=\\"x\\"><style>p{}</style></head><body><div>&nbsp;</div></body></html>"}}
            """
        let v = try GraphSamples.decode(GraphEvent.self, json).iCalendar(at: GraphSamples.now).components(
            named: "VEVENT")[0]
        #expect(v["DESCRIPTION"] == nil)
        #expect(v["X-ALT-DESC"] == nil)
        #expect(v["DTSTART"]?.value == "20260101T100000Z")
    }

    @Test func anEventWithoutStartIsRefusedNamingTheField() throws {
        let event = try GraphSamples.decode(GraphEvent.self, #"{"id":"X","subject":"no time"}"#)
        let error = try #require(throws: GraphMappingError.self) { try event.iCalendar(at: GraphSamples.now) }
        #expect(error.code == .unreadableEvent(part: "start"))
    }
}

@Suite struct GraphExceptionReadingTests {
    /// An `$expand`ed exception with only some fields `$select`ed takes the rest from its
    /// master; an all-day series' exception is all-day even when `isAllDay` was not selected.
    @Test func exceptionsTakeWhatTheyLackFromTheirMaster() throws {
        let json = """
            {"id":"M","iCalUId":"holidays","type":"seriesMaster","subject":"Gym","isAllDay":true,
             "originalStartTimeZone":"Eastern Standard Time","categories":["Health"],
             "start":{"dateTime":"2026-01-05T00:00:00.0000000","timeZone":"UTC"},
             "end":{"dateTime":"2026-01-06T00:00:00.0000000","timeZone":"UTC"},
             "recurrence":{"pattern":{"type":"weekly","interval":1,"daysOfWeek":["monday"],"firstDayOfWeek":"sunday"},
                           "range":{"type":"numbered","startDate":"2026-01-05","numberOfOccurrences":4}},
             "exceptionOccurrences":[{"id":"X","originalStart":"2026-01-12T05:00:00Z",
                "start":{"dateTime":"2026-01-13T00:00:00.0000000","timeZone":"UTC"},
                "end":{"dateTime":"2026-01-14T00:00:00.0000000","timeZone":"UTC"}}]}
            """
        let calendar = try GraphSamples.decode(GraphEvent.self, json).iCalendar(at: GraphSamples.now)
        let x = try #require(calendar.components(named: "VEVENT").last)
        #expect(x["RECURRENCE-ID"]?.value == "20260112")
        #expect(x["RECURRENCE-ID"]?[parameter: "VALUE"] == "DATE")
        #expect(x["DTSTART"]?.value == "20260113")
        #expect(x["SUMMARY"]?.text == "Gym")
        #expect(x["CATEGORIES"]?.textList == ["Health"])
        #expect(
            GraphSamples.startValues(calendar).map(\.local.date.isoString)
                == ["2026-01-05", "2026-01-13", "2026-01-19", "2026-01-26"])
    }

    @Test func aCustomOriginalZoneLeavesTheTimesInTheZoneTheyWereSentIn() throws {
        let json = """
            {"id":"C","iCalUId":"custom","originalStartTimeZone":"tzone://Microsoft/Custom",
             "start":{"dateTime":"2026-06-01T07:00:00.0000000","timeZone":"UTC"},
             "end":{"dateTime":"2026-06-01T08:00:00.0000000","timeZone":"UTC"},"isReminderOn":true,
             "reminderMinutesBeforeStart":0}
            """
        let calendar = try GraphSamples.decode(GraphEvent.self, json).iCalendar(at: GraphSamples.now)
        let v = calendar.components(named: "VEVENT")[0]
        #expect(v["DTSTART"]?.value == "20260601T070000Z")
        #expect(v.components(named: "VALARM").first?["TRIGGER"]?.value == "PT0S")
        let write = try calendar.graphEventWrite()
        #expect(write.master.start == GraphDateTimeZone(dateTime: "2026-06-01T07:00:00", timeZone: "UTC"))
        #expect(write.master.isReminderOn == true)
        #expect(write.master.reminderMinutesBeforeStart == 0)
    }
}
