import CalgwTestSupport
import Foundation
import Testing

/// The guide's aerc and procmail recipes followed to the letter: an invitation alice's calgw
/// mailed (through msmtp to an SMTP sink; Radicale schedules nothing) reaches bob's vdir from
/// aerc's message viewer by the guide's binding, and from procmail as it is delivered into a
/// maildir, where a copy is kept.
@Suite(.serialized, .timeLimit(.minutes(10))) struct MailProgramWalkTests {
    static let radicale = MeetingMailWalkTests.radicale

    /// The folder calgw's binary is in: a mail program finds `calgw` there on its PATH.
    static var binFolder: String { CalgwBinary.url.deletingLastPathComponent().path }

    /// bob's aerc (the guide's binding in `binds.conf`'s `[view]`, Debian's defaults besides)
    /// opens the invitation in its viewer and presses `I`: the invitation is in bob's vdir.
    @Test(.enabled(if: !radicale.isEmpty, "needs radicale, which CALGW_TEST_SERVERS leaves out"), arguments: radicale)
    func aercAppliesAnInvitationFromItsViewer(server name: String) async throws {
        let walk = try await MeetingMailWalkTests.Invited(on: name, applied: false)
        defer { walk.finish() }
        let (server, folder, bob, uid) = (walk.server, walk.folder, walk.bob, walk.uid)
        let invitation = walk.invitation

        // bob's mail: a maildir with an INBOX; aerc's accounts.conf and binds.conf.
        let inbox = folder.file("bob-mail/INBOX")
        for sub in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(
                at: inbox.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        try invitation.data.write(to: inbox.appendingPathComponent("new/1.invitation"))
        let config = folder.file("bob-config/aerc")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let accounts = config.appendingPathComponent("accounts.conf")
        try """
        [bob]
        source = maildir://\(folder.file("bob-mail").path)
        default = INBOX
        from = Bob <bob@example.net>

        """.write(to: accounts, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: accounts.path)
        let defaults = try String(contentsOfFile: "/usr/share/aerc/binds.conf", encoding: .utf8)
        #expect(defaults.contains("\n[view]\n"), "Debian's aerc names its viewer's section [view]")
        try defaults.replacingOccurrences(
            of: "\n[view]\n", with: "\n[view]\nI = :pipe -m calgw itip --address mailto:bob@example.net<Enter>\n"
        ).write(to: config.appendingPathComponent("binds.conf"), atomically: true, encoding: .utf8)

        let socket = "calgw-aerc-\(UUID().uuidString.prefix(6))"
        let environment = [
            "XDG_CONFIG_HOME": folder.file("bob-config").path, "CALGW_CONFIG": bob.config.path,
            "CALGW_TEST_PASSWORD": server.password, "TERM": "xterm-256color", "PATH": "\(Self.binFolder):/usr/bin:/bin",
        ].map { "'\($0.key)=\($0.value)'" }.sorted().joined(separator: " ")
        _ = try await ProcessRunner.run(
            "tmux",
            ["-L", socket, "new-session", "-d", "-s", "walk", "-x", "160", "-y", "40", "env \(environment) aerc"])
        defer { _ = try? ProcessRunner.runBlocking("tmux", ["-L", socket, "kill-server"]) }
        func screen() async throws -> String {
            try await ProcessRunner.run("tmux", ["-L", socket, "capture-pane", "-p", "-t", "walk"]).stdoutText
        }
        // The message list shows the invitation; Enter opens it in the viewer, where I is bound.
        var deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !(try await screen()).contains("Review") { try await Task.sleep(for: .seconds(0.3)) }
        _ = try await ProcessRunner.run("tmux", ["-L", socket, "send-keys", "-t", "walk", "Enter"])
        // The viewer shows the mail's readable part ("Organizer:"); then I, again if a busy
        // machine let the key go by (a second itip of the same invitation changes nothing).
        deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !(try await screen()).contains("Organizer:") {
            try await Task.sleep(for: .seconds(0.3))
        }
        deadline = Date().addingTimeInterval(40)
        var pressed = Date.distantPast
        while Date() < deadline, (try? bob.file(uid: uid)) == nil {
            if Date().timeIntervalSince(pressed) > 8, (try await screen()).contains("Organizer:") {
                _ = try await ProcessRunner.run("tmux", ["-L", socket, "send-keys", "-t", "walk", "I"])
                pressed = Date()
            }
            try await Task.sleep(for: .seconds(0.3))
        }
        // aerc shows the command's output in a tab of its own.
        deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !(try await screen()).contains("added \(uid)") {
            try await Task.sleep(for: .seconds(0.3))
        }
        let shown = try await screen()
        #expect((try? bob.file(uid: uid)) != nil, "the invitation did not reach bob's vdir: \(shown)")
        #expect(shown.contains("added \(uid)"), "aerc shows calgw's words: \(shown)")
    }

    /// The guide's procmail lines in a procmailrc: procmail starts its commands with a PATH and
    /// environment of its own, so the recipe names both; the invitation (multipart, its calendar
    /// part inside) is applied and a copy delivered into the maildir; a mail without a calendar
    /// part only delivered.
    @Test(.enabled(if: !radicale.isEmpty, "needs radicale, which CALGW_TEST_SERVERS leaves out"), arguments: radicale)
    func procmailAppliesInvitationsAsTheyArrive(server name: String) async throws {
        let walk = try await MeetingMailWalkTests.Invited(on: name)
        defer { walk.finish() }
        // A second invitation, from a fresh walk of alice's, for bob's procmail to apply.
        let made = try await walk.alice.run(
            "event", ["add", "--summary", "Retro", "--start", "2027-03-12T09:00", "--attendee", "bob@example.net"],
            password: walk.server.password)
        let uid = made.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let mail = try #require(try walk.sink.messages().last, "\(made.stderrText)")
        #expect(String(decoding: mail.data, as: UTF8.self).contains("Content-Type: multipart/"))
        let maildir = walk.folder.file("bob-Maildir")
        for sub in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(
                at: maildir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        let log = walk.folder.file("procmail.log")
        // VERBOSE: procmail logs what it runs (not the command's output), as a reader checks it.
        let rc = walk.folder.file("procmailrc")
        // The guide's recipe, with the reader's own paths and address put in.
        try """
        PATH=\(Self.binFolder):/usr/bin:/bin
        CALGW_CONFIG=\(walk.bob.config.path)
        CALGW_TEST_PASSWORD=\(walk.server.password)
        DEFAULT=\(maildir.path)/
        LOGFILE=\(log.path)
        VERBOSE=yes
        :0 c
        * HB ?? ^Content-Type:.*text/calendar
        | calgw itip --address mailto:bob@example.net

        """.write(to: rc, atomically: true, encoding: .utf8)
        for message in [mail.data, Data("From: carol@example.com\nSubject: lunch?\n\nAt noon.\n".utf8)] {
            let delivered = try await ProcessRunner.run(
                "/usr/bin/procmail", ["-m", rc.path], stdin: message, environment: [:], deadline: 120)
            #expect(delivered.status == 0, "\(delivered.stderrText)")
        }
        // With `c`, procmail delivers and leaves the command running in a copy of itself.
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, (try? walk.bob.file(uid: uid)) == nil { try await Task.sleep(for: .seconds(0.2)) }
        #expect((try? walk.bob.file(uid: uid)) != nil, "\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        let kept = try FileManager.default.contentsOfDirectory(atPath: maildir.appendingPathComponent("new").path)
        #expect(kept.count == 2, "both mails delivered: \(kept)")
        let said = try String(contentsOf: log, encoding: .utf8)
        #expect(
            said.contains("Executing \"calgw,itip,--address,mailto:bob@example.net\"")
                && said.components(separatedBy: "Executing").count == 2, "only the invitation is piped: \(said)")
    }

    /// `itip --accept --comment`, as a macro runs it: the invitation is applied and answered in
    /// one step, and the answer, with the comment, mailed to the organizer.
    @Test(.enabled(if: !radicale.isEmpty, "needs radicale, which CALGW_TEST_SERVERS leaves out"), arguments: radicale)
    func itipAppliesAndAnswersInOneStep(server name: String) async throws {
        let walk = try await MeetingMailWalkTests.Invited(on: name, applied: false)
        defer { walk.finish() }
        let (server, sink, bob, uid) = (walk.server, walk.sink, walk.bob, walk.uid)
        let invitation = walk.invitation
        let result = try await CalgwBinary.run(
            ["itip", "--accept", "--comment", "Gladly", "--config", bob.config.path], stdin: invitation.data,
            environment: ["CALGW_TEST_PASSWORD": server.password])
        #expect(
            result.status == 0 && result.stdoutText.hasPrefix("added \(uid)"),
            "\(result.stdoutText) \(result.stderrText)")
        #expect(
            try ServerPair.lines(try bob.file(uid: uid)).contains {
                $0.hasPrefix("ATTENDEE") && $0.contains("PARTSTAT=ACCEPTED") && $0.hasSuffix("bob@example.net")
            })
        let reply = try #require(try sink.messages().last, "\(result.stderrText)")
        #expect(reply.to == ["alice@example.org"])
        let read = try await MeetingMailWalkTests.reads(reply.data)
        #expect(read["method"] == "REPLY" && read["comment"] == "Gladly", "\(read)")
    }
}
