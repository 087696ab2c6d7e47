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

    /// - Parameters:
    ///   - name: the server's script name.
    ///   - prefix: the start of the new calendar's name.
    ///   - proxy: a proxy the pair reaches the server by (nil: directly).
    /// - Throws: ``FixtureFailure`` when the server's script printed no second user.
    public init(on name: String, prefix: String, through proxy: TestProxy? = nil) throws {
        self.name = name
        server = try TestServers.shared(name)
        guard let attendee = server.attendee else { throw FixtureFailure("the \(name) script printed no second user") }
        self.attendee = attendee
        collection = server.newCollectionURL(prefix: prefix)
        try server.makeCalendar(collection)
        folder = try TemporaryFolder()
        pair = try ServerPair(folder, "alice", server: server, collection: proxy?.proxied(collection) ?? collection)
    }

    /// The account's calendar address.
    public var organizer: String { server.address ?? "" }

    /// `calgw ARGS` on the pair, in UTC.
    public func calgw(_ arguments: [String]) throws -> ProcessRunner.Result {
        try CalgwBinary.run(arguments + ["--config", pair.config.path], environment: ["CALGW_TEST_PASSWORD": server.password, "TZ": "UTC"])
    }

    /// The scheduling messages in bob's Inbox that name `id`.
    public func inbox(mentioning id: String) throws -> [String] {
        try attendee.inbox(on: name, mentioning: id)
    }

    /// Removes the test's folder.
    public func remove() { folder.remove() }
}
