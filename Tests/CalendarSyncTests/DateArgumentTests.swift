import ICalendar
import Testing
@testable import CalendarSync

/// Dates given on the command line (CLI.md "Dates"): blanks at either end are left out as
/// Foundation's `.whitespaces` leaves them (tabs and Unicode's space separators), nothing else.
@Suite struct DateArgumentTests {
    @Test func blanksAtEitherEndAreLeftOut() {
        for text in ["2026-03-29", " 2026-03-29", "2026-03-29\t", "\u{00A0}2026-03-29\u{2003}", " \t 2026-03-29  "] {
            #expect(DateArgument(text)?.value == .date(LocalDate(year: 2026, month: 3, day: 29)), "\(text)")
        }
        let local = DateArgument("  2026-03-29T10:00\u{202F}")
        #expect(
            local?.value
                == .local(
                    LocalDateTime(
                        date: LocalDate(year: 2026, month: 3, day: 29), time: LocalTime(hour: 10, minute: 0, second: 0))
                ))
        #expect(local?.text == "  2026-03-29T10:00\u{202F}")
    }

    @Test func otherWhiteSpaceAndBlanksInsideAreNotDates() {
        for text in ["2026-03-29\n", "\n2026-03-29", "2026-03-29\u{200B}", "2026- 03-29", "", " ", "\u{00A0}"] {
            #expect(DateArgument(text) == nil, "\(text.unicodeScalars.map { $0.value })")
        }
    }
}
