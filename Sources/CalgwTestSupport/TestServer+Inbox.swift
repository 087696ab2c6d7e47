import Foundation

extension TestServer.Attendee {
    /// The texts of the scheduling messages in this user's schedule Inbox (Cyrus: `Inbox/`,
    /// DAViCal: `.in/`) that name `id`: what the meeting tests count to tell whether a server
    /// invited, updated or cancelled on the account's behalf.
    /// - Parameters:
    ///   - server: the server's script name (`cyrus`, `davical`), which decides the Inbox's path.
    ///   - id: a UID or any text the messages must contain.
    /// - Throws: when curl cannot be run or fails (the server did not answer).
    public func inbox(on server: String, mentioning id: String) async throws -> [String] {
        let inbox = home.appendingPathComponent(TestServer.inboxFolder(on: server))
        let listing = try await curlText(
            ["-X", "PROPFIND", "-H", "Depth: 1", inbox.absoluteString], user: username, password: password)
        let hrefs = listing.matches(
            of: /<(?:[A-Za-z][A-Za-z0-9]*:)?href>([^<]+\.ics)<\/(?:[A-Za-z][A-Za-z0-9]*:)?href>/
        ).map { String($0.1) }
        guard let origin = URL(string: "/", relativeTo: home)?.absoluteURL else {
            throw FixtureFailure("no origin for \(home)")
        }
        var messages: [String] = []
        for href in hrefs {
            let text = try await curlText(
                [URL(string: href, relativeTo: origin)!.absoluteString], user: username, password: password)
            if text.contains(id) { messages.append(text) }
        }
        return messages
    }
}
