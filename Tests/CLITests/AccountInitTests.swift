import Foundation
import Testing
import CalgwTestSupport

/// `calgw init --all-collections` discovers a real server's calendars, prints them and writes
/// an account pair that then syncs.
@Suite(.timeLimit(.minutes(10))) struct AccountInitTests {
    @Test(arguments: TestServers.selected)
    func initWritesAnAccountPairAndListsTheCalendars(server name: String) async throws {
        let server = try TestServers.start(name)
        defer { server.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let id = UUID().uuidString.prefix(6).lowercased()
        let account = try AccountFixture(server: server)
        defer { account.remove() }
        let work = try await account.makeCalendar("work-\(id)", displayName: "Work \(id)")
        try await account.put(
            TestEvent.ics(uid: "w-\(id)", summary: "Work", start: "20260301T100000Z", duration: "PT1H"), name: "w",
            in: work)
        try await account.makeCalendar("tasks-\(id)", displayName: "Tasks \(id)", components: ["VTODO"])

        let config = folder.file("config.toml"), local = folder.file("calendars")
        let environment = ["CALGW_TEST_PASSWORD": server.password, "XDG_STATE_HOME": folder.file("state").path]
        var r = try await CalgwBinary.run(
            [
                "init", "--all-collections", "--pair", "acct", "--remote", server.home.absoluteString,
                "--local", local.path, "--username", server.username,
                "--password-command", "printenv CALGW_TEST_PASSWORD", "--config", config.path,
            ],
            environment: environment)
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        #expect(
            r.stdoutText.contains("work-\(id)/ → ") && r.stdoutText.contains("Work \(id)"), "\(name): \(r.stdoutText)")
        #expect(r.stdoutText.contains("tasks-\(id)/ → ") && r.stdoutText.contains("VTODO"), "\(name): \(r.stdoutText)")
        let text = try String(contentsOf: config, encoding: .utf8)
        #expect(text.contains("[pair.acct]") && text.contains("collections = \"all\""), "\(name): \(text)")

        r = try await CalgwBinary.run(["sync", "--json", "--config", config.path], environment: environment)
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        let synced =
            (try? FileManager.default.contentsOfDirectory(atPath: local.appendingPathComponent("work-\(id)").path))
            ?? []
        #expect(synced.contains("w-\(id).ics"), "\(name): \(synced)")
        #expect(FileManager.default.fileExists(atPath: local.appendingPathComponent("tasks-\(id)").path), "\(name)")

        // --json lists the same calendars.
        r = try await CalgwBinary.run(
            [
                "init", "--all-collections", "--pair", "again", "--remote", server.home.absoluteString,
                "--local", folder.file("other").path, "--username", server.username,
                "--password-env", "CALGW_TEST_PASSWORD", "--config", config.path, "--json",
            ], environment: environment)
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        let object = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
        let names = (object?["collections"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
        #expect(names.contains("work-\(id)") && names.contains("tasks-\(id)"), "\(name): \(r.stdoutText)")
    }
}

/// `init` takes the TLS options `discover` takes: `init --all-collections` against a server
/// with a private CA (a TLS proxy with a throwaway CA in front of a real server) discovers its
/// calendars with `--ca-file` and `--pinned-public-key`, writes them into the pair as
/// `ca_file` and `verify_fingerprint`, and the pair then syncs. Without the CA it is refused, and
/// so is a wrong pin. On a server that schedules, `init` tells the account's addresses.
@Suite(.timeLimit(.minutes(10))) struct InitTLSTests {
    @Test func initAllCollectionsTrustsTheGivenCAAndPin() async throws {
        let server = try TestServers.shared(TestServers.any())
        let tls = try TestProxies.tls(upstream: server.url)
        defer { tls.stop() }
        let ca = try #require(tls.values["PROXY_CA"], "the TLS proxy gives its CA")
        let pin = try #require(tls.values["PROXY_SPKI_SHA256"], "the TLS proxy gives its pin")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let config = folder.file("config.toml")
        let environment = ["CALGW_TEST_PASSWORD": server.password, "XDG_STATE_HOME": folder.file("state").path]
        let home = tls.proxied(server.home).absoluteString
        func initPair(_ name: String, _ extra: [String]) async throws -> ProcessRunner.Result {
            try await CalgwBinary.run(
                [
                    "init", "--all-collections", "--pair", name, "--remote", home, "--local", folder.file(name).path,
                    "--username", server.username, "--password-env", "CALGW_TEST_PASSWORD", "--config", config.path,
                ] + extra,
                environment: environment)
        }

        let untrusted = try await initPair("plain", [])
        #expect(
            untrusted.status != 0 && untrusted.stderrText.lowercased().contains("certificate"),
            "\(untrusted.stderrText)")
        let wrongPin = try await initPair(
            "pinned", ["--ca-file", ca, "--pinned-public-key", "sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="])
        #expect(wrongPin.status != 0, "\(wrongPin.stdoutText)")

        let trusted = try await initPair("acct", ["--ca-file", ca, "--pinned-public-key", "sha256//" + pin])
        #expect(
            trusted.status == 0 && trusted.stdoutText.contains("added pair \"acct\""),
            "\(trusted.stdoutText)\(trusted.stderrText)")
        let text = try String(contentsOf: config, encoding: .utf8)
        #expect(
            text.contains("ca_file = \"\(ca)\"") && text.contains("verify_fingerprint = \"sha256//\(pin)\""), "\(text)")
        #expect(!text.contains("[pair.plain]") && !text.contains("[pair.pinned]"), "\(text)")
        let synced = try await CalgwBinary.run(["sync", "--config", config.path], environment: environment)
        #expect(synced.status == 0, "\(synced.stdoutText)\(synced.stderrText)")
    }

    @Test(
        .enabled(if: MeetingCopyTests.scheduling.contains("cyrus"), "needs cyrus, which CALGW_TEST_SERVERS leaves out"))
    func initTellsAndKeepsTheAccountsAddresses() async throws {
        let server = try TestServers.shared("cyrus")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let config = folder.file("config.toml")
        let environment = ["CALGW_TEST_PASSWORD": server.password, "XDG_STATE_HOME": folder.file("state").path]
        let r = try await CalgwBinary.run(
            [
                "init", "--all-collections", "--pair", "acct", "--remote", server.home.absoluteString,
                "--local", folder.file("calendars").path, "--username", server.username,
                "--password-env", "CALGW_TEST_PASSWORD", "--config", config.path,
            ], environment: environment)
        let address = try #require(server.address)
        #expect(
            r.status == 0 && r.stdoutText.contains("account: \(address)")
                && r.stdoutText.contains("the server schedules meetings"),
            "\(r.stdoutText)\(r.stderrText)")
        let cached = try String(contentsOf: folder.file("state/calgw/acct.account.json"), encoding: .utf8)
        #expect(cached.contains(address.replacingOccurrences(of: "mailto:", with: "")), "\(cached)")
    }
}
