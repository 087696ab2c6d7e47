import Foundation
import Testing
import ICalendar
@testable import CalendarSync

/// What a save in the editor leads to.
@Suite struct EditorReviewTests {
    static let now = DateTimeValue(LocalDateTime(year: 2026, month: 11, day: 23, hour: 9), form: .utc)
    static let original = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//calgw//tests//EN\r
        BEGIN:VEVENT\r
        UID:open@calgw.test\r
        DTSTAMP:20260101T000000Z\r
        DTSTART:20260105T100000Z\r
        DTEND:20260105T110000Z\r
        RRULE:FREQ=WEEKLY;COUNT=4\r
        SUMMARY:Standup\r
        SEQUENCE:3\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:open@calgw.test\r
        DTSTAMP:20260101T000000Z\r
        RECURRENCE-ID:20260112T100000Z\r
        DTSTART:20260112T110000Z\r
        DTEND:20260112T120000Z\r
        SUMMARY:Standup (moved)\r
        SEQUENCE:3\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    let review = EditorReview(original: try! ICalendarParser().parse(original).calendar!, now: now)

    func accepted(_ outcome: EditorReview.Outcome) throws -> Component {
        guard case .accept(let c) = outcome else {
            Issue.record("not accepted: \(String(reflecting: outcome))"); throw CancellationError()
        }
        return c
    }

    @Test func anUnchangedSaveAborts() {
        #expect(review.review(review.initialText) == .unchanged)
        // Line endings and comment lines are not changes.
        let lf = "# a note\n" + review.initialText.replacingOccurrences(of: "\r\n", with: "\n")
        #expect(review.review(lf) == .unchanged)
    }

    @Test func anEmptySaveAborts() {
        #expect(review.review("") == .empty)
        #expect(review.review("# only a comment\n\n") == .empty)
    }

    @Test func aChangeBumpsSequenceOfTheChangedComponentOnly() throws {
        let saved = review.initialText.replacingOccurrences(of: "SUMMARY:Standup (moved)", with: "SUMMARY:Retro")
        let result = try accepted(review.review(saved))
        let master = result.components[0], override = result.components[1]
        #expect(master["SEQUENCE"]?.value == "3" && master["DTSTAMP"]?.value == "20260101T000000Z")
        #expect(override["SUMMARY"]?.text == "Retro")
        #expect(override["SEQUENCE"]?.value == "4")
        #expect(override["LAST-MODIFIED"]?.value == "20261123T090000Z")
        #expect(override["DTSTAMP"]?.value == "20261123T090000Z")
    }

    @Test func aSequenceThePersonSetIsKept() throws {
        let saved = review.initialText
            .replacingOccurrences(of: "SUMMARY:Standup\r\nSEQUENCE:3", with: "SUMMARY:Daily\r\nSEQUENCE:9")
        let result = try accepted(review.review(saved))
        #expect(result.components[0]["SEQUENCE"]?.value == "9")
        #expect(result.components[0]["SUMMARY"]?.text == "Daily")
    }

    @Test func brokenSavesReopenWithTheProblemsAboveTheCalendar() {
        let saved = review.initialText.replacingOccurrences(of: "END:VEVENT\r\nEND:VCALENDAR", with: "END:VCALENDAR")
        guard case .reopen(let text, let problems) = review.review(saved) else {
            Issue.record("a file with an unclosed VEVENT was accepted"); return
        }
        #expect(!problems.isEmpty)
        #expect(text.hasPrefix("# calgw could not use this file"))
        #expect(text.contains("#   line "))
        // Saved again as is (with the comments), it is judged on the same text, not on the comments.
        guard case .reopen(_, let again) = review.review(text) else {
            Issue.record("comments changed the verdict"); return
        }
        #expect(again == problems)
        // Fixed without removing the comments, it is the original again; fixed and changed, it is accepted.
        let fixed = text.replacingOccurrences(of: "END:VCALENDAR\r\n", with: "END:VEVENT\r\nEND:VCALENDAR\r\n")
        #expect(review.review(fixed) == .unchanged)
        let changed = fixed.replacingOccurrences(of: "SUMMARY:Standup\r\n", with: "SUMMARY:Daily\r\n")
        #expect(throws: Never.self) { try accepted(review.review(changed)) }
    }

    @Test func changingTheUIDIsRefused() {
        let saved = review.initialText.replacingOccurrences(of: "UID:open@calgw.test", with: "UID:other@calgw.test")
        guard case .reopen(let text, let problems) = review.review(saved) else {
            Issue.record("UID change accepted"); return
        }
        #expect(problems.first?.message.contains("open@calgw.test") == true)
        #expect(text.contains("calgw event add"))
    }
}
