import Testing
@testable import Graph

/// The join block of an online meeting's body, found and kept after notes edited as text.
@Suite struct OnlineMeetingBlockTests {
    /// A Teams block as Outlook writes it: a rule, the heading, the link, a closing rule.
    static let teams =
        "<html><body><div>Agenda</div>"
        + "<div style=\"width:100%\"><span style=\"white-space:nowrap;color:#5F5F5F\">"
        + "________________________________________________________________________________</span></div>"
        + "<div class=\"me-email-text\"><div><span>Microsoft Teams meeting</span></div>"
        + "<a class=\"me-email-headline\" href=\"https://teams.microsoft.com/l/meetup-join/19%3ameeting_X%40thread.v2/0?c=1\">"
        + "Click here to join the meeting</a></div>"
        + "<div style=\"width:100%\"><span>________________________________________________________________________________</span></div>"
        + "<div>After</div></body></html>"

    @Test func theBlockIsFoundBetweenItsRules() throws {
        let block = try #require(OnlineMeetingBlock(in: Self.teams))
        #expect(
            block.html.hasPrefix("<div style=\"width:100%\">") && block.html.hasSuffix("</span></div>"), "\(block.html)"
        )
        #expect(!block.html.contains("Agenda") && !block.html.contains("After"))
        #expect(block.joinLink == "https://teams.microsoft.com/l/meetup-join/19%3ameeting_X%40thread.v2/0?c=1")
        #expect(OnlineMeetingBlock(in: "<div>No meeting here</div>") == nil)
    }

    @Test func notesAsTextGetTheBlockBackOnceAndHTMLKeptAsItIs() throws {
        let block = try #require(OnlineMeetingBlock(in: Self.teams))
        let words = HTMLText.plainText(block.html)
        let edited = GraphItemBody(contentType: .text, content: "Agenda & budget\n\n" + words + "\n")
        let kept = block.kept(in: edited)
        #expect(kept.contentType == .html)
        #expect(kept.content == "Agenda &amp; budget<br>\r\n" + block.html, "\(kept.content ?? "")")
        let already = GraphItemBody(contentType: .html, content: Self.teams)
        #expect(block.kept(in: already) == already)
        let trimmed = block.kept(in: GraphItemBody(contentType: .text, content: "Only notes"))
        #expect(trimmed.content == "Only notes<br>\r\n" + block.html)
    }
}
