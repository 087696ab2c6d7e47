import Testing

@testable import CalendarSync

/// `BrokenCalendarUser.isAddress` reads by hand what the regular expression it replaced matched
/// whole: a URI's scheme, a colon and at least one character that is not white space.
@Suite struct CalendarAddressTests {
    /// What the regular expression says of `value`.
    static func expected(_ value: String) -> Bool {
        value.wholeMatch(of: /[A-Za-z][A-Za-z0-9+.\-]*:\S+/) != nil
    }

    @Test(arguments: [
        "mailto:bob@example.org", "MAILTO:Bob@Example.org", "urn:uuid:1234", "x+y.z-1:a", "a:b",
        "mailto:", "mailto", ":bob", "1mailto:bob", "mail to:bob", "mailto:bob example", "mailto:bob\t",
        "mailto:bob\u{00A0}", "mailto:bøb@example.org", "mäilto:bob", "m\u{0301}ailto:bob", "", " mailto:bob",
        "mailto:bob\r\n", "NEEDS-ACTION mailto", "bob@example.org", "https://example.org/p/", "/alice/",
        "mailto:\u{2003}", "é:x", "a\u{0308}:x", "mailto::",
    ])
    func readsAsTheExpressionMatched(value: String) {
        #expect(BrokenCalendarUser.isAddress(value) == Self.expected(value), "\(value.debugDescription)")
    }

    @Test func randomValuesReadAsTheExpressionMatched() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("aZ9+.-:@ \t\u{00A0}é\u{0301}/_x")
        for _ in 0..<3_000 {
            let value = String((0..<Int.random(in: 0...8, using: &generator)).map { _ in alphabet.randomElement()! })
            #expect(BrokenCalendarUser.isAddress(value) == Self.expected(value), "\(value.debugDescription)")
        }
    }
}
