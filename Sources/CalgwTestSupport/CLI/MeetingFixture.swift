import Foundation

/// The account's pair on a new calendar of a server that schedules, with the second user
/// (bob) to invite: what most meeting tests start from.
public struct MeetingFixture: Sendable {
    /// The server's script name (`cyrus`, `davical`).
    public let name: String
    /// The scheduling server the meetings are made on.
    public let server: TestServer
    /// The second user, whose Inbox receives what the server sends on the account's behalf.
    public let attendee: TestServer.Attendee
    /// The organizer's calendar on the server.
    public let collection: URL
    /// The test's own folder: the vdir, the config and the state.
    public let folder: TemporaryFolder
    /// The account's pair, `alice`, on `collection`.
    public let pair: ServerPair
    /// The server was started for this fixture alone: ``remove()`` stops it.
    var ownsServer = false

    /// - Parameters:
    ///   - name: the server's script name.
    ///   - prefix: the start of the new calendar's name.
    ///   - proxy: a proxy the pair reaches the server by (nil: directly).
    ///   - alone: the server is started for this fixture alone, as Cyrus always is: for a test
    ///     that counts bob's Inbox on a server other tests share.
    /// - Throws: ``FixtureFailure`` when the server's script printed no second user.
    /// Cyrus is started for the fixture alone (and stopped by ``remove()``): a run of bob's calgw
    /// there removes from his Inbox every message his calendar shows, other tests' too, so no
    /// test that counts his Inbox shares him. On DAViCal his calgw removes the messages the
    /// server applied to his calendar: a test that counts them there asks for a server `alone`.
    public init(on name: String, prefix: String, through proxy: TestProxy? = nil, alone: Bool = false) async throws {
        let owned = alone || name == "cyrus"
        let server = owned ? try TestServers.start(name) : try TestServers.shared(name)
        do {
            try await self.init(server: server, prefix: prefix, through: proxy)
        } catch {
            if owned { server.stop() }
            throw error
        }
        ownsServer = owned
    }

    /// The account's pair on a new calendar of `server` (one the test started for itself, when
    /// what bob's calgw does to his schedule Inbox must not meet other tests' messages).
    /// - Throws: ``FixtureFailure`` when the server's script printed no second user.
    public init(server: TestServer, prefix: String, through proxy: TestProxy? = nil) async throws {
        let name = server.name
        self.name = name
        self.server = server
        guard let attendee = server.attendee else { throw FixtureFailure("the \(name) script printed no second user") }
        self.attendee = attendee
        collection = server.newCollectionURL(prefix: prefix)
        try await server.makeCalendar(collection)
        folder = try TemporaryFolder()
        pair = try ServerPair(folder, "alice", server: server, collection: proxy?.proxied(collection) ?? collection)
    }

    /// The account's calendar address.
    public var organizer: String { server.address ?? "" }

    /// `calgw ARGS` on the pair, in UTC.
    public func calgw(_ arguments: [String]) async throws -> ProcessRunner.Result {
        try await CalgwBinary.run(
            arguments + ["--config", pair.config.path],
            environment: ["CALGW_TEST_PASSWORD": server.password, "TZ": "UTC"])
    }

    /// The scheduling messages in bob's Inbox that name `id`.
    public func inbox(mentioning id: String) async throws -> [String] {
        try await attendee.inbox(on: name, mentioning: id)
    }

    /// bob's default calendar, where the server files the invitations it delivers to him
    /// (shared by every test that invites him).
    public var attendeeCalendar: URL {
        attendee.home.appendingPathComponent(TestServer.defaultCalendar(on: name), isDirectory: true)
    }

    /// bob's own calgw: the pair `bob` of `attendeeCalendar`, signed in as him, in the test's
    /// folder (its config is written again by each call, the same each time).
    public func attendeePair() throws -> ServerPair {
        var bob = server
        bob.username = attendee.username
        bob.password = attendee.password
        bob.home = attendee.home
        bob.address = attendee.address
        return try ServerPair(folder, "bob", server: bob, collection: attendeeCalendar)
    }

    /// `calgw ARGS` on bob's pair, in UTC, with `environment` besides.
    public func bob(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessRunner.Result {
        try await CalgwBinary.run(
            arguments + ["--config", try attendeePair().config.path],
            environment: environment.merging(["CALGW_TEST_PASSWORD": attendee.password, "TZ": "UTC"]) { a, _ in a })
    }

    /// The text of the resource holding `uid` in `calendar` on the server, read as `user`
    /// (lines unfolded); nil when none holds it.
    public func stored(_ uid: String, in calendar: URL, as user: TestServer.Attendee) async throws -> String? {
        let listing = try await curlText(
            ["-X", "PROPFIND", "-H", "Depth: 1", calendar.absoluteString], user: user.username, password: user.password)
        guard let origin = URL(string: "/", relativeTo: calendar)?.absoluteURL else { return nil }
        for match in listing.matches(of: /<(?:D:)?href>([^<]+\.ics)<\/(?:D:)?href>/) {
            guard let url = URL(string: String(match.1), relativeTo: origin) else { continue }
            let text = try await curlText([url.absoluteString], user: user.username, password: user.password)
            if text.contains("UID:\(uid)") {
                return text.replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\n ", with: "")
            }
        }
        return nil
    }

    /// The account as a user whose calendars `stored(_:in:as:)` reads.
    public var organizerUser: TestServer.Attendee {
        TestServer.Attendee(username: server.username, password: server.password, home: server.home, address: organizer)
    }

    /// Removes the test's folder, and stops the server if it was started for the fixture.
    public func remove() {
        folder.remove()
        if ownsServer { server.stop() }
    }
}
