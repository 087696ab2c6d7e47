import CalgwTestSupport
import Foundation
import Testing

/// The guide's mutt recipe followed to the letter, in neomutt driven through tmux: an
/// invitation delivered into bob's maildir is applied by the guide's macro (`I`, in the index
/// and in the pager), bob answers with the command `itip` printed, and the REPLY delivered into
/// alice's maildir is applied the same way. The servers schedule nothing (Radicale): every
/// message goes by mail, through msmtp to an SMTP sink, and is delivered into maildirs.
@Suite(.serialized, .timeLimit(.minutes(10))) struct NeomuttWalkTests {
    static let radicale = TestServers.selected.filter { $0 == "radicale" }

    /// One person's neomutt: a maildir, the guide's muttrc, and a tmux server of its own.
    struct Mutt {
        let maildir: URL
        let muttrc: URL
        let socket: String

        init(_ name: String, in folder: TemporaryFolder) throws {
            maildir = folder.file("\(name)-Maildir")
            for sub in ["cur", "new", "tmp"] {
                try FileManager.default.createDirectory(
                    at: maildir.appendingPathComponent(sub), withIntermediateDirectories: true)
            }
            muttrc = folder.file("\(name).muttrc")
            socket = "calgw-\(name)-\(UUID().uuidString.prefix(6))"
            // The guide's lines, as a reader copies them (their own address put in).
            try """
            set mbox_type=Maildir
            set folder=\(maildir.path)
            set spoolfile=\(maildir.path)
            set wait_key=no
            macro pager I "<pipe-message>calgw itip<enter>"
            macro index I "<pipe-message>calgw itip<enter>"

            """.write(to: muttrc, atomically: true, encoding: .utf8)
        }

        /// Delivers `mail` into the maildir's `new`, as a delivery agent does.
        func deliver(_ mail: Data) throws {
            let name = "\(Int(Date().timeIntervalSince1970)).\(UUID().uuidString.prefix(8)).calgw"
            try mail.write(to: maildir.appendingPathComponent("tmp/\(name)"))
            try FileManager.default.moveItem(
                at: maildir.appendingPathComponent("tmp/\(name)"), to: maildir.appendingPathComponent("new/\(name)"))
        }

        /// Starts neomutt on the maildir with `environment` (the pair's config and password, and
        /// `calgw` on the PATH), presses `keys` one by one, and waits until `done` holds.
        func run(keys: [String], environment: [String: String], until done: () throws -> Bool) async throws -> String {
            // Through env: tmux gives a new session's command its own PATH, whatever -e says.
            let assignments = environment.map { "'\($0.key)=\($0.value)'" }.sorted().joined(separator: " ")
            let start = [
                "-L", socket, "new-session", "-d", "-s", "walk", "-x", "160", "-y", "40",
                "env \(assignments) neomutt -n -F \(muttrc.path)",
            ]
            _ = try await ProcessRunner.run("tmux", start)
            defer { _ = try? ProcessRunner.runBlocking("tmux", ["-L", socket, "kill-server"]) }
            try await Task.sleep(for: .seconds(1))
            for key in keys {
                _ = try await ProcessRunner.run("tmux", ["-L", socket, "send-keys", "-t", "walk", key])
                try await Task.sleep(for: .milliseconds(700))
            }
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline, !(try done()) { try await Task.sleep(for: .milliseconds(200)) }
            return try await ProcessRunner.run("tmux", ["-L", socket, "capture-pane", "-p", "-t", "walk"]).stdoutText
        }
    }

    @Test(.enabled(if: !radicale.isEmpty, "needs radicale, which CALGW_TEST_SERVERS leaves out"), arguments: radicale)
    func anInvitationGoesFromAMaildirToTheOrganizersMaildir(server name: String) async throws {
        let server = try TestServers.shared(name)
        let sink = try TestSMTPSink()
        defer { sink.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (alice, bob) = try await MeetingMailWalkTests.people(on: server, in: folder, sink: sink)
        let made = try await alice.run(
            "event", ["add", "--summary", "Planning", "--start", "2027-03-10T09:00", "--attendee", "bob@example.net"],
            password: server.password)
        let uid = made.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let invitation = try #require(try sink.messages().first, "\(made.stderrText)")
        func environment(_ pair: ServerPair) -> [String: String] {
            [
                "CALGW_CONFIG": pair.config.path, "CALGW_TEST_PASSWORD": server.password, "TERM": "xterm",
                "PATH": CalgwBinary.url.deletingLastPathComponent().path + ":/usr/bin:/bin",
            ]
        }

        // bob's neomutt: the index's I applies the invitation.
        let bobsMutt = try Mutt("bob", in: folder)
        try bobsMutt.deliver(invitation.data)
        let screen = try await bobsMutt.run(keys: ["I"], environment: environment(bob)) {
            (try? bob.file(uid: uid)) != nil
        }
        #expect((try? bob.file(uid: uid)) != nil, "the invitation did not reach bob's vdir: \(screen)")

        // bob answers; the REPLY goes to alice's maildir, whose pager's I records it.
        let answer = try await bob.run("event", ["reply", uid, "--accept"], password: server.password)
        #expect(answer.status == 0, "\(answer.stderrText)")
        let reply = try #require(try sink.messages().last.flatMap { $0.to == ["alice@example.org"] ? $0 : nil })
        let alicesMutt = try Mutt("alice", in: folder)
        try alicesMutt.deliver(reply.data)
        let accepted = {
            try ServerPair.lines(try alice.file(uid: uid)).contains {
                $0.hasPrefix("ATTENDEE") && $0.contains("PARTSTAT=ACCEPTED") && $0.hasSuffix("bob@example.net")
            }
        }
        let aliceScreen = try await alicesMutt.run(
            keys: ["Enter", "I"], environment: environment(alice), until: accepted)
        #expect(try accepted(), "alice's copy does not hold bob's answer: \(aliceScreen)")
    }
}
