import Foundation
import Testing
import CalgwTestSupport

/// The walk of issue 56 on DAViCal as its admin screen sets it up (every user's `.in` a
/// calendar): alice organizes a weekly meeting, bob attends, carol is added later. Each
/// person runs calgw on their own calendar. After every step every Inbox is counted (DAViCal
/// rewrites a message in place when a newer one for the same meeting comes, so each message is
/// told apart by its text), each message arrives once, the attendees' syncs leave their Inboxes
/// empty, and every vdir shows the meeting as alice last sent it.
@Suite(.timeLimit(.minutes(10))) struct MeetingWalkTests {
    /// One person of the walk: their calgw pair and their Inbox.
    struct Person {
        var name: String
        var user: TestServer.Attendee
        var pair: ServerPair

        func calgw(_ arguments: [String]) async throws -> ProcessRunner.Result {
            try await CalgwBinary.run(
                arguments + ["--config", pair.config.path],
                environment: ["CALGW_TEST_PASSWORD": user.password, "TZ": "UTC"])
        }

        /// The messages in this person's Inbox (all of them, whatever meeting).
        func inbox() async throws -> [String] { try await user.inbox(on: "davical", mentioning: "METHOD:") }

        /// The meeting `uid` in this person's vdir as ``MeetingWalkTests/shape(_:)`` reads it;
        /// nil when the vdir does not hold it.
        func meeting(_ uid: String) -> [String: String]? {
            guard let file = try? pair.file(uid: uid), let text = try? String(contentsOf: file, encoding: .utf8) else {
                return nil
            }
            return MeetingWalkTests.shape(text)
        }
    }

    /// What of a meeting every calendar must agree on, per event (the series, `RECURRENCE-ID`
    /// for an override): times, rule, excluded dates, status, title and who is invited.
    static func shape(_ text: String) -> [String: String] {
        let lines = text.replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\n ", with: "")
            .split(whereSeparator: \.isNewline).map(String.init)
        var shapes: [String: String] = [:]
        var event: [String] = []
        var inside = false
        for line in lines {
            if line == "BEGIN:VEVENT" {
                inside = true
                event = []
            } else if line == "END:VEVENT" {
                inside = false
                func values(_ name: String) -> [String] {
                    event.filter { $0.hasPrefix(name + ":") || $0.hasPrefix(name + ";") }.map {
                        String($0[$0.index(after: $0.lastIndex(of: ":")!)...])
                    }
                }
                let attendees = event.filter { $0.hasPrefix("ATTENDEE") }.map {
                    String($0[$0.index(after: $0.firstIndex(of: ":")!)...]).lowercased()
                }
                let key = values("RECURRENCE-ID").first ?? "series"
                let excluded = values("EXDATE").flatMap { $0.split(separator: ",") }.map(String.init).sorted()
                var fields: [String] = []
                fields.append("start " + values("DTSTART").joined())
                fields.append("end " + values("DTEND").joined())
                fields.append("rule " + values("RRULE").joined())
                fields.append("except " + excluded.joined(separator: ","))
                fields.append("status " + (values("STATUS").first ?? "CONFIRMED"))
                fields.append("summary " + values("SUMMARY").joined())
                fields.append("with " + attendees.sorted().joined(separator: ","))
                shapes[key] = fields.joined(separator: "; ")
            } else if inside {
                event.append(line)
            }
        }
        return shapes
    }

    @Test(.enabled(if: TestServers.selected.contains("davical"), "needs davical, which CALGW_TEST_SERVERS leaves out"))
    func everyMessageArrivesOnceAndEveryCalendarShowsTheOrganizersMeeting() async throws {
        let own = try AttendeeServer("davical")
        defer { own.release() }
        let meeting = try await MeetingFixture(server: own.server, prefix: "walk")
        defer { meeting.remove() }
        let carolUser = try meeting.server.addDAViCalUser("carol")
        var carolServer = meeting.server
        (carolServer.username, carolServer.password, carolServer.home, carolServer.address) = (
            carolUser.username, carolUser.password, carolUser.home, carolUser.address
        )
        let alice = Person(name: "alice", user: meeting.organizerUser, pair: meeting.pair)
        let bob = Person(name: "bob", user: meeting.attendee, pair: try meeting.attendeePair())
        let carol = Person(
            name: "carol", user: carolUser,
            pair: try ServerPair(
                meeting.folder, "carol", server: carolServer,
                collection: carolUser.home.appendingPathComponent("calendar/", isDirectory: true)))

        /// Runs `arguments` as `person`, expecting exit 0.
        func run(_ person: Person, _ arguments: [String]) async throws -> ProcessRunner.Result {
            let result = try await person.calgw(arguments)
            #expect(
                result.status == 0,
                "\(person.name) \(arguments.joined(separator: " ")): \(result.stdoutText)\(result.stderrText)")
            return result
        }
        // What alice's sync leaves in her Inbox (see step 2).
        var aliceKeeps: [String] = []
        /// Each person's Inbox holds `expected` messages (alice besides what she keeps), each
        /// naming the step's meeting(s).
        func inboxes(_ step: String, _ expected: [String: Int], naming uids: [String] = []) async throws {
            for person in [alice, bob, carol] {
                var messages = try await person.inbox()
                if person.name == "alice" { messages.removeAll { aliceKeeps.contains($0) } }
                #expect(
                    messages.count == (expected[person.name] ?? 0),
                    "\(step): \(person.name)'s Inbox holds \(messages.count): \(messages)")
                for message in messages where !uids.isEmpty {
                    #expect(uids.contains { message.contains($0) }, "\(step): \(person.name) got \(message)")
                }
            }
        }
        /// The attendees' vdirs show `uid` as alice's does.
        func agree(_ step: String, _ uid: String, among people: [Person]) {
            let organizers = alice.meeting(uid)
            #expect(organizers != nil, "\(step): alice's vdir lost \(uid)")
            for person in people {
                #expect(
                    person.meeting(uid) == organizers,
                    "\(step): \(person.name) shows \(String(describing: person.meeting(uid))), alice \(String(describing: organizers))"
                )
            }
        }

        // 1. alice invites bob to a weekly meeting.
        let add = try await run(
            alice,
            [
                "event", "add", "--summary", "Weekly", "--start", "2027-03-01T10:00", "--rrule",
                "FREQ=WEEKLY;COUNT=8", "--attendee", bob.user.address,
            ])
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        try await inboxes("invite", ["bob": 1], naming: [uid])
        _ = try await run(bob, ["sync"])
        try await inboxes("bob's sync", [:])
        agree("invite", uid, among: [bob])

        // 2. bob accepts: one REPLY to alice, applied by her sync.
        _ = try await run(bob, ["event", "reply", uid, "--accept"])
        try await inboxes("accept", ["alice": 1], naming: [uid])
        // DAViCal files the REPLY bob's calgw POSTs to his Outbox (its own reply code fails
        // with these Inboxes) in alice's Inbox and changes nothing in her calendar: her plain
        // sync finds the Inbox moved, applies the answer and empties it.
        _ = try await run(alice, ["sync"])
        aliceKeeps = try await alice.inbox()
        let accepted = try String(contentsOf: try alice.pair.file(uid: uid), encoding: .utf8)
            .replacingOccurrences(of: "\r\n ", with: "")
        #expect(aliceKeeps.isEmpty, "bob's answer stayed in alice's Inbox")
        #expect(
            accepted.split(whereSeparator: \.isNewline).contains {
                $0.hasPrefix("ATTENDEE") && $0.contains("PARTSTAT=ACCEPTED") && $0.lowercased().contains("bob@")
            }, "alice's copy: \(accepted)")
        _ = try await run(bob, ["sync"])
        agree("accept", uid, among: [bob])

        // 3. alice moves the series.
        _ = try await run(alice, ["event", "edit", uid, "--start", "2027-03-01T14:00"])
        try await inboxes("move", ["bob": 1], naming: [uid])
        _ = try await run(bob, ["sync"])
        try await inboxes("bob's sync after the move", [:])
        agree("move", uid, among: [bob])

        // 4. alice cancels one occurrence.
        _ = try await run(alice, ["event", "delete", uid, "--occurrence", "2027-03-15T14:00", "--span", "this"])
        // DAViCal makes its update from bob's stored copy, with only some properties of alice's:
        // it leaves the EXDATE out. alice's calgw sends him her whole version by her Outbox.
        try await inboxes("occurrence cancelled", ["bob": 2], naming: [uid])
        _ = try await run(bob, ["sync"])
        try await inboxes("bob's sync after the cancelled occurrence", [:])
        agree("occurrence cancelled", uid, among: [bob])

        // 5. alice moves this and the following occurrences: a new series.
        let split = try await run(
            alice,
            [
                "event", "edit", uid, "--occurrence", "2027-03-29T14:00", "--span", "future", "--start",
                "2027-03-29T16:00",
            ])
        let newSeries = try #require(
            split.stdoutText.firstMatch(of: /now ([A-Za-z0-9-]+)/).map { String($0.1) }, "\(split.stdoutText)")
        // The new series' invitation; for the old one cut short, DAViCal's update (without its
        // RRULE) and alice's whole version by her Outbox.
        try await inboxes("split", ["bob": 3], naming: [uid, newSeries])
        _ = try await run(bob, ["sync"])
        try await inboxes("bob's sync after the split", [:])
        agree("split", uid, among: [bob])
        agree("split", newSeries, among: [bob])

        // 6. alice adds carol to the new series in her editor (`event open`: her action).
        let editor = meeting.folder.file("add-carol")
        try
            "#!/bin/sh\nperl -0pi -e 's/END:VEVENT/ATTENDEE;RSVP=TRUE:mailto:carol\\@example.net\\r\\nEND:VEVENT/' \"$1\"\n"
            .write(to: editor, atomically: true, encoding: .utf8)
        let opened = try await CalgwBinary.run(
            ["event", "open", newSeries, "--config", alice.pair.config.path],
            environment: ["CALGW_TEST_PASSWORD": alice.user.password, "TZ": "UTC", "VISUAL": "/bin/sh \(editor.path)"])
        #expect(opened.status == 0, "\(opened.stdoutText)\(opened.stderrText)")
        try await inboxes("carol added", ["bob": 1, "carol": 1], naming: [newSeries])
        _ = try await run(bob, ["sync"])
        _ = try await run(carol, ["sync"])
        try await inboxes("bob's and carol's syncs after carol was added", [:])
        agree("carol added", newSeries, among: [bob, carol])

        // 7. alice deletes both series. DAViCal deletes bob's copies, so his sync finds his
        // calendar emptied: the Inbox's cancellations say why, and the run does not stop.
        _ = try await run(alice, ["event", "delete", uid])
        _ = try await run(alice, ["event", "delete", newSeries])
        try await inboxes("deleted", ["bob": 2, "carol": 1], naming: [uid, newSeries])
        _ = try await run(bob, ["sync"])
        _ = try await run(carol, ["sync"])
        try await inboxes("the syncs after the deletion", [:])
        for person in [bob, carol] {
            for series in [uid, newSeries] {
                let left = person.meeting(series)
                #expect(
                    left == nil || left?.values.allSatisfy { $0.contains("status CANCELLED") } == true,
                    "\(person.name) still shows \(series) as held: \(String(describing: left))")
            }
        }
    }
}
