import Foundation

/// A vdir⇄vdir pair (`remote = file://...`) with its own config and journal, for the command
/// tests that need no server: `local/` and `remote/` in a fresh folder, a `[pair.test]` config.
/// `summaries(_:)`, which also checks that no UID is there twice, is in CalgwTestTraits.
///
/// ```swift
/// let pair = try VDirPair()
/// defer { pair.remove() }
/// try pair.write(pair.local, "a.ics", TestEvent.data(uid: "a", summary: "v1"))
/// let result = try await pair.run("sync", ["--json"])
/// ```
public struct VDirPair: Sendable {
    /// The test's own folder: both vdirs, the config and the journal.
    public let folder: TemporaryFolder
    /// The pair's local vdir.
    public var local: URL { folder.file("local") }
    /// The pair's remote vdir (a `file://` remote).
    public var remote: URL { folder.file("remote") }
    /// The config file naming the pair.
    public var config: URL { folder.file("config.toml") }
    /// The pair's journal.
    public var journal: URL { folder.file("state/pair.sqlite") }

    /// - Parameter conflict: the pair's `conflict` strategy, as the config writes it.
    public init(conflict: String = "merge") throws {
        folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: local, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: remote, withIntermediateDirectories: true)
        try TestPairConfig(local: local, remote: remote, journal: journal, extra: ["conflict = \"\(conflict)\""]).write(
            to: config)
    }

    /// Removes the test's folder.
    public func remove() { folder.remove() }

    /// Writes `data` as the file `name` of `side` (`local` or `remote`).
    public func write(_ side: URL, _ name: String, _ data: Data) throws {
        try data.write(to: side.appendingPathComponent(name))
    }

    /// Event `a` synced, then edited on both sides: "mine" here, "theirs" there.
    /// - Throws: ``FixtureFailure`` when the first sync fails or leaves no remote file.
    public func makeConflict() async throws {
        try write(local, "a.ics", TestEvent.data(uid: "a", summary: "v1"))
        let synced = try await run("sync")
        guard synced.status == 0 else {
            throw FixtureFailure("the first sync exited with \(synced.status): \(synced.stderrText)")
        }
        try write(local, "a.ics", TestEvent.data(uid: "a", summary: "mine"))
        guard
            let remoteName = try FileManager.default.contentsOfDirectory(atPath: remote.path).first(where: {
                $0.hasSuffix(".ics")
            })
        else {
            throw FixtureFailure("the first sync left no file in \(remote.path)")
        }
        try write(remote, remoteName, TestEvent.data(uid: "a", summary: "theirs"))
    }

    /// `calgw COMMAND --config CONFIG EXTRA...`.
    public func run(_ command: String, _ extra: [String] = [], environment: [String: String] = [:])
        async throws -> ProcessRunner.Result
    {
        try await CalgwBinary.run([command, "--config", config.path] + extra, environment: environment)
    }

    /// The JSON object a `--json` run printed.
    /// - Throws: ``FixtureFailure`` with what it printed when that is not a JSON object.
    public func json(_ result: ProcessRunner.Result) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] else {
            throw FixtureFailure("stdout is not a JSON object: \(result.stdoutText)")
        }
        return object
    }

    /// UID → SUMMARY of the item files in any folder (CRLF or LF line ends; a file without a
    /// UID under its name).
    public static func summariesIn(_ folder: URL) throws -> [String: String] {
        var out: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
        where name.hasSuffix(".ics") && !name.hasPrefix(".") {
            let lines = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                .replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n")
            let uid = lines.first { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) } ?? name
            out[uid] = lines.first { $0.hasPrefix("SUMMARY:") }.map { String($0.dropFirst(8)) } ?? ""
        }
        return out
    }
}
