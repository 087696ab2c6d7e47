import Foundation
import Testing
import CalgwTestSupport

/// Google's reads: listed hrefs that answer 404, and rate limits.
extension GoogleCalDAVTests {
    /// Listed hrefs that answer 404, `…_R<date>@google.com.ics` (vdirsyncer #1208, #1212):
    /// skipped with one note, the run does not fail, and the items beside them sync.
    @Test func listedHrefsThatAnswer404AreSkippedWithANote() async throws {
        let s = try await Setup("phantom") { behaviours, collection in
            behaviours.phantomCollections = [collection.path.hasSuffix("/") ? collection.path : collection.path + "/"]
        }
        defer { s.remove() }
        try TestEvent.data(uid: "real", summary: "Real", end: "20260310T110000Z")
            .write(to: s.direct.vdir.appendingPathComponent("real.ics"))
        #expect(try await s.direct.run("sync", password: s.server.password).status == 0)
        try s.write("mine", TestEvent.data(uid: "mine", summary: "Mine", end: "20260311T110000Z"))
        var r = try await s.sync()
        #expect(r.status == 0, "\(Self.said(r))")
        #expect(s.count("phantoms-listed") >= 1, "the proxy listed no phantom")
        let notes = Self.said(r).components(separatedBy: "\n").filter { $0.contains("_R20250") }
        #expect(notes.count == 1, "not one note: \(Self.said(r))")
        #expect(Self.said(r).contains("404"), "\(Self.said(r))")
        #expect(try s.pair.summaries() == ["real": "Real", "mine": "Mine"])
        r = try await s.sync()
        #expect(r.status == 0, "\(Self.said(r))")
        await #expect(try s.serverSummaries() == ["real": "Real", "mine": "Mine"])
        #expect(try s.icsFiles().count == 2)
    }

    /// Google's rate limits (the Calendar API's "Handle API errors"): 403 with a `usageLimits`
    /// / `rateLimitExceeded` JSON body, and 429, are waited out as a 503 is, for reads and writes.
    @Test(arguments: [403, 429]) func rateLimitsAreWaitedOut(_ status: Int) async throws {
        let s = try await Setup("throttle\(status)") { behaviours, _ in
            behaviours.throttle = status
            behaviours.throttleCount = 2
        }
        defer { s.remove() }
        try s.write("e1", TestEvent.data(uid: "e1", summary: "v1", end: "20260310T110000Z"))
        var r = try await s.sync()
        #expect(r.status == 0, "\(Self.said(r))")
        #expect(s.count("throttle") == 2)
        #expect(r.stdoutText.contains("remote: 1 created"), "\(r.stdoutText)")
        try s.write("e1", TestEvent.data(uid: "e1", summary: "v2", end: "20260310T110000Z"))
        r = try await s.sync()
        #expect(r.status == 0, "\(Self.said(r))")
        await #expect(try s.serverSummaries() == ["e1": "v2"])
        #expect(try s.icsFiles() == ["e1.ics"])
    }

    /// Writes throttled too: each PUT's first answer is a rate limit, and each goes up once.
    @Test func throttledWritesGoUpOnce() async throws {
        let s = try await Setup("throttleput") { behaviours, _ in
            behaviours.throttle = 403
            behaviours.throttleCount = 3
            behaviours.throttleMethods = "PUT"
        }
        defer { s.remove() }
        for i in 1...3 {
            try s.write("e\(i)", TestEvent.data(uid: "e\(i)", summary: "v1", end: "20260310T110000Z"))
        }
        let r = try await s.sync()
        #expect(r.status == 0, "\(Self.said(r))")
        #expect(s.count("throttle") == 3)
        await #expect(try s.serverSummaries() == ["e1": "v1", "e2": "v1", "e3": "v1"])
    }
}
