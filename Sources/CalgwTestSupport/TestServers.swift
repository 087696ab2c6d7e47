import Foundation

/// A real CalDAV server started on 127.0.0.1 for tests, by one of the `Scripts/servers/NAME`
/// scripts, with a throwaway storage folder and one user.
public struct TestServer: Sendable {
    /// The script's name: `radicale`, `xandikos`, `cyrus`, `davical`.
    public var name: String
    /// The server's root URL (where discovery starts).
    public var url: URL
    /// The user's calendar home (holds the user's calendar collections).
    public var home: URL
    /// The user's name.
    public var username: String
    /// The user's password.
    public var password: String
    /// The folder holding the server's data, logs and PID file.
    public var stateFolder: URL
    /// The user's calendar address (`mailto:…`) on a server that schedules; nil elsewhere.
    public var address: String?
    /// A second user on a server that schedules, to invite (its Inbox receives invitations).
    public var attendee: Attendee?

    /// A second user of a scheduling server.
    public struct Attendee: Sendable {
        /// The second user's name.
        public var username: String
        /// The second user's password.
        public var password: String
        /// Its calendar home (holds `Inbox/` and `Default/` on Cyrus).
        public var home: URL
        /// Its calendar address (`mailto:…`).
        public var address: String

        /// A second user with these credentials, home and address.
        public init(username: String, password: String, home: URL, address: String) {
            self.username = username
            self.password = password
            self.home = home
            self.address = address
        }
    }

    /// The servers that schedule meetings themselves (RFC 6638), whose scripts print a second
    /// user to invite.
    public static let scheduling: Set<String> = ["cyrus", "davical", "sabre"]

    /// The folder of a user's home holding the schedule Inbox on the server `name`.
    public static func inboxFolder(on name: String) -> String {
        switch name {
        case "cyrus": "Inbox/"
        case "sabre": "inbox/"
        default: ".in/"
        }
    }

    /// The folder of a user's home holding the calendar the server files invitations in.
    public static func defaultCalendar(on name: String) -> String {
        switch name {
        case "cyrus": "Default/"
        case "sabre": "default/"
        default: "calendar/"
        }
    }

    /// Stops the server by the PID its script started, and removes its data.
    public func stop() {
        _ = try? ProcessRunner.runBlocking(TestServers.script(name).path, ["stop", stateFolder.path])
        try? FileManager.default.removeItem(at: stateFolder)
    }

    /// A fresh, unique collection URL under the home (not created yet: `makeCalendar(_:)` it).
    public func newCollectionURL(prefix: String = "test") -> URL {
        home.appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(8).lowercased())/", isDirectory: true)
    }

    /// Makes the calendar `collection` (MKCALENDAR, by curl, as the user), taking only
    /// `components` when given (its supported-calendar-component-set).
    /// - Throws: `ProcessFailure` with the server's status when it is not made.
    public func makeCalendar(_ collection: URL, components: [String] = []) async throws {
        var body: [String] = []
        if !components.isEmpty {
            body = [
                "-H", "Content-Type: application/xml", "--data",
                "<?xml version=\"1.0\"?><c:mkcalendar xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\">"
                    + "<d:set><d:prop><c:supported-calendar-component-set>"
                    + components.map { "<c:comp name=\"\($0)\"/>" }.joined()
                    + "</c:supported-calendar-component-set></d:prop></d:set></c:mkcalendar>",
            ]
        }
        let made = try await ProcessRunner.run(
            "curl",
            [
                "-s", "--max-time", "60", "-o", "/dev/null", "-w", "%{http_code}", "-u", "\(username):\(password)",
                "-X", "MKCALENDAR",
            ] + body + [collection.absoluteString])
        guard ["200", "201"].contains(made.stdoutText) else {
            throw ProcessFailure(
                command: "MKCALENDAR \(collection.absoluteString) on \(name)", status: made.status,
                stderr: "the server answered \(made.stdoutText)")
        }
    }
}

