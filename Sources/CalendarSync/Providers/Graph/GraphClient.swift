import CalDAV
import Foundation
import Graph
import HTTP

/// Microsoft Graph's calendar calls for one mailbox, over calgw's HTTP client: JSON bodies,
/// Graph's error envelope read into ``GraphError``, and the preferences every request states:
/// immutable ids (an event keeps its id when Outlook moves it between folders) and times in UTC.
struct GraphClient: Sendable {
    let http: HTTPClient
    /// The mailbox's root: `…/v1.0/me/` or `…/v1.0/users/{id}/`, ending in a slash.
    let mailbox: URL
    /// Where events are addressed below the mailbox: `calendars/{id}/` (or `calendar/`) for a
    /// calendar's storage, so that an event Outlook moved to another calendar (it keeps its
    /// id) is not found there, and no write reaches it; empty for the whole mailbox.
    let eventsIn: String

    /// The client of `mailbox`; of one of its calendars, `calendar`, when given.
    init(http: HTTPClient, mailbox: URL, calendar: URL? = nil) {
        self.http = http
        self.mailbox = mailbox
        let below = calendar.map { String($0.absoluteString.dropFirst(mailbox.absoluteString.count)) } ?? ""
        eventsIn = below.isEmpty || below.hasSuffix("/") ? below : below + "/"
    }

    /// The preferences sent with every request.
    static let preferences = [#"IdType="ImmutableId""#, #"outlook.timezone="UTC""#]

    /// The mailbox root of `calendar` (`…/me/calendars/{id}`): what precedes `calendars/`.
    static func mailbox(of calendar: URL) -> URL? {
        let text = calendar.absoluteString
        guard
            let range = text.range(of: "/calendars/", options: .backwards)
                ?? text.range(of: "/calendar", options: .backwards)
        else { return nil }
        return URL(string: String(text[..<range.lowerBound]) + "/")
    }

    /// The mailbox root of `url`: of a calendar's, what precedes `calendars/`; a mailbox's
    /// (`…/v1.0/me/`) is itself, ending in a slash.
    static func mailbox(ofAccount url: URL) -> URL {
        let text = url.absoluteString
        return mailbox(of: url) ?? URL(string: text.hasSuffix("/") ? text : text + "/")!
    }

    /// `…/events/{id}` of the mailbox (of the client's calendar), with `query` appended verbatim.
    func event(_ id: String, query: String = "") -> URL {
        URL(string: mailbox.absoluteString + eventPath(id, query: query))!
    }

    /// `events/{id}` below the mailbox (`calendars/{cal}/events/{id}` for a calendar's client),
    /// with `query` appended verbatim.
    func eventPath(_ id: String, query: String = "") -> String {
        eventsIn + "events/"
            + (id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? id) + query
    }

    /// The event a `$batch` answer holds; nil for one gone (404).
    /// - Throws: ``GraphError`` for another failure, or an answer that is not an event.
    func batchEvent(_ answer: (status: Int, body: Data), path: String) throws -> GraphEvent? {
        if answer.status == 404 { return nil }
        return try batchAnswer(answer, path: path, as: GraphEvent.self)
    }

    /// What a `$batch` answer for `path` (below the mailbox) holds, as `T`.
    /// - Throws: ``GraphError`` for a refusal, as the request alone would have been refused, or
    ///   an answer that is not `T`.
    func batchAnswer<T: Decodable>(_ answer: (status: Int, body: Data), path: String, as type: T.Type) throws -> T {
        guard (200..<300).contains(answer.status) else {
            let response = HTTPResponse(
                status: answer.status, headers: [], body: answer.body, url: URL(string: mailbox.absoluteString + path)!)
            throw GraphError.answer(response, method: "GET")
        }
        do { return try JSONDecoder().decode(type, from: answer.body) } catch {
            throw GraphError(
                .unreadableAnswer, "Microsoft Graph's answer for \(path) is not what calgw expects: \(error)",
                cause: error)
        }
    }

    /// `url` below the mailbox (`calendars/{id}/…`), for a `$batch`; nil for an address elsewhere.
    func below(_ url: URL) -> String? {
        let text = url.absoluteString, root = mailbox.absoluteString
        return text.hasPrefix(root) ? String(text.dropFirst(root.count)) : nil
    }

    /// GETs `url` and decodes its JSON answer. Graph answers a few percent of plain reads with
    /// a spurious 412 `ErrorIrresolvableConflict` (a read has no condition to fail): such a read
    /// is asked again, up to ``readAttempts`` times.
    /// - Throws: ``GraphError`` for a refusal or an answer that is not `T`.
    func get<T: Decodable>(_ url: URL, as type: T.Type, prefer: [String] = []) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try decode(type, try await send("GET", url, prefer: prefer))
            } catch let error as GraphError where error.status == 412 && attempt < Self.readAttempts {
                try await Task.sleep(nanoseconds: UInt64(http.configuration.retryBaseDelay * Double(attempt) * 1e9))
                attempt += 1
            }
        }
    }

    /// Times a read answered with a spurious 412 is asked in all.
    static let readAttempts = 4

    /// Sends `method` to `url` with the JSON body `data`, conditional on `ifMatch` (a change key);
    /// one that `writesNothing` (a `$batch` of GETs) is asked again after a fault as a GET is.
    /// - Returns: the answer, a 2xx one.
    /// - Throws: ``GraphError`` for any other status.
    @discardableResult
    func send(
        _ method: String, _ url: URL, json data: Data? = nil, ifMatch changeKey: String? = nil,
        prefer: [String] = [], writesNothing: Bool = false
    ) async throws -> HTTPResponse {
        var headers: [(name: String, value: String)] = [
            ("Accept", "application/json"), ("Prefer", (Self.preferences + prefer).joined(separator: ", ")),
        ]
        if data != nil { headers.append(("Content-Type", "application/json")) }
        if let changeKey { headers.append(("If-Match", "W/\"\(changeKey)\"")) }
        var request = HTTPRequest(method: method, url: url, headers: headers, body: data)
        request.writesNothing = writesNothing
        let response = try await http.send(request)
        guard response.isSuccess else { throw GraphError.answer(response, method: method) }
        return response
    }

    /// `value` as a JSON body, with each of `nulls` set to null (Graph's way to clear a field,
    /// such as the recurrence of a series made a single event).
    static func json(_ value: some Encodable, nulls: [String] = []) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        guard !nulls.isEmpty, var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return data
        }
        for name in nulls where object[name] == nil { object[name] = NSNull() }
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    /// The JSON of `response` as `T`.
    func decode<T: Decodable>(_ type: T.Type, _ response: HTTPResponse) throws -> T {
        do { return try JSONDecoder().decode(type, from: response.body) } catch {
            throw GraphError(
                .unreadableAnswer,
                "Microsoft Graph's answer to \(response.url.path) is not what calgw expects: \(error)", cause: error)
        }
    }
}
