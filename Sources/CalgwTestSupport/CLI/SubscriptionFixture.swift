import Foundation

/// A subscription pair against the feed server: `feeds/` is what the server serves, `vdir/`
/// the pair's local side, the config a `[pair.feed]` table whose remote is `path` on the server.
public final class SubscriptionFixture {
    /// The test's own folder: the vdir, the feeds and the config.
    public let folder: URL
    /// The feed server (``TestProxies/feed(root:validators:gzip:)``) serving `feeds/`.
    public let server: TestProxy
    /// The vdir the subscription is pulled into.
    public var vdir: URL { folder.appendingPathComponent("vdir") }
    /// Where the served feed files are written.
    public var feeds: URL { folder.appendingPathComponent("feeds") }
    /// The config file naming the subscription pair.
    public var config: URL { folder.appendingPathComponent("config.toml") }

    /// - Parameters:
    ///   - validators: the server answers with ETag and Last-Modified, and 304 when they match.
    ///   - gzip: the server compresses when asked to.
    public init(validators: Bool = true, gzip: Bool = true) throws {
        let temporary = try TemporaryFolder(prefix: "calgw-feed")
        folder = temporary.url
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("feeds"), withIntermediateDirectories: true)
        server = try TestProxies.feed(root: folder.appendingPathComponent("feeds"), validators: validators, gzip: gzip)
    }

    /// Removes the test's folder.
    public func remove() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Writes the config with `remote` (a path on the server, or a whole URL) and extra lines.
    public func configure(remote: String = "feed.ics", scheme: String = "webcal", extra: String = "") throws {
        let url =
            remote.contains("://")
            ? remote
            : "\(scheme)://127.0.0.1:\(server.url.port!)/\(remote)"
        try Data(
            """
            [pair.feed]
            local = "\(vdir.path)"
            remote = "\(url)"
            journal = "\(folder.appendingPathComponent("feed.sqlite").path)"
            \(extra)
            """.utf8
        ).write(to: config)
    }

    /// `calgw ARGS --config CONFIG`.
    public func calgw(_ arguments: [String]) async throws -> ProcessRunner.Result {
        try await CalgwBinary.run(arguments + ["--config", config.path])
    }

    /// Serves `text` as the feed `name`.
    public func publish(_ text: String, as name: String = "feed.ics") throws {
        try Data(text.utf8).write(to: feeds.appendingPathComponent(name))
    }

    /// The vdir's files by name, as text.
    public func files() throws -> [String: String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: vdir.path)) ?? []
        var files: [String: String] = [:]
        for name in names where name.hasSuffix(".ics") {
            files[name] = try String(contentsOf: vdir.appendingPathComponent(name), encoding: .utf8)
        }
        return files
    }

    /// The vdir's files with their modification times, to tell that nothing was written.
    public func stamps() throws -> [String: Date] {
        var stamps: [String: Date] = [:]
        for name in try files().keys {
            stamps[name] =
                try FileManager.default.attributesOfItem(atPath: vdir.appendingPathComponent(name).path)[
                    .modificationDate] as? Date
        }
        return stamps
    }

    /// The requests the server answered.
    public func requests() -> [[String: Any]] { server.logEntries() }

    /// The JSON object a `--json` run printed.
    /// - Throws: ``FixtureFailure`` with what it printed when that is not a JSON object.
    public static func json(_ result: ProcessRunner.Result) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] else {
            throw FixtureFailure("stdout is not a JSON object: \(result.stdoutText)")
        }
        return object
    }

    /// The count of `kind` (`created`, `updated`, `deleted`) on `side` in a `--json` report.
    public static func count(_ json: [String: Any], _ kind: String, _ side: String) -> Int? {
        (json[kind] as? [String: Int])?[side]
    }

    /// A feed of `events` (UID → summary) in the given order, all in Europe/Berlin with its
    /// VTIMEZONE at the end, as some publishers write it.
    public static func feed(_ events: [(String, String)], stamp: String = "20260101T000000Z") -> String {
        var text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Example//Holidays//EN\r\nMETHOD:PUBLISH\r\nX-WR-CALNAME:Holidays\r\n"
        for (uid, summary) in events {
            text +=
                "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:\(stamp)\r\nDTSTART;TZID=Europe/Berlin:20260310T100000\r\n"
                + "DURATION:PT1H\r\nSUMMARY:\(summary)\r\nEND:VEVENT\r\n"
        }
        return text + zone + "END:VCALENDAR\r\n"
    }

    /// The feed's VTIMEZONE.
    public static let zone = TestEvent.centralEuropeanZone()
}
