import Foundation
import Testing
import CalgwTestSupport

/// DAViCal 1.1.12 fails an attendee's answer to some meetings (500 and a PHP stack trace, from
/// its reply code, on every try; a plain PUT of the answer fails the same way). bob's pair
/// reaches the real DAViCal through a proxy answering each of his PUTs as DAViCal then does,
/// so the failure does not hang on the server's state. The answer command says
/// the server failed to deliver it and exits non-zero, without the server's page; the answer
/// stays in bob's vdir, and the pair is not failing on every later run: the next sync exits 0
/// and says once that the change is held back, the one after says nothing of it.
@Suite(.timeLimit(.minutes(10))) struct MeetingServerFaultTests {
    @Test(.enabled(if: TestServers.selected.contains("davical"), "needs davical, which CALGW_TEST_SERVERS leaves out"))
    func anAnswerTheServerFailsOnIsSaidOnceAndHeldBack() async throws {
        let own = try AttendeeServer("davical")
        defer { own.release() }
        let meeting = try await MeetingFixture(server: own.server, prefix: "fault")
        defer { meeting.remove() }
        let add = try await meeting.calgw([
            "event", "add", "--summary", "Review", "--start", "2027-04-05T10:00", "--attendee",
            meeting.attendee.address,
        ])
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(add.status == 0 && !uid.isEmpty, "\(add.stderrText)")
        // bob's calgw, through the proxy: every PUT answered 500 with DAViCal's stack trace.
        let proxy = try TestProxies.fault(
            upstream: meeting.server.url, script: "500,500,500,500,500", onlyMethods: "PUT")
        defer { proxy.stop() }
        var server = meeting.server
        (server.username, server.password, server.home) = (
            meeting.attendee.username, meeting.attendee.password, meeting.attendee.home
        )
        let pair = try ServerPair(
            meeting.folder, "bob", server: server, collection: proxy.proxied(meeting.attendeeCalendar))
        func bob(_ arguments: [String]) async throws -> ProcessRunner.Result {
            try await CalgwBinary.run(
                arguments + ["--config", pair.config.path],
                environment: ["CALGW_TEST_PASSWORD": server.password, "TZ": "UTC"])
        }
        let pulled = try await bob(["sync"])
        #expect(pulled.status == 0, "\(pulled.stdoutText)\(pulled.stderrText)")

        let reply = try await bob(["event", "reply", uid, "--accept", "--address", meeting.attendee.address])
        let said = reply.stdoutText + reply.stderrText
        #expect(reply.status != 0, "the reply command exited 0: \(said)")
        #expect(said.contains("your answer was not delivered") && said.contains("answered 500"), "\(said)")
        #expect(said.contains("Call to a member function dav_name() on null"), "no first line: \(said)")
        #expect(!said.contains("Stack trace") && !said.contains("#0 "), "the server's page was printed: \(said)")
        let file = try String(contentsOf: try pair.file(uid: uid), encoding: .utf8)
        #expect(file.replacingOccurrences(of: "\r\n ", with: "").contains("PARTSTAT=ACCEPTED"), "\(file)")

        // The next runs exit 0: the first says once what is held back, the second nothing.
        let first = try await bob(["sync"])
        #expect(first.status == 0, "\(first.stdoutText)\(first.stderrText)")
        #expect(first.stdoutText.contains("\(uid): held back"), "\(first.stdoutText)\(first.stderrText)")
        let second = try await bob(["sync"])
        #expect(
            second.status == 0 && !second.stdoutText.contains("held back") && second.stderrText.isEmpty,
            "\(second.stdoutText)\(second.stderrText)")
        let push = try await bob(["push", "--json"])
        #expect(push.status == 0, "\(push.stdoutText)\(push.stderrText)")
        // The answer is still bob's, in his vdir.
        let kept = try String(contentsOf: try pair.file(uid: uid), encoding: .utf8)
        #expect(kept.replacingOccurrences(of: "\r\n ", with: "").contains("PARTSTAT=ACCEPTED"), "\(kept)")
    }
}
