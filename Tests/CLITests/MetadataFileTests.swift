import Foundation
import Testing
import CalgwTestSupport

/// A vdir's `displayname` and `color` files as people write them (`echo Work > displayname`,
/// with a trailing newline) reach the server without the newline, as with vdirsyncer.
@Suite(.timeLimit(.minutes(10))) struct MetadataFileTests {
    @Test func aTrailingNewlineInDisplaynameAndColorIsNotPushed() async throws {
        let pair = try await InteropPair(prefix: "meta", withSamples: false)
        defer { pair.remove() }
        var r = try await pair.calgw("sync")
        #expect(r.status == 0, "\(r.stderrText)")
        try Data("Renamed by echo\n".utf8).write(to: pair.vdir.appendingPathComponent("displayname"))
        try Data("#00FF00\r\n".utf8).write(to: pair.vdir.appendingPathComponent("color"))
        r = try await pair.calgw("sync")
        #expect(r.status == 0, "\(r.stderrText)")
        // The run says what it changed on the server.
        #expect(
            r.stdoutText.contains("the remote calendar's name is now \"Renamed by echo\"")
                && r.stdoutText.contains("the remote calendar's color is now #00FF00"), "\(r.stdoutText)")

        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:propfind xmlns:d="DAV:" xmlns:ic="http://apple.com/ns/ical/"><d:prop><d:displayname/><ic:calendar-color/></d:prop></d:propfind>
            """
        let answer = try await ProcessRunner.run(
            "curl",
            [
                "-s", "-u", "\(pair.server.username):\(pair.server.password)", "-X", "PROPFIND",
                "-H", "Depth: 0", "-H", "Content-Type: application/xml", "--data-binary", body,
                pair.collection.absoluteString,
            ])
        let xml = answer.stdoutText
        #expect(xml.contains(">Renamed by echo<"), "the server's displayname: \(xml)")
        #expect(
            xml.contains(">#00FF00") && !xml.contains("#00FF00\n") && !xml.contains("#00FF00\r")
                && !xml.contains("#00FF00&#13;"),
            "the server's color: \(xml)")
        // The next sync finds nothing to do: the name and color agree on both sides.
        r = try await pair.calgw("sync")
        #expect(
            r.status == 0
                && r.stdoutText.contains(
                    "local: 0 created, 0 updated, 0 deleted; remote: 0 created, 0 updated, 0 deleted")
                && !r.stdoutText.contains("is now"), "\(r.stdoutText) \(r.stderrText)")
    }
}
