import Foundation

/// The fake of Microsoft Graph's calendar endpoints (`Scripts/graph/server`, written from
/// Microsoft's documentation and checked with its Python SDK: Scripts/graph/README.md), on
/// 127.0.0.1 with a throwaway state folder. Tests write through its Graph API as another
/// client ("Outlook on the web") would, and read its control API (`/_fake/…`): the mails
/// Graph would have sent, faults to inject. Stop it with `stop()`.
public final class TestGraphServer: @unchecked Sendable {
    /// `http://127.0.0.1:PORT/v1.0`.
    public let url: URL
    /// The bearer token it takes.
    public let token: String
    /// Its state folder.
    public let state: TemporaryFolder

    /// Starts a fresh fake with one default calendar.
    /// - Throws: ``ProcessFailure`` with the script's output when it does not start.
    public init() async throws {
        state = try TemporaryFolder(prefix: "calgw-graph")
        let result = try await ProcessRunner.run(Self.script, ["start", state.url.path], deadline: 60)
        var values: [String: String] = [:]
        for line in result.stdoutText.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            values[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        guard result.status == 0, let url = values["CALGW_GRAPH_URL"].flatMap(URL.init(string:)),
            let token = values["CALGW_GRAPH_TOKEN"]
        else {
            state.remove()
            throw ProcessFailure(
                command: "Scripts/graph/server start", status: result.status,
                stderr: result.stderrText + result.stdoutText)
        }
        self.url = url
        self.token = token
    }

    deinit { stop() }

    static var script: String { TestPaths.packageRoot.appendingPathComponent("Scripts/graph/server").path }

    /// Stops the fake and removes its files.
    public func stop() {
        _ = try? ProcessRunner.runBlocking(Self.script, ["stop", state.url.path])
        state.remove()
    }

    /// The answer to a Graph request as another client makes it: `path` below `/v1.0`
    /// (`/me/calendar/events`), with `json` as the body.
    /// - Returns: the status and the body's JSON (nil when there is none).
    @discardableResult
    public func graph(_ method: String, _ path: String, json: Any? = nil, headers: [String] = []) async throws -> (
        status: Int, body: Any?
    ) {
        try await request(
            method, url.absoluteString + path, json: json, headers: ["Authorization: Bearer \(token)"] + headers)
    }

    /// The answer of the control API: `path` below `/_fake/` (`ledger`, `faults`, …).
    @discardableResult
    public func control(_ method: String, _ path: String, json: Any? = nil) async throws -> (status: Int, body: Any?) {
        let root = url.deletingLastPathComponent().absoluteString
        return try await request(method, root + "_fake/" + path, json: json, headers: [])
    }

    /// The default calendar's URL as a pair names it: `…/v1.0/me/calendars/{id}`.
    public func defaultCalendar() async throws -> URL {
        let answer = try await graph("GET", "/me/calendar")
        guard let id = (answer.body as? [String: Any])?["id"] as? String else {
            throw FixtureFailure("the fake Graph server has no default calendar: \(String(describing: answer.body))")
        }
        return url.appendingPathComponent("me/calendars/\(id)")
    }

    /// The items of a Graph answer listing something (its `value`); none for any other answer.
    public static func values(_ answer: (status: Int, body: Any?)) -> [[String: Any]] {
        ((answer.body as? [String: Any])?["value"] as? [[String: Any]]) ?? []
    }

    /// The `field` of each item `GET path` lists (`subject`, `id`, `name`).
    public func listed(_ field: String, at path: String) async throws -> [String] {
        Self.values(try await graph("GET", path)).compactMap { $0[field] as? String }
    }

    /// The mails Graph would have sent, oldest first.
    public func ledger() async throws -> [[String: Any]] {
        ((try await control("GET", "ledger").body as? [String: Any])?["value"] as? [[String: Any]]) ?? []
    }

    /// The Graph requests made so far (`method`, `path`, `status`, …), oldest first.
    public func requests() async throws -> [[String: Any]] {
        ((try await control("GET", "requests").body as? [String: Any])?["value"] as? [[String: Any]]) ?? []
    }

    private func request(_ method: String, _ address: String, json: Any?, headers: [String]) async throws -> (
        status: Int, body: Any?
    ) {
        var arguments = ["-s", "--max-time", "60", "-X", method, "-w", "\n%{http_code}", address]
        for header in headers { arguments += ["-H", header] }
        var input: Data?
        if let json {
            input = try JSONSerialization.data(withJSONObject: json)
            arguments += ["-H", "Content-Type: application/json", "--data-binary", "@-"]
        }
        let result = try await ProcessRunner.run("curl", arguments, stdin: input)
        let text = result.stdoutText
        guard let newline = text.lastIndex(of: "\n"), let status = Int(text[text.index(after: newline)...]) else {
            throw FixtureFailure("\(method) \(address): no answer (\(result.stderrText))")
        }
        let body = Data(text[..<newline].utf8)
        return (status, body.isEmpty ? nil : try? JSONSerialization.jsonObject(with: body))
    }
}
