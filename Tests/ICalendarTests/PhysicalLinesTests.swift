import Testing
import ICalendar

/// Text splits into lines at every line feed, CRLF included (Swift's `Character` view joins
/// "\r\n" into one character, so a split on "\n" by character leaves a CRLF text whole).
@Suite struct PhysicalLinesTests {
    @Test(arguments: ["\n", "\r\n"])
    func splitsAtEveryLineFeedAndJoinsBack(ending: String) {
        let text = ["BEGIN:VCALENDAR", "# é\u{301} combining", "", "END:VCALENDAR", ""].joined(separator: ending)
        let lines = text.physicalLines
        #expect(lines.count == 5)
        #expect(
            lines.map { String($0.droppingCarriageReturn) } == [
                "BEGIN:VCALENDAR", "# é\u{301} combining", "", "END:VCALENDAR", "",
            ])
        #expect(lines.joined(separator: "\n") == text)
    }

    @Test func mixedEndingsSplitToo() {
        let lines = "a\r\nb\nc\r\n".physicalLines.map { String($0.droppingCarriageReturn) }
        #expect(lines == ["a", "b", "c", ""])
    }

    @Test(arguments: ["secret\n", "secret\r\n", "secret\r", "secret", "secret\r\nsecond line\n"])
    func firstLineEndsAtAnyBreak(text: String) {
        #expect(text.firstPhysicalLine == "secret")
    }
}
