import Foundation
import Testing
import CalgwTestSupport

/// What an attendee (bob, with his own calgw on his default calendar) may do with an
/// invitation alice sent with `event add --attendee`, counted in alice's schedule Inbox on
/// Cyrus: the organizer's fields are refused with a word on what `event reply` does, his own
/// (an alarm) stay his and send nothing, an answer carries only its own comment and keeps the
/// organizer's SEQUENCE, and a cancelled meeting is shown so and takes no answer.
@Suite(.timeLimit(.minutes(10))) struct MeetingAttendeeTests {
    static let cyrus = TestServers.selected.filter { $0 == "cyrus" }

    /// An editor that adds an alarm to the file it is given (or applies `perl` to it).
    /// A script that edits the file it is given with `perl`, run as `/bin/sh SCRIPT` (not
    /// executed itself: a child another test forks while the script is written keeps it open for
    /// writing, and executing it then fails with "Text file busy").
    static func editor(in meeting: MeetingFixture, _ name: String, perl: String) throws -> URL {
        let script = meeting.folder.file(name)
        try "#!/bin/sh\nperl -0pi -e '\(perl)' \"$1\"\n".write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        return script
    }

    /// The unfolded lines of the component of `uid` whose RECURRENCE-ID line is `rid` (nil:
    /// the series) in the vdir's file.
    static func event(_ uid: String, rid: String?, in pair: ServerPair) throws -> [String] {
        let lines = try ServerPair.lines(try pair.file(uid: uid))
        var events: [[String]] = []
        for line in lines {
            if line == "BEGIN:VEVENT" {
                events.append([])
            } else if !events.isEmpty {
                events[events.count - 1].append(line)
            }
        }
        return events.first { event in
            rid.map { event.contains($0) } ?? !event.contains { $0.hasPrefix("RECURRENCE-ID") }
        } ?? []
    }

    @Test(.enabled(if: !cyrus.isEmpty, "needs cyrus, which CALGW_TEST_SERVERS leaves out"), arguments: cyrus)
    func anAttendeeChangesOnlyWhatIsTheirs(server name: String) async throws {
        let meeting = try await MeetingFixture(on: name, prefix: "att")
        defer { meeting.remove() }
        let add = try await meeting.calgw([
            "event", "add", "--summary", "Standup", "--start", "2027-04-05T09:00", "--rrule", "FREQ=DAILY;COUNT=3",
            "--attendee", meeting.attendee.address,
        ])
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(add.status == 0, "\(add.stderrText)")
        let pulled = try await meeting.bob(["sync"])
        #expect(pulled.status == 0, "\(pulled.stdoutText)\(pulled.stderrText)")
        let bob = try meeting.attendeePair()
        let original = try String(contentsOf: try bob.file(uid: uid), encoding: .utf8)
        let organizerInbox = { try await meeting.organizerUser.inbox(on: name, mentioning: uid) }
        await #expect(try organizerInbox().isEmpty)

        // Moving it, or retitling it, is the organizer's: refused, nothing written or sent.
        let move = try await meeting.bob(["event", "edit", uid, "--start", "2027-04-05T11:00"])
        #expect(
            move.status == 1 && move.stderrText.contains("organizer's")
                && move.stderrText.contains("calgw event reply \(uid)"),
            "\(move.status) \(move.stderrText)")
        #expect(try String(contentsOf: try bob.file(uid: uid), encoding: .utf8) == original)
        let retitle = try await meeting.bob(
            ["event", "open", uid],
            environment: [
                "VISUAL": "/bin/sh "
                    + (try Self.editor(in: meeting, "retitle", perl: "s/SUMMARY:Standup/SUMMARY:Mine/").path)
            ])
        #expect(
            retitle.status == 1 && retitle.stderrText.contains("SUMMARY"), "\(retitle.status) \(retitle.stderrText)")
        #expect(try String(contentsOf: try bob.file(uid: uid), encoding: .utf8) == original)

        // An alarm is his: written and synced, the same SEQUENCE, no message to alice.
        let alarm =
            "BEGIN:VALARM\\r\\nACTION:DISPLAY\\r\\nDESCRIPTION:Standup\\r\\nTRIGGER:-PT10M\\r\\nEND:VALARM\\r\\nEND:VEVENT"
        let opened = try await meeting.bob(
            ["event", "open", uid],
            environment: [
                "VISUAL": "/bin/sh " + (try Self.editor(in: meeting, "alarm", perl: "s/END:VEVENT/\(alarm)/").path)
            ])
        #expect(opened.status == 0, "\(opened.stderrText)")
        let series = try Self.event(uid, rid: nil, in: bob)
        #expect(series.contains("TRIGGER:-PT10M"), "\(series)")
        let sequence = series.first { $0.hasPrefix("SEQUENCE:") }
        #expect(sequence == original.components(separatedBy: "\r\n").first { $0.hasPrefix("SEQUENCE:") }, "\(series)")
        await #expect(try organizerInbox().isEmpty)

        // One occurrence answered: its exception keeps the series' SEQUENCE.
        let one = try await meeting.bob(["event", "reply", uid, "--tentative", "--occurrence", "2027-04-06T09:00"])
        #expect(one.status == 0, "\(one.stderrText)")
        let exception = try Self.event(uid, rid: "RECURRENCE-ID:20270406T090000Z", in: bob)
        #expect(exception.contains { $0.contains("PARTSTAT=TENTATIVE") }, "\(exception)")
        #expect(exception.first { $0.hasPrefix("SEQUENCE:") } == sequence, "\(exception)")

        // A comment goes with its own answer only.
        let glad = try await meeting.bob(["event", "reply", uid, "--accept", "--comment", "Glad to"])
        #expect(glad.status == 0, "\(glad.stderrText)")
        #expect(try Self.event(uid, rid: nil, in: bob).contains("COMMENT:Glad to"))
        let replies = try await organizerInbox().count
        let declined = try await meeting.bob(["event", "reply", uid, "--decline"])
        #expect(declined.status == 0, "\(declined.stderrText)")
        #expect(try !Self.event(uid, rid: nil, in: bob).contains { $0.hasPrefix("COMMENT") })
        let messages = try await organizerInbox()
        let decline =
            messages.map { $0.replacingOccurrences(of: "\r\n ", with: "") }.last { $0.contains("PARTSTAT=DECLINED") }
            ?? ""
        #expect(
            messages.count > replies && !decline.isEmpty && !decline.contains("Glad to"),
            "\(messages.count) replies: \(decline)")
    }

    @Test(.enabled(if: !cyrus.isEmpty, "needs cyrus, which CALGW_TEST_SERVERS leaves out"), arguments: cyrus)
    func aCancelledMeetingIsShownSoAndTakesNoAnswer(server name: String) async throws {
        let meeting = try await MeetingFixture(on: name, prefix: "cancel")
        defer { meeting.remove() }
        let add = try await meeting.calgw([
            "event", "add", "--summary", "Offsite", "--start", "2027-04-12T10:00", "--attendee",
            meeting.attendee.address,
        ])
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(add.status == 0, "\(add.stderrText)")
        #expect(try await meeting.bob(["sync"]).status == 0)
        let deleted = try await meeting.calgw(["event", "delete", uid])
        #expect(deleted.status == 0, "\(deleted.stderrText)")
        let pulled = try await meeting.bob(["sync"])
        #expect(pulled.status == 0, "\(pulled.stdoutText)\(pulled.stderrText)")
        let copy = try String(contentsOf: try meeting.attendeePair().file(uid: uid), encoding: .utf8)
        #expect(copy.contains("STATUS:CANCELLED"), "\(copy)")

        // (`invitations` asks the server for bob's addresses, which `list` then knows him by.)
        let waiting = try await meeting.bob(["invitations"])
        #expect(waiting.status == 0 && !waiting.stdoutText.contains(uid), "\(waiting.stdoutText)")
        let listed = try await meeting.bob(["list", "--from", "2027-04-12", "--to", "2027-04-13"])
        let row = listed.stdoutText.split(separator: "\n").first { $0.contains("Offsite") }.map(String.init) ?? ""
        #expect(row.contains("[cancelled]") && !row.contains("[to answer]"), "\(listed.stdoutText)")

        let organizerInbox = try await meeting.organizerUser.inbox(on: name, mentioning: uid).count
        let reply = try await meeting.bob(["event", "reply", uid, "--accept"])
        #expect(
            reply.status == 1 && reply.stderrText.contains("cancelled \(uid)")
                && reply.stderrText.contains("--no-reply"),
            "\(reply.status) \(reply.stderrText)")
        #expect(try await meeting.organizerUser.inbox(on: name, mentioning: uid).count == organizerInbox)
    }

    /// `invitations --json` as docs/cli.md gives it: the invitation's fields at the top (the
    /// help's `jq -r '.[].uid'` prints the UID), times in RFC 3339 with their offset, the
    /// calendar's folder, and the occurrence an invitation to one occurrence is for.
    @Test(.enabled(if: !cyrus.isEmpty, "needs cyrus, which CALGW_TEST_SERVERS leaves out"), arguments: cyrus)
    func invitationsGivesTimesAndFieldsAsTheContractSays(server name: String) async throws {
        let meeting = try await MeetingFixture(on: name, prefix: "inv")
        defer { meeting.remove() }
        let add = try await meeting.calgw([
            "event", "add", "--summary", "Weekly", "--start", "2027-04-19T10:00", "--tz", "Europe/Berlin",
            "--rrule", "FREQ=DAILY;COUNT=3", "--attendee", meeting.attendee.address,
        ])
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(add.status == 0, "\(add.stderrText)")
        #expect(try await meeting.bob(["sync"]).status == 0)

        func rows() async throws -> [[String: Any]] {
            let listed = try await meeting.bob(["invitations", "--json"])
            #expect(listed.status == 0, "\(listed.stderrText)")
            return ((try? JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]]) ?? []).filter {
                $0["uid"] as? String == uid
            }
        }
        let series = try await rows()
        #expect(series.count == 1, "\(series)")
        #expect(series.first?["start"] as? String == "2027-04-19T10:00:00+02:00", "\(series)")
        #expect(series.first?["calendar"] as? String == "bob", "\(series)")
        #expect(series.first.map { $0.keys.contains("occurrence") && $0["occurrence"] is NSNull } == true, "\(series)")
        #expect(
            (series.first?["invitation"] as? [String: Any])?["start"] as? String == "2027-04-19T10:00:00+02:00",
            "\(series)")
        let text = try await meeting.bob(["invitations"])
        #expect(text.stdoutText.contains("2027-04-19T10:00:00+02:00 (series)  Weekly"), "\(text.stdoutText)")

        // The help's example, as printed there.
        let bob = try meeting.attendeePair()
        let example = try await ProcessRunner.run(
            "/bin/sh",
            [
                "-c", "\"$0\" invitations --all --json --config \"$1\" | jq -r '.[].uid'",
                CalgwBinary.url.path, bob.config.path,
            ],
            environment: ["CALGW_TEST_PASSWORD": meeting.attendee.password, "NO_COLOR": "1"])
        #expect(
            example.stdoutText.split(separator: "\n").contains(Substring(uid)),
            "\(example.stdoutText)\(example.stderrText)")

        // Accepted, then one occurrence moved by alice: that occurrence awaits an answer again.
        #expect(try await meeting.bob(["event", "reply", uid, "--accept"]).status == 0)
        #expect(try await rows().isEmpty)
        let moved = try await meeting.calgw([
            "event", "edit", uid, "--occurrence", "2027-04-20T10:00", "--start", "2027-04-20T12:00", "--tz",
            "Europe/Berlin",
        ])
        #expect(moved.status == 0, "\(moved.stderrText)")
        #expect(try await meeting.bob(["sync"]).status == 0)
        let occurrence = try await rows()
        #expect(occurrence.count == 1, "\(occurrence)")
        #expect(occurrence.first?["occurrence"] as? String == "2027-04-20T10:00:00+02:00", "\(occurrence)")
        #expect(occurrence.first?["start"] as? String == "2027-04-20T12:00:00+02:00", "\(occurrence)")
        #expect(
            (occurrence.first?["answer"] as? String)?.hasSuffix("--occurrence 2027-04-20T10:00") == true,
            "\(occurrence)")
    }
}
