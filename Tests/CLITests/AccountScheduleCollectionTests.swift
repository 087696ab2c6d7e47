import Foundation
import Testing
import CalgwTestSupport

/// An account pair syncs calendars, never the account's schedule Inbox or Outbox: DAViCal's
/// admin screen makes `.in/` and `.out/` of the plain calendar type, so only the principal's
/// `schedule-inbox-URL` and `schedule-outbox-URL` tell them apart. Synced, the Inbox's
/// invitations would show as events of a calendar of their own.
@Suite(.timeLimit(.minutes(10))) struct AccountScheduleCollectionTests {
    @Test(.enabled(if: TestServers.selected.contains("davical"), "needs davical, which CALGW_TEST_SERVERS leaves out"))
    func theScheduleInboxAndOutboxAreNotSynced() async throws {
        let server = try TestServers.start("davical")
        defer { server.stop() }
        let attendee = try #require(server.attendee, "the davical script printed no second user")
        let organizer = try #require(server.address)

        // alice invites bob: DAViCal files the invitation in bob's Inbox.
        let organizers = try AccountFixture(server: server)
        defer { organizers.remove() }
        let uid = "inbox-\(organizers.id)"
        try await organizers.put(
            MeetingCopyTests.meeting(uid, summary: "Review", organizer: organizer, attendee: attendee.address),
            name: uid, in: server.home.appendingPathComponent("calendar/", isDirectory: true))
        #expect(try await attendee.inbox(on: "davical", mentioning: uid).count == 1)

        // bob's account pair over his whole home: his calendar alone, with the invitation.
        var bob = server
        bob.username = attendee.username
        bob.password = attendee.password
        bob.home = attendee.home
        let account = try AccountFixture(server: bob)
        defer { account.remove() }
        let synced = try await account.calgw(["sync", "--json"])
        #expect(synced.status == 0, "\(synced.stdoutText)\(synced.stderrText)")
        let hrefs = account.mapping().values.sorted()
        #expect(hrefs == [attendee.home.appendingPathComponent("calendar/").path + "/"], "\(hrefs)")
        #expect(account.subfolders().count == 1, "\(account.subfolders())")
        let folder = try #require(account.mapping().keys.first)
        #expect(account.files(folder).contains("\(uid).ics"), "\(account.files(folder))")

        // alice's pair leaves out her own Inbox and Outbox too, and her calendar's meeting arrives.
        let own = try await organizers.calgw(["sync", "--json"])
        #expect(own.status == 0, "\(own.stdoutText)\(own.stderrText)")
        let ownHrefs = organizers.mapping().values
        #expect(ownHrefs.count == 1 && ownHrefs.allSatisfy { $0.hasSuffix("/calendar/") }, "\(ownHrefs)")
        #expect(organizers.subfolders().contains { organizers.files($0).contains("\(uid).ics") })
    }
}
