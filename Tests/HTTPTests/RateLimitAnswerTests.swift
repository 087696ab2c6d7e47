import Foundation
import Testing
@testable import HTTP

/// Which answers are a server asking calgw to slow down: 429, Google's JSON `usageLimits`
/// 403, and, for a client configured for Google only, a 403 whose body is an empty DAV error
/// (Outlook CalDAV Synchronizer #303: `<D:error xmlns:D="DAV:"/>`).
@Suite struct RateLimitAnswerTests {
    static let bare = [
        "", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<D:error xmlns:D=\"DAV:\"/>\n",
        "<d:error xmlns:d='DAV:'></d:error>", "<error xmlns=\"DAV:\"/>",
    ]
    static let refusals = [
        "<D:error xmlns:D=\"DAV:\"><D:need-privileges/></D:error>", "Forbidden",
        "<D:error xmlns:D=\"urn:other\"/>", "<D:error xmlns:D=\"DAV:\"/><extra/>",
    ]

    @Test(arguments: bare) func aBareDAVErrorIsARateLimitOnlyWhenConfiguredSo(_ body: String) {
        #expect(RateLimitAnswer.matches(status: 403, body: Data(body.utf8), bareDAVError: true))
        #expect(!RateLimitAnswer.matches(status: 403, body: Data(body.utf8)))
        #expect(!RateLimitAnswer.matches(status: 400, body: Data(body.utf8), bareDAVError: true))
    }

    @Test(arguments: refusals) func aReasonedRefusalIsNeverOne(_ body: String) {
        #expect(!RateLimitAnswer.matches(status: 403, body: Data(body.utf8), bareDAVError: true))
    }

    @Test func googlesJSONAnd429AreOnesEverywhere() {
        let json = #"{"error": {"code": 403, "errors": [{"domain": "usageLimits", "reason": "rateLimitExceeded"}]}}"#
        #expect(RateLimitAnswer.matches(status: 403, body: Data(json.utf8)))
        #expect(RateLimitAnswer.matches(status: 429, body: Data()))
    }
}
