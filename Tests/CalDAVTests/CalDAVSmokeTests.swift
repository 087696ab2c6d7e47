import Testing
@testable import CalDAV
import HTTP

@Suite struct CurlLinkTests {
    @Test func linksAgainstLibcurl() {
        let version = HTTPVersions.curlVersion
        #expect(version.first?.isNumber == true, "unexpected libcurl version \(version)")
    }
}
