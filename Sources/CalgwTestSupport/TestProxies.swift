import Foundation

/// A test proxy from `Scripts/proxies/` running in front of a server: auth enforcement,
/// fault injection, redirects or TLS. Stop it with `stop()` (or let the process end).
public final class TestProxy: @unchecked Sendable {
    /// Where clients connect (`PROXY_URL`).
    public let url: URL
    /// Every `KEY=value` line the proxy printed at start (`PROXY_CA`, `PROXY_SPKI_SHA256`, ...).
    public let values: [String: String]
    /// One JSON line per request the proxy handled.
    public let logFile: URL
    private let process: Process
    private let folder: URL

    fileprivate init(url: URL, values: [String: String], logFile: URL, process: Process, folder: URL) {
        self.url = url
        self.values = values
        self.logFile = logFile
        self.process = process
        self.folder = folder
    }

    deinit { stop() }

    /// Kills the proxy (SIGKILL: a child of a Swift test may have SIGTERM blocked) and removes
    /// its files.
    public func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: folder)
    }

    /// The requests logged so far, as decoded JSON objects.
    public func logEntries() -> [[String: Any]] {
        guard let text = try? String(contentsOf: logFile, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    /// The same URL path on the proxy as `url` has on the server.
    public func proxied(_ url: URL) -> URL {
        var parts = URLComponents(url: self.url, resolvingAgainstBaseURL: false)!
        parts.percentEncodedPath = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? "/"
        return parts.url!
    }
}

/// Starts the proxies of `Scripts/proxies/` (see each script's header for what it does).
public enum TestProxies {
    /// Basic, Digest or Bearer enforced in front of `upstream`; valid requests are forwarded
    /// with Basic `upstreamUser`/`upstreamPassword`.
    public static func auth(
        upstream: URL, mode: String, user: String = "", password: String = "",
        algorithm: String = "both", tokenFile: URL? = nil,
        upstreamUser: String, upstreamPassword: String
    ) throws -> TestProxy {
        var arguments = [
            "--mode", mode, "--algorithm", algorithm,
            "--upstream-user", upstreamUser, "--upstream-password", upstreamPassword,
        ]
        if !user.isEmpty { arguments += ["--user", user, "--password", password] }
        if let tokenFile { arguments += ["--token-file", tokenFile.path] }
        return try start("auth_proxy.py", upstream: upstream, arguments: arguments)
    }

    /// Answers requests by `script` (`503,ok,429,reset,truncate,lose,slow`), then forwards (or,
    /// with `repeats`, starts the script again); a `slow` answer waits `slowSeconds` first.
    public static func fault(
        upstream: URL, script: String, retryAfter: Int = 1, onlyMethods: String = "",
        slowSeconds: Double = 2, repeats: Bool = false
    ) throws -> TestProxy {
        var arguments = [
            "--script", script, "--retry-after", String(retryAfter), "--slow-seconds", String(slowSeconds),
        ]
        if !onlyMethods.isEmpty { arguments += ["--only-methods", onlyMethods] }
        if repeats { arguments.append("--repeat") }
        return try start("fault_proxy.py", upstream: upstream, arguments: arguments)
    }

    /// A server no test can run, as its users report it (`reported_proxy.py`: iCloud's empty
    /// answer to a query on VCALENDAR alone, Open-Xchange's query window, components refused,
    /// app-specific passwords), in front of `upstream`; `arguments` are the proxy's flags.
    public static func reported(upstream: URL, arguments: [String]) throws -> TestProxy {
        try start("reported_proxy.py", upstream: upstream, arguments: arguments)
    }

    /// Redirects requests under `fromPrefix` to `to` + the rest, with `status`.
    public static func redirect(upstream: URL, fromPrefix: String, to: String, status: Int = 308, times: Int? = nil)
        throws -> TestProxy
    {
        var arguments = ["--from-prefix", fromPrefix, "--to", to, "--status", String(status)]
        if let times { arguments += ["--times", String(times)] }
        return try start("redirect_proxy.py", upstream: upstream, arguments: arguments)
    }

    /// HTTPS with a throwaway CA in front of `upstream`; `values["PROXY_CA"]` is the CA file,
    /// `values["PROXY_SPKI_SHA256"]` the leaf's public-key pin.
    public static func tls(upstream: URL) throws -> TestProxy {
        try start("tls_proxy.py", upstream: upstream, arguments: [])
    }

    /// The canned hostile CalDAV server (`hostile_server.py`): a collection at `/cal/` whose
    /// answers follow the scenario written in `scenarioFile`, read again at every request.
    public static func hostile(scenarioFile: URL) throws -> TestProxy {
        try start(
            "hostile_server.py", upstream: URL(string: "http://127.0.0.1:9/")!,
            arguments: ["--scenario-file", scenarioFile.path])
    }

    /// Runs `Scripts/proxies/SCRIPT --upstream URL --log FILE ARGUMENTS` and waits (up to 60 s: the
    /// default run starts hundreds of programs at once on two cores)
    /// for its `PROXY_URL=` line.
    /// - Throws: `ProcessFailure` with the proxy's output when it does not come up.
    public static func start(_ script: String, upstream: URL, arguments: [String]) throws -> TestProxy {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "calgw-proxy-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let out = folder.appendingPathComponent("stdout"), err = folder.appendingPathComponent("stderr")
        let log = folder.appendingPathComponent("requests.jsonl")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        var extra = arguments
        if script == "tls_proxy.py" { extra += ["--dir", folder.appendingPathComponent("tls").path] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "python3", TestPaths.packageRoot.appendingPathComponent("Scripts/proxies/\(script)").path,
                "--upstream", upstream.absoluteString, "--log", log.path,
            ] + extra
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        process.environment = TestPaths.childEnvironment
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let text = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
            if text.contains("PROXY_URL=") && text.hasSuffix("\n") {
                var values: [String: String] = [:]
                for line in text.split(separator: "\n") {
                    guard let eq = line.firstIndex(of: "=") else { continue }
                    values[String(line[..<eq])] = String(line[line.index(after: eq)...])
                }
                if let url = values["PROXY_URL"].flatMap(URL.init(string:)) {
                    return TestProxy(url: url, values: values, logFile: log, process: process, folder: folder)
                }
            }
            if !process.isRunning { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        let stderr = (try? String(contentsOf: err, encoding: .utf8)) ?? ""
        throw ProcessFailure(
            command: "Scripts/proxies/\(script)", status: process.isRunning ? -1 : process.terminationStatus,
            stderr: "no PROXY_URL within 60 s: \(stderr)")
    }
}

extension TestProxies {
    /// The feed server (`feed_server.py`): serves the files of `root` as iCalendar feeds, with
    /// ETag / Last-Modified and 304s unless `validators` is false, gzip when asked for unless
    /// `gzip` is false, and `/redirect/`, `/cut/` and `/short/` paths for the bad cases.
    public static func feed(root: URL, validators: Bool = true, gzip: Bool = true) throws -> TestProxy {
        var arguments = ["--root", root.path]
        if !validators { arguments.append("--no-validators") }
        if !gzip { arguments.append("--no-gzip") }
        return try start("feed_server.py", upstream: URL(string: "http://127.0.0.1:9/")!, arguments: arguments)
    }
}
