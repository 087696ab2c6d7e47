import Foundation
import Testing
import CalgwTestSupport
@testable import ICalendar

@Suite struct LintTests {
    func lint(_ body: String) -> [LintProblem] {
        Linter().lint(Data(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n" + body + "END:VCALENDAR\r\n").utf8))
    }

    func errors(_ body: String) -> [String] { lint(body).filter { $0.severity == .error }.map(\.message) }

    static let berlin = TestEvent.centralEuropeanZone()

    @Test func aCleanEventHasNoProblems() {
        #expect(
            lint(
                Self.berlin
                    + "BEGIN:VEVENT\r\nUID:1\r\nDTSTAMP:20260101T000000Z\r\nDTSTART;TZID=Europe/Berlin:20260101T100000\r\nDTEND;TZID=Europe/Berlin:20260101T110000\r\nRRULE:FREQ=WEEKLY;BYDAY=MO\r\nEND:VEVENT\r\n"
            ).isEmpty)
    }

    @Test func reportsEachErrorAtItsLine() {
        let problems = lint(
            "BEGIN:VEVENT\r\nDTSTART:20260101T100000Z\r\nDTEND:20260101T090000Z\r\nRRULE:FREQ=OFTEN\r\nDTSTAMP:yesterday\r\nEND:VEVENT\r\n"
        )
        let errors = problems.filter { $0.severity == .error }
        #expect(errors.contains { $0.line == 4 && $0.message.contains("has no UID") })
        #expect(errors.contains { $0.line == 6 && $0.message.contains("before DTSTART") })
        #expect(errors.contains { $0.line == 7 && $0.message.contains("FREQ=OFTEN") })
        #expect(errors.contains { $0.line == 8 && $0.message.contains("not a valid DATE-TIME") })
    }

    /// A parameter name a broken quoted-printable left (RFC 6047 §2.5's example decodes
    /// `PARTSTAT=ACCEPTED` with `=AC` as a byte): an error at its line, which servers refuse.
    @Test func aGarbledParameterNameIsAnError() {
        let problems = lint(
            "BEGIN:VEVENT\r\nUID:1\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260101T100000Z\r\n"
                + "ATTENDEE;ROLE=CHAIR;PARTSTAT\u{FFFD}CEPTED=:mailto:a@example.com\r\n"
                + "ATTENDEE;X-CALGW-NOTE=1;CN=B:mailto:b@example.com\r\nEND:VEVENT\r\n")
        let errors = problems.filter { $0.severity == .error }
        #expect(errors.count == 1 && errors.first?.line == 8 && errors.first?.kind == .parameterName, "\(errors)")
    }

    @Test func structuralErrorsComeWithTheirLine() {
        let problems = Linter().lint(Data("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nEND:VCALENDAR\r\n".utf8))
        #expect(problems.first { $0.severity == .error }?.line == 3)
    }

    @Test func everyStructuralErrorIsReportedWithTheRest() {
        let text = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x",
            "BEGIN:VEVENT", "UID:1", "DTSTART:20260101T100000Z", "no colon here", "END:VEVENT",
            "BEGIN:VEVENT", "UID:2", "DTSTART:20260102T100000Z", "DTEND:20260102T090000Z", "END:VTODO", "END:VEVENT",
            "END:VALARM",
            "BEGIN:VEVENT", "UID:3", "DTSTART:20260103T100000Z", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
        let errors = Linter().lint(Data(text.utf8)).filter { $0.severity == .error }
        #expect(errors.contains { $0.line == 7 }, "\(errors)")
        #expect(errors.contains { $0.line == 13 && $0.message.contains("END:VTODO") }, "\(errors)")
        #expect(errors.contains { $0.line == 15 && $0.message.contains("END:VALARM") }, "\(errors)")
        #expect(
            errors.contains {
                $0.line == 19 && $0.message.contains("END:VCALENDAR") && $0.message.contains("BEGIN:VEVENT of line 16")
            },
            "\(errors)")
        #expect(errors.count == 4, "\(errors)")
        // A file with one structural error reports it as before.
        let one = Linter().lint(Data("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nEND:VCALENDAR\r\n".utf8)).filter {
            $0.severity == .error
        }
        #expect(one.map(\.line) == [3], "\(one)")
    }

