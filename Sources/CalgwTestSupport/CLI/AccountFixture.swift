import Foundation

/// An account pair on a fresh server for the account tests: a temporary folder with a config
/// file, the vdirs under `local`, and helpers to make calendars and put events with curl, as
/// another client of the account would.
public struct AccountFixture: Sendable {
    /// The server the account lives on.
    public let server: TestServer
    /// The test's own folder: the config, the vdirs and the state.
    public let folder: TemporaryFolder
    /// The pair's `local`: one subfolder per calendar.
    public let local: URL
    /// The config file naming the account pair.
    public let config: URL
    /// A short id that keeps this test's calendars apart.
    public let id = UUID().uuidString.prefix(6).lowercased()

    /// - Parameters:
    ///   - remote: the pair's `remote` (default: the server's calendar home).
    ///   - collections: the `collections` value, TOML.
    ///   - local: the pair's `local` (default: `calendars/` in the fixture's folder).
    public init(server: TestServer, remote: URL? = nil, collections: String = "\"all\"", local: URL? = nil) throws {
        self.server = server
        folder = try TemporaryFolder()
        self.local = local ?? folder.file("calendars")
        config = folder.file("config.toml")
        try TestPairConfig(
            name: "account", local: self.local, collection: (remote ?? server.home),
            journal: folder.file("account.sqlite"), server: server, extra: ["collections = \(collections)"]
        ).write(to: config)
    }

    /// Where the account's journals and `collections.json` live.
    public var stateFolder: URL { folder.file("account.d") }

    /// Removes the test's folder.
    public func remove() { folder.remove() }

    /// `calgw ARGS --config CONFIG`, with the server's password in the environment.
    public func calgw(_ arguments: [String]) async throws -> ProcessRunner.Result {
        try await CalgwBinary.run(
            arguments + ["--config", config.path], environment: ["CALGW_TEST_PASSWORD": server.password])
    }

    /// curl as the account's user (`-s -u USER:PASSWORD ARGS`).
    public func curl(_ arguments: [String]) async throws -> ProcessRunner.Result {
        try await ProcessRunner.run("curl", ["-s", "-u", "\(server.username):\(server.password)"] + arguments)
    }

    /// Makes the calendar `home/<segment>/` (MKCALENDAR, with a display name and the component
    /// types it takes, when given) and returns its URL.
    /// - Throws: ``FixtureFailure`` with the server's status when it is not made.
    @discardableResult
    public func makeCalendar(_ segment: String, displayName: String? = nil, components: [String] = []) async throws
        -> URL
    {
        let url = server.home.appendingPathComponent(segment, isDirectory: true)
        var props = ""
        if let displayName { props += "<d:displayname>\(displayName)</d:displayname>" }
        if !components.isEmpty {
            props +=
                "<c:supported-calendar-component-set>" + components.map { "<c:comp name=\"\($0)\"/>" }.joined()
                + "</c:supported-calendar-component-set>"
        }
        var arguments = ["-o", "/dev/null", "-w", "%{http_code}", "-X", "MKCALENDAR"]
        if !props.isEmpty {
            arguments += [
                "-H", "Content-Type: application/xml",
                "--data",
                "<?xml version=\"1.0\"?><c:mkcalendar xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\">"
                    + "<d:set><d:prop>\(props)</d:prop></d:set></c:mkcalendar>",
            ]
        }
        let made = try await curl(arguments + [url.absoluteString])
        guard ["200", "201"].contains(made.stdoutText) else {
            throw FixtureFailure("\(server.name): MKCALENDAR \(segment): \(made.stdoutText)")
        }
        return url
    }

    /// PUTs `ics` as `<name>.ics` into `calendar`.
    /// - Throws: ``FixtureFailure`` with the server's status when it is not stored.
    public func put(_ ics: String, name: String, in calendar: URL) async throws {
        let file = folder.file("upload-\(UUID().uuidString).ics")
        try Data(ics.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        // No `Expect: 100-continue`: curl would wait a second for a 100 that Radicale never sends.
        let put = try await curl([
            "-w", "\n%{http_code}", "-T", file.path, "-H", "Expect:", "-H", "Content-Type: text/calendar",
            calendar.appendingPathComponent("\(name).ics").absoluteString,
        ])
        let status = put.stdoutText.split(separator: "\n").last.map(String.init) ?? ""
        guard ["201", "204"].contains(status) else {
            throw FixtureFailure("\(server.name): PUT \(name): \(put.stdoutText.suffix(500))")
        }
    }

    /// The names of a subfolder's .ics files.
    public func files(_ subfolder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: local.appendingPathComponent(subfolder).path)) ?? [])
            .filter { $0.hasSuffix(".ics") }.sorted()
    }

    /// The subfolders of `local`.
    public func subfolders() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: local.path)) ?? []).filter { !$0.hasPrefix(".") }
            .sorted()
    }

    /// The folder → href mapping kept in `collections.json`.
    public func mapping() -> [String: String] {
        guard
            let data = FileManager.default.contents(
                atPath: stateFolder.appendingPathComponent("collections.json").path),
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let entries = object["entries"] as? [[String: Any]]
        else { return [:] }
        var result: [String: String] = [:]
        for entry in entries {
            if let name = entry["name"] as? String, let href = entry["href"] as? String { result[name] = href }
        }
        return result
    }

    /// A VTODO (`DUE` 2026-03-10), for calendars that take tasks.
    public static func todo(_ uid: String, _ summary: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calgw//tests//EN\r\nBEGIN:VTODO\r\nUID:\(uid)\r\nDTSTAMP:20260101T000000Z\r\n"
            + "DUE:20260310T100000Z\r\nSUMMARY:\(summary)\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
    }

    /// The integer at `path` (e.g. `["created", "local"]`) of a JSON document.
    public static func number(_ json: String, _ path: [String]) -> Int? {
        var value: Any? = try? JSONSerialization.jsonObject(with: Data(json.utf8))
        for key in path { value = (value as? [String: Any])?[key] }
        return value as? Int
    }

    /// Whether every created/updated/deleted count of a `--json` report is zero.
    public static func allZero(_ json: String) -> Bool {
        for kind in ["created", "updated", "deleted"] {
            for side in ["local", "remote"] where number(json, [kind, side]) != 0 { return false }
        }
        return true
    }
}
