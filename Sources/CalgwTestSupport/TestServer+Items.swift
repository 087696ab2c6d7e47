import Foundation

/// What a calendar collection holds, read by curl as the server's own clients would, for tests
/// to check what calgw wrote without going through calgw.
///
/// Every server is asked the same way: one calendar-query per kind of item (VEVENT, VTODO,
/// VJOURNAL), since a query filtered only on VCALENDAR is answered with nothing by SOGo (and, as
/// reported, by iCloud); and a PROPFIND for `getetag` alone, since an allprop PROPFIND on SOGo
/// repeats each item's name in properties of its own.
extension TestServer {
    /// One item of a collection: its href (a path) and its calendar data.
    public struct StoredObject: Sendable {
        /// The item's href as the server lists it (a path).
        public var href: String
        /// Its calendar data, unfolded, with line ends as `\n`.
        public var text: String
    }

    /// The hrefs of the items `collection` holds (the collection itself left out), by PROPFIND.
    public func itemHrefs(in collection: URL, user: String? = nil, password: String? = nil) async throws -> [String] {
        let body =
            "<?xml version=\"1.0\"?><d:propfind xmlns:d=\"DAV:\"><d:prop><d:getetag/></d:prop></d:propfind>"
        let answer = try await curl(
            [
                "-X", "PROPFIND", "-H", "Depth: 1", "-H", "Content-Type: application/xml", "--data", body,
                collection.absoluteString,
            ],
            user: user, password: password)
        let own = collection.path.hasSuffix("/") ? collection.path : collection.path + "/"
        return Self.hrefs(in: answer).filter { $0 != own && $0 != String(own.dropLast()) }.sorted()
    }

    /// Every item `collection` holds, with its calendar data: one calendar-query per kind.
    public func objects(in collection: URL, user: String? = nil, password: String? = nil) async throws -> [StoredObject]
    {
        var found: [String: String] = [:]
        for kind in ["VEVENT", "VTODO", "VJOURNAL"] {
            let body =
                "<?xml version=\"1.0\"?><c:calendar-query xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\">"
                + "<d:prop><d:getetag/><c:calendar-data/></d:prop><c:filter><c:comp-filter name=\"VCALENDAR\">"
                + "<c:comp-filter name=\"\(kind)\"/></c:comp-filter></c:filter></c:calendar-query>"
            let answer = try await curl(
                [
                    "-X", "REPORT", "-H", "Depth: 1", "-H", "Content-Type: application/xml", "--data", body,
                    collection.absoluteString,
                ],
                user: user, password: password)
            for response in answer.components(separatedBy: "response>").dropFirst() {
                guard let href = Self.hrefs(in: response).first, let data = Self.calendarData(in: response) else {
                    continue
                }
                found[href] = data
            }
        }
        return found.sorted { $0.key < $1.key }.map { StoredObject(href: $0.key, text: $0.value) }
    }

    /// The UIDs of the items `collection` holds, sorted (each item's first UID line).
    public func uids(in collection: URL, user: String? = nil, password: String? = nil) async throws -> [String] {
        try await objects(in: collection, user: user, password: password).compactMap { object in
            object.text.split(separator: "\n").first { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) }
        }.sorted()
    }

    /// All of `collection`'s calendar data as one text, unfolded, for searching property lines.
    public func text(of collection: URL, user: String? = nil, password: String? = nil) async throws -> String {
        try await objects(in: collection, user: user, password: password).map(\.text).joined(separator: "\n")
    }

    private func curl(_ arguments: [String], user: String?, password: String?) async throws -> String {
        try await curlText(arguments, user: user ?? username, password: password ?? self.password)
    }

    /// The text of every `href` element (any namespace prefix), percent-encoding undone.
    static func hrefs(in xml: String) -> [String] {
        guard
            let pattern = try? NSRegularExpression(pattern: "<(?:[A-Za-z0-9]+:)?href>([^<]*)</(?:[A-Za-z0-9]+:)?href>")
        else { return [] }
        let range = NSRange(xml.startIndex..., in: xml)
        return pattern.matches(in: xml, range: range).compactMap { match in
            Range(match.range(at: 1), in: xml).map { String(xml[$0]).removingPercentEncoding ?? String(xml[$0]) }
        }
    }

    /// The calendar data of one response, XML's escapes undone, unfolded, with `\n` line ends.
    static func calendarData(in response: String) -> String? {
        guard let start = response.range(of: "BEGIN:VCALENDAR"),
            let end = response.range(of: "END:VCALENDAR", range: start.upperBound..<response.endIndex)
        else { return nil }
        return String(response[start.lowerBound..<end.upperBound])
            .replacingOccurrences(of: "&#13;", with: "").replacingOccurrences(of: "&#xD;", with: "")
            .replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\n ", with: "")
            .replacingOccurrences(of: "\n\t", with: "").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}

/// What curl printed for `arguments`, signed in as `user`.
/// - Throws: ``ProcessFailure`` when curl failed (a server that did not answer within a minute,
///   a refused connection): a helper that read nothing from a server that did not answer would
///   let a test's check pass on nothing.
func curlText(_ arguments: [String], user: String, password: String) async throws -> String {
    let answer = try await ProcessRunner.run(
        "curl", ["-s", "--max-time", "60", "-u", "\(user):\(password)"] + arguments)
    guard answer.status == 0 else {
        throw ProcessFailure(
            command: "curl \(arguments.prefix(2).joined(separator: " "))", status: answer.status,
            stderr: answer.stderrText)
    }
    return answer.stdoutText
}
