import Foundation
import Testing
import CalgwTestSupport

/// `status` and the dry runs leave no trace on any kind of pair: no folder, file or lock made,
/// no byte and no modification time changed (vdir, state folder, single file, journal), and no
/// item written on a server; before the first sync and after it, with changes pending.
@Suite(.timeLimit(.minutes(10))) struct ReadOnlyPairKindsTests {
    /// Every file and folder below `root`, with its size, modification time and a checksum.
    static func trace(of root: URL) -> [String: String] {
        var out: [String: String] = [:]
        let fm = FileManager.default
        for name in ((try? fm.subpathsOfDirectory(atPath: root.path)) ?? []).sorted() {
            let path = root.appendingPathComponent(name).path
            guard let attributes = try? fm.attributesOfItem(atPath: path) else { continue }
            let mtime = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            if attributes[.type] as? FileAttributeType == .typeDirectory {
                out[name] = "folder \(mtime)"
            } else {
                out[name] =
                    "\(attributes[.size] ?? 0) bytes, \(mtime), \(checksum(fm.contents(atPath: path) ?? Data()))"
            }
        }
        return out
    }

    /// A 64-bit FNV-1a checksum of `data`, to tell contents apart in a line.
    static func checksum(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }

    /// The etags of `collection`'s members, as the server lists them.
    static func listing(_ collection: URL, on server: TestServer) async throws -> String {
        try await ProcessRunner.run(
            "curl",
            [
                "-s", "-u", "\(server.username):\(server.password)", "-X", "PROPFIND", "-H", "Depth: 1", "--data",
                "<d:propfind xmlns:d=\"DAV:\"><d:prop><d:getetag/></d:prop></d:propfind>",
                collection.absoluteString,
            ]
        ).stdoutText
    }

    /// Runs `status` and every dry run on `config`, checking that `root` and `watched` (server
    /// listings) are the same before and after each.
    static func leaveNoTrace(
        _ kind: String, config: URL, root: URL, environment: [String: String],
        commands: [[String]] = [["status"], ["sync", "--dry-run"], ["pull", "--dry-run"], ["push", "--dry-run"]],
        watched: () async throws -> String = { "" }
    ) async throws {
        for command in commands {
            let before = trace(of: root), server = try await watched()
            let r = try await CalgwBinary.run(command + ["--config", config.path], environment: environment)
            #expect(
                r.status == 0 || r.status == 1 && command == ["status"],
                "\(kind) \(command): \(r.stdoutText)\(r.stderrText)")
            let after = trace(of: root)
            for key in Set(before.keys).union(after.keys).sorted() where before[key] != after[key] {
                Issue.record(
                    "\(kind) \(command.joined(separator: " ")) changed \(key): \(before[key] ?? "absent") → \(after[key] ?? "absent")"
                )
            }
            #expect(try await watched() == server, "\(kind) \(command): the server changed")
        }
    }

    @Test func vdirAndSingleFilePairs() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let root = folder.url
        let environment = ["XDG_STATE_HOME": folder.file("state").path]
        for (kind, local) in [("vdir", folder.file("vdir")), ("single file", folder.file("home.ics"))] {
            let mirror = folder.file("mirror-\(kind.replacingOccurrences(of: " ", with: "-"))")
            try FileManager.default.createDirectory(at: mirror, withIntermediateDirectories: true)
            try TestEvent.data(
                uid: "m-\(kind.count)", summary: "in the mirror", start: "20270301T100000Z", duration: "PT1H"
            )
            .write(to: mirror.appendingPathComponent("m.ics"))
            if kind == "vdir" {
                try FileManager.default.createDirectory(at: local, withIntermediateDirectories: true)
                try TestEvent.data(uid: "v", summary: "in the vdir", start: "20270301T100000Z", duration: "PT1H")
                    .write(to: local.appendingPathComponent("v.ics"))
            }
            let config = folder.file("\(kind.count).toml")
            try Data("[pair.p]\nlocal = \"\(local.path)\"\nremote = \"file://\(mirror.path)\"\n".utf8).write(to: config)
            // Never synced: no state folder, journal or lock appears.
            try await Self.leaveNoTrace("\(kind), first", config: config, root: root, environment: environment)
            #expect(try await CalgwBinary.run(["sync", "--config", config.path], environment: environment).status == 0)
            // Synced, with changes waiting on both sides.
            try TestEvent.data(uid: "m2", summary: "new in the mirror", start: "20270301T100000Z", duration: "PT1H")
                .write(to: mirror.appendingPathComponent("m2.ics"))
            if kind == "vdir" {
                try TestEvent.data(uid: "v2", summary: "new in the vdir", start: "20270301T100000Z", duration: "PT1H")
                    .write(to: local.appendingPathComponent("v2.ics"))
            }
            try await Self.leaveNoTrace("\(kind), later", config: config, root: root, environment: environment)
        }
    }

    @Test func anAccountAndAPairOfServers() async throws {
        let server = try TestServers.shared(TestServers.any())
        let id = UUID().uuidString.prefix(8).lowercased()
        let a = server.newCollectionURL(prefix: "trace-a"), b = server.newCollectionURL(prefix: "trace-b")
        try await server.makeCalendar(a)
        try await server.makeCalendar(b)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let environment = [
            "CALGW_TEST_PASSWORD": server.password, "CALGW_TEST_PASSWORD_LOCAL": server.password,
            "XDG_STATE_HOME": folder.file("state").path,
        ]
        let watched = { try await Self.listing(a, on: server) + Self.listing(b, on: server) }
        try FileManager.default.createDirectory(
            at: folder.file("calendars/\(a.lastPathComponent)"), withIntermediateDirectories: true)
        try TestEvent.data(
            uid: "acct-\(id)", summary: "made in the folder", start: "20270301T100000Z", duration: "PT1H"
        )
        .write(to: folder.file("calendars/\(a.lastPathComponent)/e.ics"))

        let account = folder.file("account.toml")
        try TestPairConfig(
            name: "acct", local: folder.file("calendars"), collection: server.home,
            journal: folder.file("state/acct.sqlite"),
            server: server, extra: ["collections = [\"\(a.lastPathComponent)\", \"\(b.lastPathComponent)\"]"]
        ).write(to: account)
        try await Self.leaveNoTrace(
            "account, first", config: account, root: folder.url, environment: environment, watched: watched)
        #expect(try await CalgwBinary.run(["sync", "--config", account.path], environment: environment).status == 0)
        try TestEvent.data(uid: "acct2-\(id)", summary: "another", start: "20270301T100000Z", duration: "PT1H")
            .write(to: folder.file("calendars/\(a.lastPathComponent)/e2.ics"))
        try await Self.leaveNoTrace(
            "account, later", config: account, root: folder.url, environment: environment, watched: watched)

        let servers = folder.file("servers.toml")
        try TestPairConfig(
            name: "move", local: a, collection: b, journal: folder.file("state/move.sqlite"), server: server,
            extra: ["local_username = \"\(server.username)\"", "local_password_env = \"CALGW_TEST_PASSWORD_LOCAL\""]
        ).write(to: servers)
        try await Self.leaveNoTrace(
            "servers, first", config: servers, root: folder.url, environment: environment, watched: watched)
    }

    @Test func aSubscription() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let feedRoot = folder.file("feed")
        try FileManager.default.createDirectory(at: feedRoot, withIntermediateDirectories: true)
        try TestEvent.data(uid: "f", summary: "from the feed", start: "20270301T100000Z", duration: "PT1H")
            .write(to: feedRoot.appendingPathComponent("feed.ics"))
        let feed = try TestProxies.feed(root: feedRoot)
        defer { feed.stop() }
        let config = folder.file("feed.toml")
        try Data(
            "[pair.feed]\nlocal = \"\(folder.file("holidays").path)\"\nremote = \"\(feed.url.absoluteString)feed.ics\"\n"
                .utf8
        ).write(to: config)
        let environment = ["XDG_STATE_HOME": folder.file("state").path]
        try await Self.leaveNoTrace(
            "feed, first", config: config, root: folder.url, environment: environment,
            commands: [["status"], ["sync", "--dry-run"], ["pull", "--dry-run"]])
        #expect(try await CalgwBinary.run(["pull", "--config", config.path], environment: environment).status == 0)
        try await Self.leaveNoTrace(
            "feed, later", config: config, root: folder.url, environment: environment,
            commands: [["status"], ["sync", "--dry-run"], ["pull", "--dry-run"]])
    }
}