/// Starts and stops the servers in `Scripts/servers/`. Each script follows one interface:
///
///     Scripts/servers/NAME install            # idempotent: apt/pip packages it needs
///     Scripts/servers/NAME start STATE_DIR    # prints CALGW_SERVER_URL=, CALGW_SERVER_HOME=,
///                                             #        CALGW_SERVER_USER=, CALGW_SERVER_PASSWORD=
///     Scripts/servers/NAME stop STATE_DIR     # stops what start started
///
/// `CALGW_TEST_SERVERS` (a comma list) narrows which servers integration tests run on;
/// by default every script in `Scripts/servers/` is used.
public enum TestServers {
    /// The servers integration tests run on.
    public static var selected: [String] {
        if let list = ProcessInfo.processInfo.environment["CALGW_TEST_SERVERS"], !list.isEmpty {
            return list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        return available
    }

    /// The server for a test that needs one server of any kind: `preference` when it is
    /// selected (Radicale starts fastest), else the first selected.
    public static func any(preferring preference: String = "radicale") -> String {
        let names = selected
        return names.contains(preference) ? preference : names.first ?? preference
    }

    /// Whether the suites written for the server `name` run: when it is selected.
    public static func runs(_ name: String) -> Bool { selected.contains(name) }

    /// Every server script present (a folder beside one holds its parts: `sabre.d/`).
    public static var available: [String] {
        let folder = TestPaths.packageRoot.appendingPathComponent("Scripts/servers")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { name in
            var isFolder: ObjCBool = false
            let path = folder.appendingPathComponent(name).path
            return !name.hasPrefix(".") && !name.hasSuffix(".md")
                && FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder.boolValue
        }.sorted()
    }

    static func script(_ name: String) -> URL {
        TestPaths.packageRoot.appendingPathComponent("Scripts/servers/\(name)")
    }

    /// Starts a fresh server; the caller stops it. Prefer `shared(_:)` to share one per test run.
    /// - Parameters:
    ///   - folder: where its store goes (default: the temporary folder).
    ///   - settings: variables the script reads at start (`CALGW_CYRUS_SMTP_HOST`), besides the
    ///     test process's environment.
    /// - Throws: `ProcessFailure` with the script's output when the server cannot start.
    public static func start(
        _ name: String, under folder: URL? = nil, settings: [String: String] = [:]
    ) throws -> TestServer {
        // A port the script found free may be taken by another process (another test's server,
        // a client's own end of a connection) before its server binds it: such a start is made
        // again, in a fresh folder, twice at most.
        var retries = 0
        while true {
            let state = (folder ?? FileManager.default.temporaryDirectory).appendingPathComponent(
                "calgw-\(name)-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
            let result = try ProcessRunner.runBlocking(
                script(name).path, ["start", state.path],
                environment: settings)
            let output = result.stderrText + result.stdoutText
            if result.status != 0, retries < 2, lostItsPort(output) {
                retries += 1
                continue
            }
            guard result.status == 0 else {
                throw ProcessFailure(command: "Scripts/servers/\(name) start", status: result.status, stderr: output)
            }
            return try server(name, state: state, output: result.stdoutText)
        }
    }

    /// Whether a start's output says that a port was taken before its server could listen on it,
    /// as PostgreSQL, PHP, Python, memcached, Cyrus and sogod say it.
    static func lostItsPort(_ output: String) -> Bool {
        ["Address already in use", "address already in use", "unable to listen on specified port", "could not bind"]
            .contains { output.contains($0) }
    }

    /// The server a start script described in `output` (its `CALGW_SERVER_…` lines).
    private static func server(_ name: String, state: URL, output: String) throws -> TestServer {
        var values: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            values[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        guard let url = values["CALGW_SERVER_URL"].flatMap(URL.init(string:)),
            let home = values["CALGW_SERVER_HOME"].flatMap(URL.init(string:))
        else {
            throw ProcessFailure(
                command: "Scripts/servers/\(name) start", status: 0,
                stderr: "no CALGW_SERVER_URL/CALGW_SERVER_HOME in its output:\n" + output)
        }
        var server = TestServer(
            name: name, url: url, home: home,
            username: values["CALGW_SERVER_USER"] ?? "", password: values["CALGW_SERVER_PASSWORD"] ?? "",
            stateFolder: state)
        server.address = values["CALGW_SERVER_ADDRESS"]
        if let user = values["CALGW_SERVER_USER2"], let password = values["CALGW_SERVER_PASSWORD2"],
            let home = values["CALGW_SERVER_HOME2"].flatMap(URL.init(string:)),
            let address = values["CALGW_SERVER_ADDRESS2"]
        {
            server.attendee = TestServer.Attendee(username: user, password: password, home: home, address: address)
        }
        return server
    }

    /// One server of each kind per test process, started on first use and stopped when the
    /// process exits. Tests isolate themselves by creating their own collections.
    public static func shared(_ name: String) throws -> TestServer {
        try registry.server(name)
    }

    private static let registry = SharedServerRegistry()
}

/// Starts each server once and stops them all at exit.
private final class SharedServerRegistry: @unchecked Sendable {
    private let lock = NSLock()
    private var servers: [String: Result<TestServer, Error>] = [:]
    private var registeredExitHandler = false

    func server(_ name: String) throws -> TestServer {
        lock.lock()
        defer { lock.unlock() }
        if let known = servers[name] { return try known.get() }
        let outcome = Result { try TestServers.start(name) }
        servers[name] = outcome
        if !registeredExitHandler {
            registeredExitHandler = true
            atexit { SharedServerRegistry.stopAll() }
        }
        SharedServerRegistry.started.withLock { $0.append(contentsOf: (try? [outcome.get()]) ?? []) }
        return try outcome.get()
    }

    static let started = LockedServers()

    static func stopAll() {
        started.withLock { servers in
            for server in servers { server.stop() }
            servers.removeAll()
        }
    }
}

final class LockedServers: @unchecked Sendable {
    private let lock = NSLock()
    private var servers: [TestServer] = []
    func withLock<T>(_ body: (inout [TestServer]) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&servers)
    }
}

/// The server of a test that counts bob's schedule Inbox or reads his calendar: on a server
/// that schedules (Cyrus, DAViCal), one of the test's own, where only this test's meetings
/// reach bob. On a shared one, every test that invites him files its invitations in the same
/// Inbox and calendar, his calgw in one test syncs (and on DAViCal clears) what others count,
/// and his mailbox is written by every test at once; elsewhere the shared server.
public struct AttendeeServer: Sendable {
    public let server: TestServer
    let owned: Bool

    /// Starts a server that schedules afresh, or hands out the shared server of another kind.
    public init(_ name: String) throws {
        owned = TestServer.scheduling.contains(name)
        server = owned ? try TestServers.start(name) : try TestServers.shared(name)
    }

    /// Stops the server if it is the test's own.
    public func release() { if owned { server.stop() } }
}
