import CalDAV
import CalendarSync
import CalgwTestSupport
import CalgwTestTraits
import Foundation
import Testing
import VDir
@testable import calgw

@Suite(.serialized, .timeLimit(.minutes(10))) struct WatchCommandTests {
    @Test func localFileReachesRemoteAndRemoteChangeArrivesAfterPoll() async throws {
        let pair = try VDirPair()
        defer { pair.remove() }
        try pair.write(pair.remote, "before.ics", TestEvent.data(uid: "before", summary: "from before"))
        let watch = try WatchProcess(["--config", pair.config.path, "--interval", "1", "--json"])
        // The first run catches up with what changed while nobody watched.
        #expect(
            await WatchProcess.wait { (try? pair.summaries(pair.local))?["before"] == "from before" },
            "\(watch.stderrText)")
        #expect(await WatchProcess.wait { !watch.records.isEmpty })
        #expect(watch.records.first?["trigger"] as? String == "start")

        try pair.write(pair.local, "new.ics", TestEvent.data(uid: "new", summary: "written locally"))
        #expect(
            await WatchProcess.wait { (try? pair.summaries(pair.remote))?["new"] == "written locally" },
            "\(watch.stderrText)"
        )

        try pair.write(pair.remote, "far.ics", TestEvent.data(uid: "far", summary: "written remotely"))
        #expect(
            await WatchProcess.wait { (try? pair.summaries(pair.local))?["far"] == "written remotely" },
            "\(watch.stderrText)"
        )

        try FileManager.default.removeItem(at: pair.local.appendingPathComponent("new.ics"))
        #expect(await WatchProcess.wait { (try? pair.summaries(pair.remote))?["new"] == nil }, "\(watch.stderrText)")

        #expect(await watch.stop() == 0, "\(watch.stderrText)")
        let records = watch.records
        #expect(!records.isEmpty)
        #expect(
            records.allSatisfy { $0["status"] as? Int == 0 && $0["pair"] as? String == "test" }, "\(watch.stdoutText)")
        #expect(records.contains { $0["trigger"] as? String == "poll" })
        #expect(try pair.summaries(pair.local) == pair.summaries(pair.remote))
    }

    /// Every way a tool puts a file into a vdir is seen at once, with no poll due (interval
    /// 600 s): a hard link (khal's save), a file made with O_TMPFILE and linked in (calgw's own
    /// `event add --offline`), `cp`, `mv` from outside, and an in-place rewrite (`sed -i`).
    @Test func everyWayAFileAppearsIsSeenAtOnce() async throws {
        let pair = try VDirPair()
        defer { pair.remove() }
        let outside = pair.local.deletingLastPathComponent().appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let watch = try WatchProcess(["--config", pair.config.path, "--interval", "600", "--json"])
        #expect(await WatchProcess.wait { watch.records.count >= 1 }, "\(watch.stderrText)")
        let ways: [(String, (URL, Data) async throws -> Void)] = [
            (
                "link",
                { target, data in
                    let temp = outside.appendingPathComponent("link-source.ics")
                    try data.write(to: temp)
                    #expect(link(temp.path, target.path) == 0)
                }
            ),
            (
                "otmpfile",
                { target, data in
                    let r = try await ProcessRunner.run(
                        "python3",
                        [
                            "-c",
                            """
                            import ctypes, os, sys
                            fd = os.open(sys.argv[1], os.O_TMPFILE | os.O_WRONLY, 0o600)
                            os.write(fd, sys.stdin.buffer.read())
                            libc = ctypes.CDLL(None, use_errno=True)  # linkat(AT_FDCWD, ..., AT_SYMLINK_FOLLOW)
                            if libc.linkat(-100, f"/proc/self/fd/{fd}".encode(), -100, sys.argv[2].encode(), 0x400) != 0:
                                raise OSError(ctypes.get_errno(), "linkat")
                            """, target.deletingLastPathComponent().path, target.path,
                        ], stdin: data)
                    #expect(r.status == 0, "\(r.stderrText)")
                }
            ),
            (
                "cp",
                { target, data in
                    let temp = outside.appendingPathComponent("cp-source.ics")
                    try data.write(to: temp)
                    #expect(try await ProcessRunner.run("cp", [temp.path, target.path]).status == 0)
                }
            ),
            (
                "mv",
                { target, data in
                    let temp = outside.appendingPathComponent("mv-source.ics")
                    try data.write(to: temp)
                    #expect(try await ProcessRunner.run("mv", [temp.path, target.path]).status == 0)
                }
            ),
        ]
        for (name, write) in ways {
            try await write(
                pair.local.appendingPathComponent("\(name).ics"),
                TestEvent.data(uid: name, summary: "written by \(name)"))
            #expect(
                await WatchProcess.wait { (try? pair.summaries(pair.remote))?[name] == "written by \(name)" },
                "\(name): not seen; \(watch.stderrText)")
        }
        #expect(
            try await ProcessRunner.run(
                "sed", ["-i", "s/written by cp/edited by sed/", pair.local.appendingPathComponent("cp.ics").path]
            ).status == 0)
        #expect(
            await WatchProcess.wait { (try? pair.summaries(pair.remote))?["cp"] == "edited by sed" }, "sed -i: not seen"
        )
        #expect(await watch.stop() == 0, "\(watch.stderrText)")
        #expect(
            !watch.records.contains { $0["trigger"] as? String == "poll" }, "a poll came, so the test proves nothing")
    }

    @Test func jsonPrintsOneDocumentPerLineAndRun() async throws {
        let pair = try VDirPair()
        defer { pair.remove() }
        let watch = try WatchProcess(["--config", pair.config.path, "--interval", "1", "--json"])
        #expect(await WatchProcess.wait { watch.stdoutText.filter { $0 == "\n" }.count >= 1 }, "\(watch.stderrText)")
        try pair.write(pair.local, "one.ics", TestEvent.data(uid: "one", summary: "to go up"))
        // Until the run that uploads it: a poll may come first, when the write comes late.
        let uploads = { watch.records.contains { ($0["created"] as? [String: Int])?["remote"] == 1 } }
        #expect(await WatchProcess.wait { uploads() }, "\(watch.stderrText)")
        #expect(await watch.stop() == 0, "\(watch.stderrText)")

        let text = watch.stdoutText
        #expect(text.hasSuffix("\n"))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count >= 2, "\(text)")
        var uploaded = 0
        for line in lines {
            // Each line on its own is a whole JSON object.
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object != nil, "not a JSON object: \(line)")
            #expect(object?["pair"] as? String == "test")
            #expect(["start", "local", "poll"].contains(object?["trigger"] as? String ?? ""), "\(line)")
            #expect(object?["status"] as? Int == 0)
            #expect(object?["nextPollSeconds"] as? Double == 1)
            uploaded += (object?["created"] as? [String: Int])?["remote"] ?? 0
        }
        #expect(
            lines.first.map {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["trigger"] as? String
            } == "start")
        #expect(uploaded == 1, "\(text)")
    }

    @Test func editorLeftoversAndDotfilesAreNotSynced() async throws {
        let pair = try VDirPair()
        defer { pair.remove() }
        let watch = try WatchProcess(["--config", pair.config.path, "--interval", "1", "--json"])
        #expect(await WatchProcess.wait { !watch.records.isEmpty }, "\(watch.stderrText)")
        try pair.write(pair.local, ".hidden.ics", TestEvent.data(uid: "hidden", summary: "dot"))
        try pair.write(pair.local, "real.ics.swp", Data("junk".utf8))
        try pair.write(pair.local, "real.ics", TestEvent.data(uid: "real", summary: "kept"))
        #expect(
            await WatchProcess.wait { (try? pair.summaries(pair.remote))?["real"] == "kept" }, "\(watch.stderrText)")
        // An editor's save: write a temporary dotfile, then rename it over the item.
        try pair.write(pair.local, ".real.ics.tmp", TestEvent.data(uid: "real", summary: "saved by rename"))
        try FileManager.default.removeItem(at: pair.local.appendingPathComponent("real.ics"))
        try FileManager.default.moveItem(
            at: pair.local.appendingPathComponent(".real.ics.tmp"), to: pair.local.appendingPathComponent("real.ics"))
        #expect(
            await WatchProcess.wait { (try? pair.summaries(pair.remote))?["real"] == "saved by rename" },
            "\(watch.stderrText)")
        #expect(await watch.stop(SIGINT) == 0, "\(watch.stderrText)")
        let remoteNames = try FileManager.default.contentsOfDirectory(atPath: pair.remote.path)
        #expect(remoteNames.filter { $0.contains("hidden") || $0.hasSuffix(".swp") }.isEmpty, "\(remoteNames)")
    }

    @Test func sigtermExitsZeroWithoutJSON() async throws {
        let pair = try VDirPair()
        defer { pair.remove() }
        let watch = try WatchProcess(["--config", pair.config.path, "--interval", "600"])
        #expect(await WatchProcess.wait { watch.stderrText.contains("watching") }, "\(watch.stderrText)")
        #expect(await watch.stop(SIGTERM, limit: 20) == 0, "\(watch.stderrText)")
        #expect(watch.stderrText.contains("stopped by SIGTERM"))
    }

    @Test func failedRunsBackOffByDoubling() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let config = folder.file("config.toml")
        try Data(
            """
            [pair.down]
            local = "\(folder.file("vdir").path)"
            remote = "http://127.0.0.1:1/cal/"
            journal = "\(folder.file("state/down.sqlite").path)"
            """.utf8
        ).write(to: config)
        let watch = try WatchProcess(["--config", config.path, "--interval", "1", "--json"])
        #expect(await WatchProcess.wait { watch.records.count >= 3 }, "\(watch.stderrText)")
        #expect(await watch.stop() == 0, "\(watch.stderrText)")
        let records = watch.records
        #expect(records.prefix(3).map { $0["nextPollSeconds"] as? Double } == [2, 4, 8], "\(watch.stdoutText)")
        #expect(records.allSatisfy { $0["status"] as? Int == 1 && !(($0["errors"] as? [String]) ?? []).isEmpty })
    }

    /// A pair whose sign-in is gone (never made, expired, revoked) fails every run the same
    /// way: `watch` says so once, with what fixes it, and keeps watching.
    @Test func aSignInThatIsGoneIsSaidOnceAndTheWatchGoesOn() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let config = folder.file("config.toml")
        try Data(
            """
            [pair.google]
            local = "\(folder.file("vdir").path)"
            remote = "https://apidata.googleusercontent.com/caldav/v2/alice%40example.org/events/"
            journal = "\(folder.file("state/google.sqlite").path)"
            auth = "google"
            client_id = "1234-abc.apps.googleusercontent.com"
            client_secret = "GOCSPX-x"
            """.utf8
        ).write(to: config)
        let watch = try WatchProcess(
            ["--config", config.path, "--interval", "1", "--json"],
            environment: ["XDG_STATE_HOME": folder.file("state").path])
        #expect(await WatchProcess.wait { watch.records.count >= 3 }, "\(watch.stderrText)")
        #expect(await watch.stop() == 0, "the watch went on: \(watch.stderrText)")
        let said = watch.stderrText.components(separatedBy: "is not signed in").count - 1
        #expect(said == 1, "\(watch.stderrText)")
        #expect(watch.stderrText.contains("calgw login --pair google"), "\(watch.stderrText)")
        #expect(watch.records.allSatisfy { $0["status"] as? Int == 5 }, "\(watch.stdoutText)")
    }

    /// Writes `config.toml` in `folder` with two vdir pairs, `one` and `two` (`l-NAME` synced
    /// with `r-NAME`), and makes their folders.
    static func twoPairs(in folder: TemporaryFolder) throws {
        var toml = ""
        for name in ["one", "two"] {
            for side in ["l", "r"] {
                try FileManager.default.createDirectory(
                    at: folder.file("\(side)-\(name)"), withIntermediateDirectories: true)
            }
            toml +=
                "[pair.\(name)]\nlocal = \"\(folder.file("l-\(name)").path)\"\nremote = \"file://\(folder.file("r-\(name)").path)\"\n"
            toml += "journal = \"\(folder.file("\(name).sqlite").path)\"\n"
        }
        try Data(toml.utf8).write(to: folder.file("config.toml"))
    }

    @Test func allRunsOnlyThePairWhoseVdirChanged() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.twoPairs(in: folder)
        let watch = try WatchProcess([
            "--config", folder.file("config.toml").path, "--all", "--interval", "600", "--json",
        ])
        #expect(await WatchProcess.wait { watch.records.count == 2 }, "\(watch.stderrText)")
        try TestEvent.data(uid: "x", summary: "for two").write(to: folder.file("l-two/x.ics"))
        #expect(
            await WatchProcess.wait { (try? VDirPair.summariesIn(folder.file("r-two")))?["x"] == "for two" },
            "\(watch.stderrText)")
        #expect(await WatchProcess.wait { watch.records.count >= 3 })
        #expect(await watch.stop() == 0)
        let later = watch.records.dropFirst(2)
        #expect(
            later.allSatisfy { $0["pair"] as? String == "two" && $0["trigger"] as? String == "local" },
            "\(watch.stdoutText)")
        #expect(try VDirPair.summariesIn(folder.file("r-one")).isEmpty)
    }

    /// Without --json, a line per run that changed something, for one pair and for --all
    /// alike: the start runs of unchanged pairs print nothing.
    @Test(arguments: [["--pair", "one"], ["--all"]])
    func textModePrintsALinePerRunThatChangedSomething(_ selection: [String]) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.twoPairs(in: folder)
        for name in ["one", "two"] {
            try TestEvent.data(uid: "seed-\(name)", summary: "seed").write(to: folder.file("l-\(name)/seed.ics"))
        }
        #expect(try await CalgwBinary.run(["sync", "--all", "--config", folder.file("config.toml").path]).status == 0)
        let watch = try WatchProcess(["--config", folder.file("config.toml").path, "--interval", "600"] + selection)
        #expect(await WatchProcess.wait { watch.stderrText.contains("polling every") }, "\(watch.stderrText)")
        try TestEvent.data(uid: "x", summary: "new").write(to: folder.file("l-one/x.ics"))
        #expect(
            await WatchProcess.wait { watch.stdoutText.contains("one: ") }, "\(watch.stdoutText)\(watch.stderrText)")
        #expect(await watch.stop() == 0)
        let lines = watch.stdoutText.split(whereSeparator: \.isNewline)
        #expect(
            lines.count == 1 && lines[0].contains("one: local: 0 created, 0 updated, 0 deleted; remote: 1 created"),
            "\(selection): \(watch.stdoutText)")
    }

    @Test func usageErrors() async throws {
        let pair = try VDirPair()
        defer { pair.remove() }
        #expect(try await pair.run("watch", ["--interval", "0"]).status == 2)
        #expect(try await pair.run("watch", ["--conflict", "ask"]).status == 2)
        #expect(try await pair.run("watch", ["--pair", "nope"]).status == 2)
    }

    @Test(arguments: ["radicale"])
    func radicaleBothWays(server name: String) async throws {
        let server = try TestServers.shared(name)
        let client = try CalDAVClient(
            configuration: .init(
                http: .init(authentication: .basic(username: server.username, password: server.password))))
        let collection = server.newCollectionURL(prefix: "watch")
        try await client.makeCalendar(collection, displayName: "Watch")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let local = folder.file("vdir"), config = folder.file("config.toml")
        try FileManager.default.createDirectory(at: local, withIntermediateDirectories: true)
        try TestPairConfig(
            name: "dav", local: local, collection: collection,
            journal: folder.file("state/dav.sqlite"), server: server, passwordEnv: "CALGW_TEST_DAV_PASSWORD"
        ).write(to: config)
        let uidLocal = "watch-local-\(UUID().uuidString.lowercased())",
            uidRemote = "watch-remote-\(UUID().uuidString.lowercased())"
        let watch = try WatchProcess(
            ["--config", config.path, "--interval", "1", "--json"],
            environment: ["CALGW_TEST_DAV_PASSWORD": server.password])
        #expect(await WatchProcess.wait { !watch.records.isEmpty }, "\(watch.stderrText)")

        try TestEvent.data(uid: uidLocal, summary: "from the vdir").write(
            to: local.appendingPathComponent("\(uidLocal).ics"))
        var uploaded = false
        for _ in 0..<300 where !uploaded {
            uploaded = try await client.listItems(in: collection).contains { $0.href.path.contains(uidLocal) }
            if !uploaded { try await Task.sleep(nanoseconds: 100_000_000) }
        }
        #expect(uploaded, "\(watch.stderrText)")

        _ = try await client.put(
            collection.appendingPathComponent("\(uidRemote).ics"),
            data: TestEvent.data(uid: uidRemote, summary: "from the server"), condition: .createOnly)
        #expect(
            await WatchProcess.wait { (try? VDirPair.summariesIn(local))?[uidRemote] == "from the server" },
            "\(watch.stderrText)")

        #expect(await watch.stop() == 0, "\(watch.stderrText)")
        #expect(watch.records.allSatisfy { $0["status"] as? Int == 0 }, "\(watch.stdoutText)")
        #expect(try VDirPair.summariesIn(local).count == 2)
    }

    @Test func pollBacksOffByDoublingUpToFifteenMinutes() {
        var schedule = PollSchedule(interval: 60)
        var delays: [Double] = []
        for _ in 0..<6 { delays.append(schedule.record(success: false)) }
        #expect(delays == [120, 240, 480, 900, 900, 900])
        let reset = schedule.record(success: true)
        #expect(reset == 60)
        var long = PollSchedule(interval: 3600)
        let longDelay = long.record(success: false)
        #expect(longDelay == 3600)
    }

    @Test func debouncerWaitsForQuiet() {
        var debouncer = Debouncer(quiet: 0.5)
        var fired: [Bool] = [debouncer.fire(at: 10)]
        debouncer.touch(at: 10)
        debouncer.touch(at: 10.3)
        fired.append(debouncer.fire(at: 10.6))
        fired.append(debouncer.fire(at: 10.8))
        fired.append(debouncer.fire(at: 11))
        #expect(fired == [false, false, true, false])
    }

    @Test func watchSeesTheFilesTheVdirListsAsItems() {
        // One rule for what is an item (ItemFileFilter), in the listing and in watch.
        #expect(ItemFileFilter.isItem("abc.ics"))
        for name in [".abc.ics", ".abc.ics.swp", "abc.ics~", "#abc.ics#", "abc.ics.tmp", "4913", ".calgw-tmp-1", ""] {
            #expect(!ItemFileFilter.isItem(name), "\(name)")
        }
    }
}
