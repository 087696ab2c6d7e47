import Foundation
import Testing
import CalgwTestSupport
import CalgwTestTraits

/// Meetings that a pair of two servers copies invite nobody. A migration from a server that does
/// not schedule (Radicale) into one that does (Cyrus), and a two-way mirror between the two
/// scheduling servers (Cyrus ⇄ DAViCal) with edits and deletions made on either side, leave the
/// attendee's schedule Inbox empty on each server: the copies are the same meetings, moved, and
/// their attendees were invited once already, elsewhere.
///
/// Each test ends with a control: a meeting written with plain curl, as a calendar client that
/// schedules would, does reach the Inbox, so the counter that reads 0 above can see a message.
@Suite(.timeLimit(.minutes(10))) struct MeetingMigrationTests {
    /// Whether every server of `names` is selected (`CALGW_TEST_SERVERS`).
    static func selected(_ names: String...) -> Bool { names.allSatisfy(TestServers.selected.contains) }

    /// A meeting `organizer` organizes with `attendee` invited, in 2027 (in the future), starting
    /// on day `index` counted from 1 March.
    static func meeting(_ uid: String, summary: String, organizer: String, attendee: String, index: Int) -> String {
        MeetingCopyTests.meeting(uid, summary: summary, organizer: organizer, attendee: attendee, day: index % 28 + 1)
    }

    /// The same meeting with `SCHEDULE-AGENT=CLIENT` on its organizer and attendees: what a
    /// client that sends the invitations itself stores on DAViCal, which then sends nothing.
    static func clientScheduled(_ ics: String) -> String {
        ics.replacingOccurrences(of: "ORGANIZER:", with: "ORGANIZER;SCHEDULE-AGENT=CLIENT:")
            .replacingOccurrences(of: "ATTENDEE;", with: "ATTENDEE;SCHEDULE-AGENT=CLIENT;")
    }

    /// PUTs `ics` as `<name>.ics` into `calendar` with curl as `side`'s user, with `headers`;
    /// returns the HTTP status.
    static func put(_ ics: String, name: String, in calendar: URL, as side: AccountFixture, headers: [String] = [])
        async throws -> String
    {
        let file = side.folder.file("upload-\(UUID().uuidString).ics")
        try Data(ics.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try await side.curl(
            [
                "--max-time", "60", "-o", "/dev/null", "-w", "%{http_code}", "-T", file.path, "-H", "Expect:",
                "-H", "Content-Type: text/calendar",
            ] + headers.flatMap { ["-H", $0] }
                + [calendar.appendingPathComponent("\(name).ics").absoluteString])
        return r.stdoutText
    }

    /// DELETEs `<name>.ics` of `calendar` as `side`'s user; returns the HTTP status.
    static func delete(_ name: String, in calendar: URL, as side: AccountFixture, headers: [String] = []) async throws
        -> String
    {
        try await side.curl(
            ["--max-time", "60", "-o", "/dev/null", "-w", "%{http_code}", "-X", "DELETE"]
                + headers.flatMap { ["-H", $0] }
                + [calendar.appendingPathComponent("\(name).ics").absoluteString]
        ).stdoutText
    }

    /// A config with one pair from `from` (a calendar of `a`) to `to` (a calendar of `b`), and
    /// the command that runs calgw on it.
    static func serverPair(_ folder: TemporaryFolder, from: URL, of a: TestServer, to: URL, of b: TestServer)
        async throws -> ([String]) async throws -> ProcessRunner.Result
    {
        let config = folder.file("mirror.toml")
        try TestPairConfig(
            name: "mirror", local: from, collection: to, journal: folder.file("mirror.sqlite"), server: b,
            passwordEnv: "REMOTE_PASSWORD",
            extra: ["local_username = \"\(a.username)\"", "local_password_env = \"LOCAL_PASSWORD\""]
        ).write(to: config)
        return { arguments in
            try await CalgwBinary.run(
                arguments + ["--config", config.path],
                environment: ["LOCAL_PASSWORD": a.password, "REMOTE_PASSWORD": b.password])
        }
    }

    /// 50 future meetings organized by the Cyrus account, inviting Cyrus's bob, live on Radicale
    /// (put there by a first `calgw sync` of a vdir); a pair Radicale → Cyrus moves them. Cyrus
    /// schedules what its users organize, so each copy stored without asking it not to would
    /// invite bob: his Inbox must get nothing, and the run after the migration writes nothing.
    @Test(.enabled(if: selected("radicale", "cyrus"), "needs radicale and cyrus, which CALGW_TEST_SERVERS leaves out"))
    func aMigrationFromRadicaleToCyrusInvitesNobody() async throws {
        let radicale = try TestServers.shared("radicale"), cyrus = try TestServers.shared("cyrus")
        let bob = try #require(cyrus.attendee, "the cyrus script printed no second user")
        let organizer = try #require(cyrus.address, "the cyrus script printed no address")
        let old = try AccountFixture(server: radicale), new = try AccountFixture(server: cyrus)
        defer { old.remove(); new.remove() }
        let id = old.id
        let count = 50
        let from = try await old.makeCalendar("old-\(id)"), to = try await new.makeCalendar("new-\(id)")

        // The old server gets the meetings from a vdir (Radicale schedules nothing).
        let filled = try ServerPair(old.folder, "fill", server: radicale, collection: from)
        for i in 0..<count {
            let uid = "mig\(i)-\(id)"
            try Data(
                Self.meeting(uid, summary: "Review \(i)", organizer: organizer, attendee: bob.address, index: i).utf8
            )
            .write(to: filled.vdir.appendingPathComponent("\(uid).ics"))
        }
        let fill = try await filled.run("sync", ["--json"], password: radicale.password)
        #expect(
            fill.status == 0 && AccountFixture.number(fill.stdoutText, ["created", "remote"]) == count,
            "filling radicale: \(fill.stdoutText)\(fill.stderrText)")

        let calgw = try await Self.serverPair(old.folder, from: from, of: radicale, to: to, of: cyrus)
        let moved = try await calgw(["sync", "--json"])
        #expect(
            moved.status == 0 && AccountFixture.number(moved.stdoutText, ["created", "remote"]) == count,
            "radicale → cyrus: \(moved.stdoutText)\(moved.stderrText)")
        let stored = try await AccountEventTests.serverText(new, to)
        #expect(stored.components(separatedBy: "UID:mig").count - 1 == count, "cyrus holds: \(stored.prefix(2000))")
        let messages = try await bob.inbox(on: "cyrus", mentioning: id)
        #expect(
            messages.isEmpty, "the migration sent bob \(messages.count) scheduling messages: \(messages.first ?? "")")

        let again = try await calgw(["sync", "--json"])
        #expect(
            again.status == 0 && JSONCounts.writes(in: again.stdoutText) == 0,
            "a second run: \(again.stdoutText)\(again.stderrText)")

        // Control: the same kind of meeting stored by a client that schedules reaches bob.
        let control = "control-\(id)"
        let put = try await Self.put(
            Self.meeting(control, summary: "Control", organizer: organizer, attendee: bob.address, index: 0),
            name: control, in: to, as: new)
        #expect(["201", "204"].contains(put), "PUT of the control meeting: \(put)")
        #expect(
            try await bob.inbox(on: "cyrus", mentioning: control).count == 1,
            "the Inbox counter saw no invitation for a meeting stored with plain curl")
    }

    /// A mirror Cyrus ⇄ DAViCal, each server holding meetings its own account organizes and its
    /// own bob attends before the first sync. The first run copies each side's meetings to the
    /// other; then each side edits and deletes a meeting the other side's account organizes, so
    /// that calgw's update and deletion land on the server where that account lives and would
    /// schedule: neither bob gets an invitation, an update or a cancellation, and a further run
    /// writes nothing.
    @Test(.enabled(if: selected("cyrus", "davical"), "needs cyrus and davical, which CALGW_TEST_SERVERS leaves out"))
    func aMirrorBetweenCyrusAndDAViCalInvitesNobody() async throws {
        let cyrus = try TestServers.shared("cyrus"), davical = try TestServers.shared("davical")
        let cyrusBob = try #require(cyrus.attendee), davicalBob = try #require(davical.attendee)
        let cyrusUser = try #require(cyrus.address), davicalUser = try #require(davical.address)
        let left = try AccountFixture(server: cyrus), right = try AccountFixture(server: davical)
        defer { left.remove(); right.remove() }
        let id = left.id
        let c = try await left.makeCalendar("mirror-\(id)"), d = try await right.makeCalendar("mirror-\(id)")
        // Cyrus stores a PUT asked not to schedule unchanged; DAViCal needs SCHEDULE-AGENT=CLIENT.
        let quietly = ["Scheduling-Enabled: F"]
        func cyrusMeeting(_ i: Int, _ summary: String) -> String {
            Self.meeting("cm\(i)-\(id)", summary: summary, organizer: cyrusUser, attendee: cyrusBob.address, index: i)
        }
        func davicalMeeting(_ i: Int, _ summary: String) -> String {
            Self.meeting(
                "dm\(i)-\(id)", summary: summary, organizer: davicalUser, attendee: davicalBob.address, index: i)
        }
        for i in 0..<3 {
            #expect(
                ["201", "204"].contains(
                    try await Self.put(cyrusMeeting(i, "Cyrus \(i)"), name: "cm\(i)", in: c, as: left, headers: quietly)
                ))
            #expect(
                ["201", "204"].contains(
                    try await Self.put(
                        Self.clientScheduled(davicalMeeting(i, "DAViCal \(i)")), name: "dm\(i)", in: d, as: right)))
        }
        func inboxes() async throws -> (cyrus: [String], davical: [String]) {
            (
                try await cyrusBob.inbox(on: "cyrus", mentioning: id),
                try await davicalBob.inbox(on: "davical", mentioning: id)
            )
        }
        var seen = try await inboxes()
        #expect(seen.cyrus.isEmpty && seen.davical.isEmpty, "the setting up scheduled: \(seen)")

        let calgw = try await Self.serverPair(left.folder, from: c, of: cyrus, to: d, of: davical)
        let first = try await calgw(["sync", "--json"])
        #expect(
            first.status == 0 && AccountFixture.number(first.stdoutText, ["created", "remote"]) == 3
                && AccountFixture.number(first.stdoutText, ["created", "local"]) == 3,
            "first run: \(first.stdoutText)\(first.stderrText)")
        seen = try await inboxes()
        #expect(
            seen.cyrus.isEmpty, "the first run sent Cyrus's bob \(seen.cyrus.count) messages: \(seen.cyrus.first ?? "")"
        )
        #expect(
            seen.davical.isEmpty,
            "the first run sent DAViCal's bob \(seen.davical.count) messages: \(seen.davical.first ?? "")")

        // On DAViCal, the copy of a Cyrus meeting is edited and another deleted (plain requests:
        // their organizer is no DAViCal user); on Cyrus, the same for DAViCal's meetings.
        let cm1 = try await #require(
            try ServerToServerTests.href(of: "cm1-\(id)", in: right, d), "no copy of cm1 on davical")
        let cm2 = try await #require(
            try ServerToServerTests.href(of: "cm2-\(id)", in: right, d), "no copy of cm2 on davical")
        let dm1 = try await #require(
            try ServerToServerTests.href(of: "dm1-\(id)", in: left, c), "no copy of dm1 on cyrus")
        let dm2 = try await #require(
            try ServerToServerTests.href(of: "dm2-\(id)", in: left, c), "no copy of dm2 on cyrus")
        #expect(
            ["201", "204"].contains(try await Self.put(cyrusMeeting(1, "Cyrus 1 moved"), name: cm1, in: d, as: right)))
        #expect(["200", "204"].contains(try await Self.delete(cm2, in: d, as: right)))
        #expect(
            ["201", "204"].contains(
                try await Self.put(davicalMeeting(1, "DAViCal 1 moved"), name: dm1, in: c, as: left, headers: quietly)))
        #expect(["200", "204"].contains(try await Self.delete(dm2, in: c, as: left, headers: quietly)))

        let second = try await calgw(["sync", "--json"])
        #expect(second.status == 0, "\(second.stdoutText)\(second.stderrText)")
        for (kind, side) in [("updated", "local"), ("updated", "remote"), ("deleted", "local"), ("deleted", "remote")] {
            #expect(
                AccountFixture.number(second.stdoutText, [kind, side]) == 1, "\(kind) \(side): \(second.stdoutText)")
        }
        let onCyrus = try await AccountEventTests.serverText(left, c),
            onDAViCal = try await AccountEventTests.serverText(right, d)
        #expect(
            onCyrus.contains("SUMMARY:Cyrus 1 moved") && !onCyrus.contains("UID:cm2-\(id)"), "cyrus holds: \(onCyrus)")
        #expect(
            onDAViCal.contains("SUMMARY:DAViCal 1 moved") && !onDAViCal.contains("UID:dm2-\(id)"),
            "davical holds: \(onDAViCal)")
        seen = try await inboxes()
        #expect(
            seen.cyrus.isEmpty,
            "the edit and deletion sent Cyrus's bob \(seen.cyrus.count) messages: \(seen.cyrus.first ?? "")")
        #expect(
            seen.davical.isEmpty,
            "the edit and deletion sent DAViCal's bob \(seen.davical.count) messages: \(seen.davical.first ?? "")")

        let quiet = try await calgw(["sync", "--json"])
        #expect(
            quiet.status == 0 && JSONCounts.writes(in: quiet.stdoutText) == 0,
            "a third run: \(quiet.stdoutText)\(quiet.stderrText)")

        // Control: on each server, a meeting stored with plain curl reaches that server's bob.
        let control = "control-\(id)"
        #expect(
            ["201", "204"].contains(
                try await Self.put(
                    Self.meeting(
                        control, summary: "Control", organizer: cyrusUser,
                        attendee: cyrusBob.address, index: 0), name: control, in: c, as: left)))
        #expect(
            ["201", "204"].contains(
                try await Self.put(
                    Self.meeting(
                        control, summary: "Control", organizer: davicalUser,
                        attendee: davicalBob.address, index: 0), name: control, in: d, as: right)))
        #expect(
            try await cyrusBob.inbox(on: "cyrus", mentioning: control).count == 1, "Cyrus's Inbox counter saw nothing")
        #expect(
            try await davicalBob.inbox(on: "davical", mentioning: control).count == 1,
            "DAViCal's Inbox counter saw nothing")
    }
}
