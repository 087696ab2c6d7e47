import Foundation
import Testing
import CalgwTestSupport
import CalendarSync

/// Answering an invitation from the command line, on the servers that schedule: the
/// organizer's client invites bob; bob's calgw pulls the invitation into his vdir and runs
/// `calgw event reply UID --accept`; exactly one reply reaches the organizer's Inbox (Cyrus
/// sends it and shows bob's answer in her copy; on DAViCal, whose reply code fails, calgw POSTs
/// it to bob's Outbox). `calgw invitations` lists it until it is answered.
@Suite(.timeLimit(.minutes(10))) struct MeetingReplyTests {
    static let scheduling = MeetingCopyTests.scheduling

    /// The text of the resource holding `uid` in `calendar`, read as `user`.
    static func copy(of uid: String, in calendar: URL, as user: TestServer.Attendee) async throws -> String? {
        let auth = ["-s", "--max-time", "60", "-u", "\(user.username):\(user.password)"]
        let listing = try await ProcessRunner.run(
            "curl", auth + ["-X", "PROPFIND", "-H", "Depth: 1", calendar.absoluteString]
        ).stdoutText
        let origin = URL(string: "/", relativeTo: calendar)!.absoluteURL
        for match in listing.matches(of: /<(?:D:)?href>([^<]+\.ics)<\/(?:D:)?href>/) {
            let text = try await ProcessRunner.run(
                "curl", auth + [URL(string: String(match.1), relativeTo: origin)!.absoluteString]
            ).stdoutText
            if text.contains("UID:\(uid)") { return text }
        }
        return nil
    }

    /// bob's default calendar, where the server files the invitations it delivers to him.
    static func defaultCalendar(of attendee: TestServer.Attendee, on server: String) -> URL {
        attendee.home.appendingPathComponent(TestServer.defaultCalendar(on: server), isDirectory: true)
    }

    @Test(
        .enabled(
            if: !scheduling.isEmpty,
            "needs a server that schedules (cyrus, davical, sabre), which CALGW_TEST_SERVERS leaves out"),
        arguments: scheduling)
    func anInvitationIsAnsweredWithOneReply(server name: String) async throws {
        let own = try AttendeeServer(name)
        defer { own.release() }
        let server = own.server
        let attendee = try #require(server.attendee, "the \(name) script printed no second user")
        let organizer = try #require(server.address)
        let id = UUID().uuidString.prefix(8).lowercased()
        let uid = "invite-\(id)"

        // The organizer's own client stores the meeting: the server invites bob.
        let calendar = server.newCollectionURL(prefix: "org")
        try await server.makeCalendar(calendar)
        let meeting = MeetingCopyTests.meeting(uid, summary: "Review", organizer: organizer, attendee: attendee.address)
        let file = try TemporaryFolder()
        defer { file.remove() }
        try Data(meeting.utf8).write(to: file.file("m.ics"))
        let put = try await ProcessRunner.run(
            "curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "-u", "\(server.username):\(server.password)",
                "-T", file.file("m.ics").path, "-H", "Expect:", "-H", "Content-Type: text/calendar",
                calendar.appendingPathComponent("\(uid).ics").absoluteString,
            ])
        #expect(["201", "204"].contains(put.stdoutText), "\(name): \(put.stdoutText)")
        #expect(try await attendee.inbox(on: name, mentioning: uid).count == 1, "\(name): bob was not invited")

        // bob's calgw: his default calendar into a vdir.
        var bob = server
        bob.username = attendee.username
        bob.password = attendee.password
        bob.home = attendee.home
        let pair = try ServerPair(file, "bob", server: bob, collection: Self.defaultCalendar(of: attendee, on: name))
        let pulled = try await pair.run("sync", password: bob.password)
        #expect(pulled.status == 0, "\(name): \(pulled.stdoutText)\(pulled.stderrText)")
        let invitation = try String(contentsOf: try pair.file(uid: uid), encoding: .utf8)
        #expect(invitation.contains("PARTSTAT=NEEDS-ACTION"), "\(name): \(invitation)")

        // It awaits bob's answer, with the command that gives it.
        let waiting = try await CalgwBinary.run(
            ["invitations", "--json", "--config", pair.config.path], environment: ["CALGW_TEST_PASSWORD": bob.password])
        // This invitation's rows only.
        let rows = ((try? JSONSerialization.jsonObject(with: waiting.stdout) as? [[String: Any]]) ?? [])
            .filter { ($0["invitation"] as? [String: Any])?["uid"] as? String == uid }
        #expect(waiting.status == 0 && rows.count == 1, "\(name): \(waiting.stdoutText)\(waiting.stderrText)")
        #expect(
            (rows.first?["answer"] as? String) == "calgw event reply \(uid) --accept", "\(name): \(waiting.stdoutText)")
        #expect(
            ((rows.first?["invitation"] as? [String: Any])?["summary"] as? String) == "Review",
            "\(name): \(waiting.stdoutText)")

        // `list` shows bob's own answer, by the addresses `invitations` was given by the server.
        func ownAnswer() async throws -> (json: String?, table: String) {
            let window = ["--from", "2027-02-28", "--to", "2027-03-03", "--config", pair.config.path]
            let json = try await CalgwBinary.run(["list", "--json"] + window, environment: ["TZ": "UTC"])
            let rows = (try? JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]]) ?? []
            let table = try await CalgwBinary.run(["list"] + window, environment: ["TZ": "UTC"]).stdoutText
            return (
                rows.first { $0["uid"] as? String == uid }?["ownParticipationStatus"] as? String,
                table.split(separator: "\n").first { $0.contains("Review") }.map(String.init) ?? ""
            )
        }
        let asked = try await ownAnswer()
        #expect(asked.json == "NEEDS-ACTION" && asked.table.contains("[to answer]"), "\(name): \(asked)")

        let organizerInbox = TestServer.Attendee(
            username: server.username, password: server.password, home: server.home, address: organizer)
        let before = try await organizerInbox.inbox(on: name, mentioning: uid).count
        let reply = try await CalgwBinary.run(
            ["event", "reply", uid, "--accept", "--comment", "Glad to", "--config", pair.config.path],
            environment: ["CALGW_TEST_PASSWORD": bob.password])
        // DAViCal 1.1.12 as its admin screen sets it up (every schedule Inbox of the calendar type)
        // fails the answer's write in its own code (500, storing nothing): calgw stores bob's copy
        // so that DAViCal sends nothing for it, and POSTs the REPLY to his schedule Outbox.
        // sabre/dav's reply leaves the comment out, and calgw says so rather than that it was sent.
        let commentLost = ServerFacts.named(name)?.keepsReplyComment == false
        #expect(
            reply.status == 0 && reply.stderrText.contains("without its comment") == commentLost,
            "\(name): \(reply.stdoutText)\(reply.stderrText)")
        let answered = try String(contentsOf: try pair.file(uid: uid), encoding: .utf8).replacingOccurrences(
            of: "\r\n ", with: "")
        #expect(answered.contains("PARTSTAT=ACCEPTED") && answered.contains("COMMENT:Glad to"), "\(name): \(answered)")

        let answeredNow = try await ownAnswer()
        #expect(answeredNow.json == "ACCEPTED" && answeredNow.table.contains("[accepted]"), "\(name): \(answeredNow)")

        let after = try await CalgwBinary.run(
            ["invitations", "--config", pair.config.path], environment: ["CALGW_TEST_PASSWORD": bob.password])
        #expect(after.status == 0 && !after.stdoutText.contains(uid), "\(name): \(after.stdoutText)")

        // Exactly one reply reached the organizer, with bob's answer and comment.
        let replies = try await organizerInbox.inbox(on: name, mentioning: uid)
        #expect(replies.count == before + 1, "\(name): \(replies.count - before) replies")
        let accepted = replies.filter {
            $0.contains("METHOD:REPLY") && $0.contains("PARTSTAT=ACCEPTED")
                && $0.contains("COMMENT:Glad to") != commentLost
        }
        #expect(accepted.count == 1, "\(name): \(replies)")
        let copy = try await ProcessRunner.run(
            "curl",
            [
                "-s", "-u", "\(server.username):\(server.password)",
                calendar.appendingPathComponent("\(uid).ics").absoluteString,
            ]
        ).stdoutText
            .replacingOccurrences(of: "\r\n ", with: "")
        let bobLine = copy.components(separatedBy: "\r\n").first {
            $0.hasPrefix("ATTENDEE") && $0.lowercased().contains(attendee.address.lowercased())
        }
        if name == "davical" {
            // DAViCal leaves the organizer's copy to her client, which applies the REPLY; bob's
            // copy on the server holds his answer, and his next sync has nothing to do.
            #expect(bobLine?.contains("PARTSTAT=NEEDS-ACTION") == true, "\(name): \(copy)")
            let bobs = try await Self.copy(of: uid, in: Self.defaultCalendar(of: attendee, on: name), as: attendee)?
                .replacingOccurrences(of: "\r\n ", with: "")
            #expect(bobs?.contains("PARTSTAT=ACCEPTED") == true, "\(name): \(bobs ?? "no copy")")
            // The copy of the REPLY DAViCal files in bob's own Inbox is removed: his calgw
            // applied and removed the invitation, so nothing of this meeting is left there.
            let own = try await attendee.inbox(on: name, mentioning: uid)
            #expect(own.isEmpty, "\(name): \(own)")
            let quiet = try await pair.run("sync", ["--json"], password: bob.password)
            #expect(
                quiet.status == 0 && JSONCounts.writes(in: quiet.stdoutText) == 0
                    && !quiet.stdoutText.contains("held back"), "\(name): \(quiet.stdoutText)")
        } else {
            // Cyrus applies the reply to the organizer's copy itself.
            #expect(bobLine?.contains("PARTSTAT=ACCEPTED") == true, "\(name): \(copy)")
        }

        // Answering a meeting where one is not invited is refused: --address adds to the
        // account's addresses, and neither names an attendee of this one.
        let other = "other-\(uid)"
        try Data(
            MeetingCopyTests.meeting(
                other, summary: "Not for bob", organizer: organizer, attendee: "mailto:carol@example.net"
            ).utf8
        ).write(to: pair.vdir.appendingPathComponent("\(other).ics"))
        let organizes = try await CalgwBinary.run([
            "event", "reply", other, "--decline", "--address",
            attendee.address.replacingOccurrences(of: "bob", with: "nobody"),
            "--offline", "--config", pair.config.path,
        ])
        #expect(
            organizes.status == 1 && organizes.stderrText.contains("you are not invited"),
            "\(name): \(organizes.stderrText)")
    }

    /// What the person asks for schedules, once: `event add --attendee` invites (one inbox
    /// message), `event edit` of the meeting updates the attendee's copy, `event delete`
    /// sends one cancellation.
    @Test(
        .enabled(
            if: !scheduling.isEmpty,
            "needs a server that schedules (cyrus, davical, sabre), which CALGW_TEST_SERVERS leaves out"),
        arguments: scheduling)
    func aMeetingMadeEditedAndDeletedSendsOneMessageEach(server name: String) async throws {
        let isolated = try AttendeeServer(name)
        defer { isolated.release() }
        let meeting = try await MeetingFixture(server: isolated.server, prefix: "own")
        defer { meeting.remove() }
        let (server, attendee, collection, pair, calgw) = (
            meeting.server, meeting.attendee, meeting.collection, meeting.pair, meeting.calgw
        )
        let bare = attendee.address.replacingOccurrences(of: "mailto:", with: "")
        let add = try await calgw([
            "event", "add", "--summary", "Planning", "--start", "2027-03-05T10:00", "--attendee", bare,
        ])
        #expect(add.status == 0, "\(name): \(add.stderrText)")
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let invited = try await attendee.inbox(on: name, mentioning: uid)
        #expect(
            invited.count == 1 && invited.first?.contains("METHOD:REQUEST") == true,
            "\(name): \(invited.count) messages")
        let file = try String(contentsOf: try pair.file(uid: uid), encoding: .utf8).replacingOccurrences(
            of: "\r\n ", with: "")
        #expect(file.contains("ORGANIZER:\(server.address ?? "?")") && file.contains("RSVP=TRUE"), "\(name): \(file)")
        // The server rewrote what it sent invitations for (SCHEDULE-STATUS on bob's line) and
        // answered without an ETag: the vdir holds the server's version, and a sync is a no-op.
        let stored = try await ProcessRunner.run(
            "curl",
            [
                "-s", "-u", "\(server.username):\(server.password)",
                collection.appendingPathComponent("\(uid).ics").absoluteString,
            ]
        ).stdoutText
        #expect(
            stored.contains("SCHEDULE-STATUS") && file.contains("SCHEDULE-STATUS"), "\(name): the vdir holds \(file)")
        let quiet = try await pair.run("sync", ["--json"], password: server.password)
        #expect(quiet.status == 0 && JSONCounts.writes(in: quiet.stdoutText) == 0, "\(name): \(quiet.stdoutText)")

        // The update reaches bob's copy and his Inbox once (Cyrus and sabre/dav add a message,
        // DAViCal replaces its own).
        let edit = try await calgw([
            "event", "edit", uid, "--summary", "Planning, moved", "--start", "2027-03-06T10:00",
        ])
        #expect(edit.status == 0, "\(name): \(edit.stderrText)")
        let inbox = try await attendee.inbox(on: name, mentioning: uid)
        let copy = try await Self.copy(of: uid, in: Self.defaultCalendar(of: attendee, on: name), as: attendee)
        let updated =
            copy?.contains("DTSTART:20270306T100000Z") == true
            || inbox.contains { $0.contains("METHOD:REQUEST") && $0.contains("DTSTART:20270306T100000Z") }
        #expect(
            updated,
            "\(name): the update did not reach bob: \(copy ?? "no copy"); the edit said: \(edit.stdoutText)\(edit.stderrText)"
        )
        #expect(
            inbox.count == (["cyrus", "sabre"].contains(name) ? 2 : 1),
            "\(name): \(inbox.count) messages after the edit")

        // Answering a meeting one organizes is refused, and changes nothing.
        let own = try await calgw(["event", "reply", uid, "--accept"])
        #expect(own.status == 1 && own.stderrText.contains("you organize \(uid)"), "\(name): \(own.stderrText)")

        let delete = try await calgw(["event", "delete", uid])
        #expect(delete.status == 0, "\(name): \(delete.stderrText)")
        let gone = try await ProcessRunner.run(
            "curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "-u", "\(server.username):\(server.password)",
                collection.appendingPathComponent("\(uid).ics").absoluteString,
            ])
        #expect(gone.stdoutText == "404", "\(name): the meeting is still on the server: \(gone.stdoutText)")
        let cancellations = try await attendee.inbox(on: name, mentioning: uid).filter { $0.contains("METHOD:CANCEL") }
            .count
        if name == "davical" && delete.stderrText.contains("failed to send the meeting's cancellation") {
            // DAViCal 1.1.12 fails (500, "Call to undefined method stdClass::dav_name()" in its
            // schedule-functions.php) when it finds bob's invitation in his Inbox rather than
            // his calendar: calgw deletes the meeting as a copy and says nobody was told.
            #expect(cancellations == 0, "\(name): \(cancellations) cancellations")
        } else {
            #expect(
                delete.stderrText.isEmpty && cancellations == 1,
                "\(name): \(cancellations) cancellations; \(delete.stderrText)")
        }

        let bad = try await calgw([
            "event", "add", "--summary", "X", "--start", "2027-03-05T10:00", "--attendee", "not an address",
        ])
        #expect(bad.status == 2 && bad.stderrText.contains("is not an address"), "\(name): \(bad.stderrText)")
    }
}
