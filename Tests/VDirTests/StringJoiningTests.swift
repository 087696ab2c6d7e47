import Foundation
import Testing
@testable import VDir

/// `String(joining:)` gives what `+` gives, for empty parts, small and large strings, and
/// text beyond ASCII.
@Suite struct StringJoiningTests {
    @Test(arguments: [
        ("/tmp/vdir", "/", "a.ics"), ("", "", ""), ("a", "", ""), ("", "b", ""), ("", "", "c"),
        ("/home/ü/calendars/werk", "/", "😀 event – copy.ics"), (String(repeating: "x", count: 300), "/", "y"),
    ])
    func aJoinedStringIsItsPartsOneAfterTheOther(_ first: String, _ second: String, _ third: String) {
        #expect(String(joining: first, second, third) == first + second + third)
        #expect(String(joining: first, second) == first + second)
        #expect(
            String(joining: first, second, third).utf8.count == first.utf8.count + second.utf8.count + third.utf8.count)
    }
}