    @Test func mixedDateFormsAndBothEndAndDurationAreErrors() {
        // A DATE DTSTART with a DATE-TIME DTEND is read as recurring-ical-events reads it
        // (`ReadingLintTests` pins the reading named).
        let mixed = lint(
            "BEGIN:VEVENT\r\nUID:1\r\nDTSTART;VALUE=DATE:20260101\r\nDTEND:20260102T000000Z\r\nEND:VEVENT\r\n")
        #expect(
            mixed.contains {
                $0.severity == .error && $0.message.contains("DTSTART is a DATE, which RFC 5545 forbids")
            },
            "\(mixed)")
        #expect(
            errors(
                "BEGIN:VEVENT\r\nUID:1\r\nDTSTART:20260101T000000Z\r\nDTEND:20260102T000000Z\r\nDURATION:PT1H\r\nEND:VEVENT\r\n"
            ).contains { $0.contains("both DTEND and DURATION") })
    }

    @Test func unknownTimeZonesAreErrorsButWindowsNamesAreNot() {
        #expect(
            errors("BEGIN:VEVENT\r\nUID:1\r\nDTSTART;TZID=Mars/Olympus:20260101T100000\r\nEND:VEVENT\r\n").contains {
                $0.contains("Mars/Olympus")
            })
        #expect(
            errors("BEGIN:VEVENT\r\nUID:1\r\nDTSTART;TZID=W. Europe Standard Time:20260101T100000\r\nEND:VEVENT\r\n")
                .isEmpty)
    }

    @Test func aTZIDWithoutItsVTimeZoneIsAWarningOncePerZone() {
        let problems = lint(
            "BEGIN:VEVENT\r\nUID:1\r\nDTSTAMP:20260101T000000Z\r\nDTSTART;TZID=Europe/Berlin:20260101T100000\r\n"
                + "DTEND;TZID=Europe/Berlin:20260101T110000\r\nEXDATE;TZID=W. Europe Standard Time:20260108T100000\r\n"
                + "RRULE:FREQ=WEEKLY;COUNT=3\r\nEND:VEVENT\r\n")
        #expect(problems.allSatisfy { $0.severity == .warning }, "\(problems)")
        #expect(
            problems.map(\.description) == [
                "7: warning: TZID \"Europe/Berlin\" has no VTIMEZONE in this file (calgw adds one when uploading)",
                "9: warning: TZID \"W. Europe Standard Time\" has no VTIMEZONE in this file (calgw uploads it as Europe/Berlin, with a VTIMEZONE)",
            ])
        // Defined zones, and unknown ones (an error each time they are used), get no such warning.
        #expect(
            lint(
                Self.berlin
                    + "BEGIN:VEVENT\r\nUID:1\r\nDTSTAMP:20260101T000000Z\r\nDTSTART;TZID=Europe/Berlin:20260101T100000\r\nEND:VEVENT\r\n"
            ).isEmpty)
        #expect(
            !lint(
                "BEGIN:VEVENT\r\nUID:1\r\nDTSTAMP:20260101T000000Z\r\nDTSTART;TZID=Mars/Olympus:20260101T100000\r\nEND:VEVENT\r\n"
            )
            .contains { $0.severity == .warning })
    }

    @Test func toleratedThingsAreWarnings() {
        let problems = Linter().lint(
            Data(
                "BEGIN:VCALENDAR\nVERSION:2.0\nBEGIN:VEVENT\nUID:1\nDTSTART:20260101\nSUMMARY:a\nSUMMARY:b\nEND:VEVENT\nEND:VCALENDAR\n"
                    .utf8))
        #expect(problems.allSatisfy { $0.severity == .warning })
        let messages = problems.map(\.message).joined(separator: "\n")
        for expected in [
            "LF instead of CRLF", "no PRODID", "no DTSTAMP", "DATE without VALUE=DATE",
            "SUMMARY appears more than once",
        ] {
            #expect(messages.contains(expected), "missing: \(expected)")
        }
    }
}

@Suite struct EventViewTests {
    @Test func readsTheEventModelsFields() throws {
        let text = """
            BEGIN:VEVENT\r
            UID:ev-1@example.com\r
            SUMMARY:Team\\, weekly\r
            DESCRIPTION:Line one\\nLine two\r
            LOCATION:Room 1\r
            DTSTART;TZID=Europe/Berlin:20260329T100000\r
            DURATION:PT1H30M\r
            RRULE:FREQ=WEEKLY;BYDAY=SU\r
            RDATE;VALUE=PERIOD:20260401T100000Z/PT1H\r
            EXDATE;TZID=Europe/Berlin:20260405T100000,20260412T100000\r
            STATUS:confirmed\r
            SEQUENCE:3\r
            LAST-MODIFIED:20260301T000000Z\r
            DTSTAMP:20260301T000000Z\r
            ORGANIZER;CN=Ann:mailto:ann@example.com\r
            ATTENDEE;CN=Bob;PARTSTAT=ACCEPTED;RSVP=TRUE:mailto:Bob@Example.com\r
            CATEGORIES:work,weekly\r
            URL:https://example.com/e\r
            BEGIN:VALARM\r
            ACTION:DISPLAY\r
            TRIGGER;RELATED=END:-PT15M\r
            END:VALARM\r
            END:VEVENT\r

            """
        let event = try #require(try ICalendarParser().parse(text).calendar).event
        #expect(event.uid == "ev-1@example.com" && event.summary == "Team, weekly")
        #expect(event.description == "Line one\nLine two" && event.location == "Room 1")
        #expect(event.timeZoneID == "Europe/Berlin" && !event.isAllDay && event.isRecurring)
        #expect(event.duration == ICalDuration(hours: 1, minutes: 30))
        #expect(event.recurrenceRules.first?.byDay == [.init(.sunday)])
        #expect(event.recurrenceDates.count == 1 && event.exceptionDates.count == 2)
        #expect(event.exceptionDates.allSatisfy { $0.tzid == "Europe/Berlin" })
        #expect(event.status == "CONFIRMED" && event.sequence == 3)
        #expect(event.organizer?.commonName == "Ann")
        #expect(event.attendees.first?.normalizedAddress == "bob@example.com" && event.attendees.first?.rsvp == true)
        #expect(event.categories == ["work", "weekly"] && event.url == "https://example.com/e")
        #expect(event.alarms.first?.trigger == .relative(ICalDuration(isNegative: true, minutes: 15), fromEnd: true))
    }
}
