import Foundation
import Testing
import CalgwTestSupport

/// The account's pair on a new calendar of a server that schedules, with the second user
/// (bob) to invite: what most meeting tests start from.
struct MeetingFixture {
    let name: String
    let server: TestServer
    let attendee: TestServer.Attendee
    let collection: URL
    let folder: TemporaryFolder
    let pair: SyncServerScenarioTests.Pair

    /// - Parameter through: a proxy the pair reaches the server by (nil: directly).
    init(on name: String, prefix: String, through proxy: TestProxy? = nil) throws {
        self.name = name
        server = try TestServers.shared(name)
        attendee = try #require(server.attendee, "the \(name) script printed no second user")
        collection = server.newCollectionURL(prefix: prefix)
        try server.makeCalendar(collection)
        folder = try TemporaryFolder()
        pair = try SyncServerScenarioTests().makePair(folder, "alice", server: server, collection: proxy?.proxied(collection) ?? collection)
    }

    /// The account's calendar address.
    var organizer: String { server.address ?? "" }

    /// `calgw ARGS` on the pair, in UTC.
    func calgw(_ arguments: [String]) throws -> ProcessRunner.Result {
        try CalgwBinary.run(arguments + ["--config", pair.config.path], environment: ["CALGW_TEST_PASSWORD": server.password, "TZ": "UTC"])
    }

    /// The scheduling messages in bob's Inbox that name `id`.
    func inbox(mentioning id: String) throws -> [String] {
        try MeetingCopyTests.inbox(attendee, on: name, mentioning: id)
    }

    func remove() { folder.remove() }
}
