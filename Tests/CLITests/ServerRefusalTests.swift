import Foundation
import Testing
import CalgwTestSupport

/// An item the server refuses for its content is said once and not sent again until it
/// changes: the run goes on and ends well, and the next runs are quiet. sabre/dav answers 415
/// to a VEVENT without DTSTART, which `calgw lint` calls an error too.
@Suite(.timeLimit(.minutes(10))) struct ServerRefusalTests {
    static let sabre = TestServers.selected.filter { $0 == "sabre" }

    @Test(.enabled(if: !sabre.isEmpty, "needs sabre, which CALGW_TEST_SERVERS leaves out"), arguments: sabre)
    func aRefusedItemIsSaidOnceAndSentAgainOnlyWhenItChanges(server name: String) async throws {
        let server = try TestServers.shared(name)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let collection = server.newCollectionURL(prefix: "refused")
        try await server.makeCalendar(collection)
        let pair = try ServerPair(folder, "refused", server: server, collection: collection)
        let id = UUID().uuidString.prefix(8).lowercased()
        let good = TestEvent.ics(uid: "good-\(id)", summary: "Fine", start: "20270301T100000Z", end: "20270301T110000Z")
        let bad = good.replacingOccurrences(of: "good-\(id)", with: "bad-\(id)")
            .replacingOccurrences(of: "DTSTART:20270301T100000Z\r\n", with: "")
            .replacingOccurrences(of: "DTEND:20270301T110000Z\r\n", with: "")
        #expect(!bad.contains("DTSTART"))
        try Data(good.utf8).write(to: pair.vdir.appendingPathComponent("good.ics"))
        try Data(bad.utf8).write(to: pair.vdir.appendingPathComponent("bad.ics"))

        let lint = try await CalgwBinary.run(["lint", pair.vdir.appendingPathComponent("bad.ics").path])
        #expect(lint.status != 0 && lint.stdoutText.contains("DTSTART"), "\(lint.stdoutText)\(lint.stderrText)")

        let first = try await pair.run("sync", password: server.password)
        let said = first.stdoutText + first.stderrText
        #expect(first.status == 0, "\(said)")
        #expect(said.contains("remote: 1 created"), "\(said)")
        #expect(said.components(separatedBy: "the server refused it (415").count - 1 == 1, "\(said)")

        let second = try await pair.run("sync", password: server.password)
        #expect(
            second.status == 0 && !(second.stdoutText + second.stderrText).contains("refused"),
            "\(second.stdoutText)\(second.stderrText)")

        // Mended, it is sent.
        let mended = bad.replacingOccurrences(of: "SUMMARY:Fine", with: "DTSTART:20270302T100000Z\r\nSUMMARY:Mended")
        try Data(mended.utf8).write(to: pair.vdir.appendingPathComponent("bad.ics"))
        let third = try await pair.run("sync", password: server.password)
        #expect(
            third.status == 0 && third.stdoutText.contains("remote: 1 created"),
            "\(third.stdoutText)\(third.stderrText)")
    }
}
