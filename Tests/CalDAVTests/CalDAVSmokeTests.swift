import Testing
@testable import CalDAV

@Suite struct CurlLinkTests {
    @Test func linksAgainstLibcurl() {
        let version = CalDAVTransport.curlVersion
        #expect(version.first?.isNumber == true, "unexpected libcurl version \(version)")
    }
}
