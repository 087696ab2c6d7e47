import Foundation
import Testing
@testable import CalDAV

/// Schedule-Tags (RFC 6638 §3.2.10) as calgw reads them: a quoted opaque tag or nothing.
@Suite struct ScheduleTagTests {
    @Test func aQuotedTagIsATag() {
        #expect(ScheduleTag("\"da39a3ee\"")?.value == "\"da39a3ee\"")
        #expect(ScheduleTag("  \"1-2\" ")?.value == "\"1-2\"")
    }

    @Test func anythingElseIsNoTag() {
        for malformed in [nil, "", "da39a3ee", "\"", "\"a\"b\"", "W/\"weak\"", "\"open", "close\""] as [String?] {
            #expect(ScheduleTag(malformed) == nil, "\(malformed ?? "nil")")
        }
    }

    @Test func aMultigetAnswerGivesEachMembersTag() throws {
        let body = Data(
            """
            <?xml version="1.0" encoding="utf-8"?>
            <D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
              <D:response><D:href>/cal/a.ics</D:href>
                <D:propstat><D:prop><D:getetag>"1"</D:getetag><C:schedule-tag>"s1"</C:schedule-tag></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>
              </D:response>
              <D:response><D:href>/cal/b.ics</D:href>
                <D:propstat><D:prop><D:getetag>"2"</D:getetag></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>
                <D:propstat><D:prop><C:schedule-tag/></D:prop><D:status>HTTP/1.1 404 Not Found</D:status></D:propstat>
              </D:response>
            </D:multistatus>
            """.utf8)
        let members = try Multistatus.members(of: body).members
        #expect(members.map(\.scheduleTag) == ["\"s1\"", nil])
    }
}
