import Foundation
import Testing
import CalendarSync
import CalgwTestSupport
@testable import calgw

@Suite(.timeLimit(.minutes(10))) struct ConfigFileTests {
    let paths = ConfigPaths(environment: ["HOME": "/home/alice"])
    let url = URL(fileURLWithPath: "/home/alice/.config/calgw/config.toml")

    func parse(_ text: String) throws -> ConfigFile { try ConfigFile.parse(text, url: url, paths: paths) }

    /// A pair whose folder is inside another's (or holds it, or is it) is refused by every
    /// command that runs it, naming both; pairs side by side are fine.
    @Test func pairsWhoseFoldersOverlapAreRefused() throws {
        let config = try parse(
            """
            [pair.account]
            local = "~/calendars"
            remote = "https://dav.example.com/dav/calendars/alice/"
            collections = "all"

            [pair.holidays]
            local = "~/calendars/holidays"
            remote = "https://example.com/holidays.ics"
            subscription = true

            [pair.export]
            local = "~/Documents/calendar.ics"
            remote = "https://dav.example.com/dav/calendars/alice/export/"

            [pair.same]
            local = "~/Documents/calendar.ics/"
            remote = "https://dav.example.com/dav/calendars/alice/other/"

            [pair.work]
            local = "~/work-calendar"
            remote = "https://dav.example.com/dav/calendars/alice/work/"
            """)
        for (name, other, relation) in [
            ("account", "holidays", "contains"), ("holidays", "account", "is inside"),
            ("export", "same", "is the same as"),
        ] {
            #expect {
                try config.select(pair: name, all: false)
            } throws: { error in
                let message = (error as? ConfigError)?.message ?? ""
                return message.contains("pair \(name)'s local side") && message.contains(relation)
                    && message.contains("pair \(other)'s")
            }
        }
        #expect(try config.select(pair: "work", all: false).map(\.name) == ["work"])
        #expect(throws: ConfigError.self) { try config.select(pair: nil, all: true) }
        // `~/calendars-old` is beside `~/calendars`, not inside it.
        #expect(
            !ConfigFile.overlap(
                URL(fileURLWithPath: "/home/a/calendars"), URL(fileURLWithPath: "/home/a/calendars-old")))
    }

    @Test func readsEveryKeyOfCLIMdsExample() throws {
        let config = try parse(
            """
            [pair.personal]
            local = "~/calendars/personal"          # the vdir
            remote = "https://dav.example.com/dav/calendars/alice/personal/"
            username = "alice"
            password_command = ["pass", "show", "dav/alice"]
            conflict = "newest"
            window = "-90d..+365d"

            [pair.fastmail]
            local = "~/calendars"
            remote = "https://caldav.example.com/dav/calendars/user/alice/"
            username = "alice"
            password_env = "FASTMAIL_PASSWORD"
            collections = ["personal", "work"]
            journal = "~/j.sqlite"
            scheduling = "never"
            addresses = ["mailto:alice@example.org", "mailto:a.l@example.org"]
            mail_command = ["msmtp", "-t"]
            """)
        #expect(config.pairs.map(\.name) == ["fastmail", "personal"])
        let personal = try #require(config.pairs.last)
        #expect(personal.local.path == "/home/alice/calendars/personal")
        #expect(personal.login.password == .command(["pass", "show", "dav/alice"]))
        #expect(personal.conflict == .newest && personal.window == "-90d..+365d")
        #expect(personal.journal.path == "/home/alice/.local/state/calgw/personal.sqlite")
        let fastmail = try #require(config.pairs.first)
        #expect(fastmail.collections == .named(["personal", "work"]))
        #expect(fastmail.login.password == .environment("FASTMAIL_PASSWORD"))
        #expect(fastmail.journal.path == "/home/alice/j.sqlite")
        #expect(!fastmail.scheduling && personal.scheduling)
        #expect(
            fastmail.addresses == ["mailto:alice@example.org", "mailto:a.l@example.org"] && personal.addresses.isEmpty)
        #expect(fastmail.mailCommand == ["msmtp", "-t"] && personal.mailCommand == nil)
        #expect(throws: (any Error).self) {
            try parse("[pair.p]\nlocal = \"/x\"\nremote = \"https://h/\"\naddresses = 3\n")
        }
        #expect(throws: (any Error).self) {
            try parse("[pair.p]\nlocal = \"/x\"\nremote = \"https://h/\"\nscheduling = \"sometimes\"\n")
        }
    }

    @Test(arguments: [
        ("[pair.p]\nremote = \"https://x/\"", "pair.p.local is missing"),
        ("[pair.p]\nlocal = \"/v\"\nremote = \"ftp://x/\"", "pair.p.remote must be an http"),
        (
            "[pair.p]\nlocal = \"/v\"\nremote = \"https://x/\"\nconflict = \"coin-flip\"",
            "pair.p.conflict is \"coin-flip\""
        ),
        (
            "[pair.p]\nlocal = \"/v\"\nremote = \"https://x/\"\npasword_env = \"X\"",
            "pair.p.pasword_env is not a setting"
        ),
        (
            "[pair.p]\nlocal = \"/v\"\nremote = \"https://x/\"\npassword_env = \"X\"\npassword_file = \"/f\"",
            "more than one way"
        ),
        ("[pair.p]\nlocal = \"/v\"\nremote = \"https://x/\"\nwindow = \"90 days\"", "pair.p.window"),
        ("[pair.p\nlocal = 1", "config.toml:1:"),
    ])
    func refusesMistakesNamingTheKey(_ text: String, _ expected: String) {
        let error = #expect(throws: ConfigError.self) { try parse(text) }
        #expect(error?.message.contains(expected) == true, "\(String(describing: error))")
    }

    @Test(arguments: [
        ("-90d..+365d", true), ("0d..7d", true), ("+1d..-1d", true), ("-90d..+365d\n", false), ("90 days", false),
        ("-90d..", false), ("d..1d", false), ("--1d..1d", false), ("1d...1d", false), ("1d..1", false),
        ("1d..1dx", false), ("", false),
    ])
    func readsAWindowAsItsShapeSays(_ text: String, _ valid: Bool) {
        #expect(ConfigText.isWindow(text) == valid)
    }

    @Test func namesPairsAndKeysWithTheirOwnCharacters() {
        #expect(ConfigText.isWord("home.work_2-b", alsoAllowing: "_.-"))
        #expect(!ConfigText.isWord("home work", alsoAllowing: "_.-"))
        #expect(!ConfigText.isWord("", alsoAllowing: "_.-"))
        #expect(!ConfigText.isWord("caf\u{E9}", alsoAllowing: "_.-"))
        #expect(TOMLText.key("password_env") == "password_env")
        #expect(TOMLText.key("a.b") == "\"a.b\"")
        let error = #expect(throws: ConfigError.self) {
            try parse("[pair.\"a b\"]\nlocal = \"/v\"\nremote = \"https://x/\"")
        }
        #expect(error?.message.contains("may use only letters, digits") == true)
    }

    @Test func selectsThePairToRunOn() throws {
        let one = try parse("[pair.a]\nlocal = \"/a\"\nremote = \"https://x/a/\"\n")
        #expect(try one.select(pair: nil, all: false).map(\.name) == ["a"])
        let two = try parse(
            "[pair.a]\nlocal = \"/a\"\nremote = \"https://x/a/\"\n[pair.b]\nlocal = \"/b\"\nremote = \"https://x/b/\"\n"
        )
        #expect(throws: ConfigError.self) { try two.select(pair: nil, all: false) }
        #expect(try two.select(pair: "b", all: false).map(\.name) == ["b"])
        #expect(try two.select(pair: nil, all: true).count == 2)
        #expect(throws: ConfigError.self) { try two.select(pair: "c", all: false) }
    }
}

