import Foundation
import Testing
import CalgwTestSupport

/// Google's calendars: none made over CalDAV.
extension GoogleCalDAVTests {
    /// No MKCALENDAR (the guide): a new folder of an account pair stays in the vdir with a note
    /// that says how to make the calendar, the run goes on with the others, and a later run
    /// does not ask the server again.
    @Test func aNewFolderIsNotMadeACalendarWhereTheServerMakesNone() async throws {
        let server = try TestServers.start("radicale")
        defer { server.stop() }
        let proxy = try TestProxies.google(
            upstream: server.url,
            {
                var b = TestProxies.GoogleBehaviours()
                b.noMkcalendar = true
                return b
            }())
        defer { proxy.stop() }
        let account = try AccountFixture(server: server, remote: proxy.proxied(server.home))
        defer { account.remove() }
        let work = try await account.makeCalendar("work", displayName: "Work")
        try await account.put(
            TestEvent.ics(uid: "w1", summary: "Work event", end: "20260310T110000Z"), name: "w1", in: work)
        let newFolder = account.local.appendingPathComponent("holidays")
        try FileManager.default.createDirectory(at: newFolder, withIntermediateDirectories: true)
        try TestEvent.data(uid: "h1", summary: "Holiday", end: "20260312T110000Z")
            .write(to: newFolder.appendingPathComponent("h1.ics"))
        var r = try await account.calgw(["sync"])
        #expect(r.status == 0, "\(Self.said(r))")
        #expect(Self.said(r).contains("holidays/ stays in the vdir"), "\(Self.said(r))")
        #expect(Self.said(r).contains("MKCALENDAR answered 405"), "\(Self.said(r))")
        #expect(account.files("work") == ["w1.ics"])
        #expect(account.files("holidays") == ["h1.ics"])
        let asked = proxy.logEntries().filter { ($0["method"] as? String) == "MKCALENDAR" }.count
        #expect(asked == 1)
        r = try await account.calgw(["sync"])
        #expect(r.status == 0, "\(Self.said(r))")
        #expect(Self.said(r).contains("holidays/ stays in the vdir"), "\(Self.said(r))")
        #expect(proxy.logEntries().filter { ($0["method"] as? String) == "MKCALENDAR" }.count == asked, "asked again")
        #expect(account.files("holidays") == ["h1.ics"])
        #expect(account.subfolders() == ["holidays", "work"])
        // Nothing went to the server under another name.
        let listing = try await account.curl(["-X", "PROPFIND", "-H", "Depth: 1", server.home.absoluteString])
        #expect(!listing.stdoutText.contains("holidays"), "\(listing.stdoutText)")
    }
}