@Suite(.timeLimit(.minutes(10))) struct InitCommandTests {
    @Test func appendsAPairKeepingCommentsAndTheFileReadsBack() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let config = folder.file("config.toml")
        try Data("# my calendars\n[pair.work]\nlocal = \"/w\"\nremote = \"https://x/w/\"\n".utf8).write(to: config)
        let result = try await CalgwBinary.run([
            "init", "--config", config.path, "--local", folder.file("home").path,
            "--remote", "https://dav.example.com/alice/home/", "--username", "al\"ice",
            "--password-command", "pass show 'dav/alice'",
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        let text = try String(contentsOf: config, encoding: .utf8)
        #expect(text.hasPrefix("# my calendars\n[pair.work]"))
        let parsed = try ConfigFile.parse(text, url: config)
        let home = try #require(parsed.pairs.first { $0.name == "home" })
        #expect(home.login.username == "al\"ice")
        #expect(home.login.password == .command(["/bin/sh", "-c", "pass show 'dav/alice'"]))
        #expect(FileManager.default.fileExists(atPath: folder.file("home").path))
        let again = try await CalgwBinary.run([
            "init", "--config", config.path, "--local", folder.file("home").path, "--remote", "https://x/",
        ])
        #expect(again.status == 2 && again.stderrText.contains("already has a pair named \"home\""))
        // A pair in a folder inside another pair's is refused, the file left as it was.
        let before = try String(contentsOf: config, encoding: .utf8)
        let nested = try await CalgwBinary.run([
            "init", "--config", config.path, "--pair", "nested", "--local", folder.file("home/holidays").path,
            "--remote", "https://dav.example.com/alice/holidays/",
        ])
        #expect(
            nested.status == 2 && nested.stderrText.contains("pair nested's local side")
                && nested.stderrText.contains("is inside pair home's"),
            "\(nested.stderrText)")
        #expect(try String(contentsOf: config, encoding: .utf8) == before)
    }

    @Test func initWritesATokenCommandAndRefusesTwoSecretSources() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let config = folder.file("config.toml")
        let result = try await CalgwBinary.run([
            "init", "--config", config.path, "--local", folder.file("google").path,
            "--remote", "https://apidata.googleusercontent.com/caldav/v2/alice/events/",
            "--token-command", "oauth2token google alice",
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        let parsed = try ConfigFile.parse(try String(contentsOf: config, encoding: .utf8), url: config)
        let google = try #require(parsed.pairs.first { $0.name == "google" })
        #expect(google.login.tokenCommand == ["/bin/sh", "-c", "oauth2token google alice"])
        #expect(google.login.password == nil)
        let both = try await CalgwBinary.run([
            "init", "--config", config.path, "--local", folder.file("x").path, "--remote", "https://x/",
            "--token-command", "t", "--password-env", "P",
        ])
        #expect(both.status == 2 && both.stderrText.contains("--token-command"), "\(both.stderrText)")
    }

    @Test func initTakesAFileRemoteThatSyncs() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let config = folder.file("config.toml")
        let mirror = folder.file("mirror")
        try FileManager.default.createDirectory(at: mirror, withIntermediateDirectories: true)
        let result = try await CalgwBinary.run([
            "init", "--config", config.path, "--local", folder.file("home").path,
            "--remote", "file://\(mirror.path)",
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        let parsed = try ConfigFile.parse(try String(contentsOf: config, encoding: .utf8), url: config)
        let home = try #require(parsed.pairs.first { $0.name == "home" })
        #expect(home.remote.path == mirror.path)
        try TestEvent.data(uid: "a", summary: "here").write(to: folder.file("home/a.ics"))
        let sync = try await CalgwBinary.run(
            ["sync", "--config", config.path],
            environment: ["XDG_STATE_HOME": folder.file("state").path])
        #expect(sync.status == 0, "\(sync.stderrText)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: mirror.path).contains { $0.hasSuffix(".ics") })
        // What is not supported is named in the error.
        let ftp = try await CalgwBinary.run([
            "init", "--config", config.path, "--local", folder.file("x").path, "--remote", "ftp://x/y/",
        ])
        #expect(ftp.status == 2 && ftp.stderrText.contains("file://"), "\(ftp.stderrText)")
        // A second vdir has no calendars to discover.
        let all = try await CalgwBinary.run([
            "init", "--config", config.path, "--local", folder.file("y").path, "--remote", "file://\(mirror.path)",
            "--all-collections",
        ])
        #expect(all.status == 2 && all.stderrText.contains("--all-collections"), "\(all.stderrText)")
    }

    @Test func aLocalEndingInIcsIsASingleFileUnlessItIsAFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(at: folder.file("folder.ics"), withIntermediateDirectories: true)
        let config = try ConfigFile.parse(
            """
            [pair.file]
            local = "\(folder.file("Documents/calendar.ICS").path)"
            remote = "https://x/"

            [pair.folder]
            local = "\(folder.file("folder.ics").path)"
            remote = "https://x/"
            """, url: folder.file("config.toml"), paths: ConfigPaths(environment: ["HOME": "/home/alice"]))
        let file = try #require(config.pairs.first { $0.name == "file" })
        #expect(file.localIsSingleFile)
        guard case .singleFile(let url) = try file.pair.local else { Issue.record("a single-file endpoint"); return }
        #expect(url.path == folder.file("Documents/calendar.ICS").path)
        let vdir = try #require(config.pairs.first { $0.name == "folder" })
        #expect(!vdir.localIsSingleFile)
        guard case .vdir = try vdir.pair.local else { Issue.record("a vdir endpoint"); return }

        #expect {
            try ConfigFile.parse(
                "[pair.p]\nlocal = \"/tmp/x.ics\"\nremote = \"https://x/\"\ncollections = \"all\"",
                url: folder.file("config.toml"), paths: ConfigPaths(environment: ["HOME": "/home/alice"]))
        } throws: {
            "\($0)".contains("a single .ics file holds one calendar")
        }
    }

    @Test func initAndEventCommandsOnASingleFilePair() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let config = folder.file("config.toml")
        let mirror = folder.file("mirror")
        try FileManager.default.createDirectory(at: mirror, withIntermediateDirectories: true)
        let file = folder.file("Documents/home.ics")
        let made = try await CalgwBinary.run([
            "init", "--config", config.path, "--local", file.path, "--remote", "file://\(mirror.path)",
        ])
        #expect(made.status == 0, "\(made.stderrText)")
        // Named after the file without its extension.
        let written = try String(contentsOf: config, encoding: .utf8)
        #expect(
            made.stdoutText.contains("added pair \"home\"") && written.contains("[pair.home]"), "\(made.stdoutText)")
        var isFolder: ObjCBool = false
        #expect(
            FileManager.default.fileExists(atPath: file.deletingLastPathComponent().path, isDirectory: &isFolder)
                && isFolder.boolValue)
        #expect(!FileManager.default.fileExists(atPath: file.path), "init makes no folder at the file's path")

        try TestEvent.data(uid: "m", summary: "in the mirror").write(to: mirror.appendingPathComponent("m.ics"))
        let environment = ["XDG_STATE_HOME": folder.file("state").path]
        let sync = try await CalgwBinary.run(["sync", "--config", config.path], environment: environment)
        #expect(sync.status == 0, "\(sync.stderrText)")
        #expect(try String(contentsOf: file, encoding: .utf8).contains("SUMMARY:in the mirror"))

        let add = try await CalgwBinary.run(
            ["event", "add", "--config", config.path, "--summary", "x", "--start", "2026-03-01T10:00"],
            environment: environment)
        #expect(
            add.status == 2 && add.stderrText.contains("local side is the single file \(file.path)"),
            "\(add.stderrText)")
    }
}
