import ArgumentParser
import CalendarSync
import Testing
@testable import calgw

/// `-c/--config`, `-v` and `-q` written before the command name are moved after the deepest
/// command name before parsing; the one after wins; a command that lacks one drops it.
@Suite struct GlobalOptionsPlacementTests {
    func placed(_ arguments: [String]) -> [String] { GlobalOptionsPlacement.arguments(arguments) }

    @Test(arguments: [
        (["-c", "w.toml", "sync"], ["sync", "-c", "w.toml"]),
        (["--config", "w.toml", "status", "--json"], ["status", "--config", "w.toml", "--json"]),
        (["--config=w.toml", "-q", "pull", "--dry-run"], ["pull", "--config=w.toml", "-q", "--dry-run"]),
        (["-vv", "event", "add", "--summary", "x"], ["event", "add", "-vv", "--summary", "x"]),
        (
            ["-c", "w.toml", "event", "--verbose", "delete", "uid-1"],
            ["event", "delete", "-c", "w.toml", "--verbose", "uid-1"]
        ),
        (["-vq", "list", "--from", "2026-01-01"], ["list", "-vq", "--from", "2026-01-01"]),
        // A value that happens to be a command's name is still the value.
        (["-c", "sync", "status"], ["status", "-c", "sync"]),
        // A positional argument named like a command is not a command.
        (["-v", "expand", "sync", "--from", "a", "--to", "b"], ["expand", "-v", "sync", "--from", "a", "--to", "b"]),
    ])
    func movesOptionsBeforeTheCommandAfterIt(_ given: [String], _ parsed: [String]) {
        #expect(placed(given) == parsed)
    }

    @Test(arguments: [
        ["sync", "-c", "w.toml"],
        ["sync", "--config", "w.toml", "-vv"],
        ["--help"],
        ["--version"],
        ["--generate-completion-script", "bash"],
        // `-c` without a value, or with an option as its value: ArgumentParser says what is wrong.
        ["-c"],
        ["-c", "-v", "sync"],
        // Another option first: nothing is moved.
        ["--json", "-c", "w.toml", "sync"],
        ["help", "sync"],
    ])
    func leavesEverythingElseAsItIs(_ given: [String]) {
        #expect(placed(given) == given)
    }

    @Test func theOneAfterTheCommandWins() {
        #expect(placed(["-c", "a.toml", "sync", "-c", "b.toml"]) == ["sync", "-c", "b.toml"])
        #expect(placed(["-c", "a.toml", "sync", "--config=b.toml"]) == ["sync", "--config=b.toml"])
        #expect(placed(["-c", "a.toml", "-q", "sync", "-v"]) == ["sync", "-c", "a.toml", "-v"])
        #expect(placed(["-vv", "sync", "--quiet"]) == ["sync", "--quiet"])
        #expect(placed(["-q", "event", "add", "-c", "b.toml"]) == ["event", "add", "-q", "-c", "b.toml"])
    }

    @Test func stopsAtDoubleDash() {
        // Before `--` nothing names a command; after it, `-c` is a file name, not an option.
        #expect(placed(["-v", "--", "sync"]) == ["--", "sync"])
        #expect(
            placed(["-q", "expand", "--from", "a", "--to", "b", "--", "-c", "-v"])
                == ["expand", "-q", "--from", "a", "--to", "b", "--", "-c", "-v"])
        #expect(placed(["-c", "w.toml", "lint", "--", "-c"]) == ["lint", "--", "-c"])
    }

    @Test func aCommandWithoutTheOptionDropsIt() {
        // fmt, lint, expand and discover read no config: an alias `calgw -c FILE` still serves them.
        #expect(placed(["-c", "w.toml", "-v", "fmt", "x.ics"]) == ["fmt", "-v", "x.ics"])
        #expect(placed(["--config=w.toml", "discover", "https://x/"]) == ["discover", "https://x/"])
        // `event` alone and calgw alone take none of them.
        #expect(placed(["-c", "w.toml", "-v", "event"]) == ["event"])
        #expect(placed(["-c", "w.toml", "--help"]) == ["--help"])
    }

    @Test func theParsedCommandGetsTheValues() throws {
        let sync = try #require(
            try Calgw.parseAsRoot(placed(["-c", "a.toml", "-vv", "sync", "--dry-run"])) as? SyncCommand)
        #expect(sync.global.config == "a.toml" && sync.output.verbosity == 2 && sync.run.dryRun)
        let later = try #require(
            try Calgw.parseAsRoot(placed(["-c", "a.toml", "-q", "sync", "-c", "b.toml", "-v"])) as? SyncCommand)
        #expect(later.global.config == "b.toml" && later.output.verbosity == 1 && !later.output.quiet)
        let add = try #require(
            try Calgw.parseAsRoot(
                placed([
                    "--config=w.toml", "-q", "event", "add", "--summary", "x",
                    "--start", "2026-03-29",
                ])) as? EventAddCommand)
        #expect(add.options.global.config == "w.toml" && add.output.quiet)
        let initCommand = try #require(
            try Calgw.parseAsRoot(
                placed([
                    "-c", "w.toml", "init", "--local", "/v",
                    "--remote", "https://x/",
                ])) as? InitCommand)
        #expect(initCommand.config == "w.toml")
    }

    /// Thousands of file arguments reach a command as a few words (ArgumentParser takes a
    /// repeated argument in time that grows with the square of the words), and come out as given.
    @Test func manyFileArgumentsAreJoinedIntoRunsAndComeOutAsGiven() throws {
        let files = (0..<3_000).map { "/cal/\($0) ü.ics" }
        let given =
            ["-q", "expand"] + files[..<1_000] + ["--tz", "Europe/Berlin"] + files[1_000..<2_000]
            + ["--from", "2026-03-01", "--to", "2026-04-01", "--json"] + files[2_000...]
        let words = placed(given)
        #expect(words.count < 20, "\(words.count) words")
        let expand = try #require(try Calgw.parseAsRoot(words) as? ExpandCommand)
        #expect(ICSPaths.splitRuns(expand.files) == files)
        #expect(expand.window.tz == "Europe/Berlin" && expand.window.from == "2026-03-01" && expand.output.json)
        // After `--`, words that look like options are files too; a lone `-` is a word.
        let dashed = ["fmt", "--check"] + files[..<100] + ["-", "--", "-c", "--json"] + files[100..<200]
        let fmt = try #require(try Calgw.parseAsRoot(placed(dashed)) as? FmtCommand)
        #expect(ICSPaths.splitRuns(fmt.files) == Array(files[..<100]) + ["-", "-c", "--json"] + files[100..<200])
        #expect(fmt.check)
        // A few words, and a command that takes no files, are left as they are.
        #expect(placed(["lint"] + files[..<64]) == ["lint"] + files[..<64])
        let uids = ["event", "delete"] + files[..<100]
        #expect(placed(uids) == uids)
    }

    /// Every leaf command, found from the root.
    static func leaves(of command: any ParsableCommand.Type = Calgw.self) -> [any ParsableCommand.Type] {
        let subcommands = command.configuration.subcommands
        return subcommands.isEmpty ? [command] : subcommands.flatMap { leaves(of: $0) }
    }

    @Test func whatACommandIsToldItTakesMatchesItsOptions() {
        let leaves = Self.leaves()
        #expect(leaves.count >= 15)
        for command in leaves {
            let help = command.helpMessage(columns: 1000)
            let taken = GlobalOptionsPlacement.settings(takenBy: command)
            #expect(help.contains("-c, --config <path>") == taken.contains(.config), "\(command): -c/--config")
            #expect(help.contains("-v, --verbose") == taken.contains(.loudness), "\(command): -v/--verbose")
            #expect(help.contains("-q, --quiet") == taken.contains(.loudness), "\(command): -q/--quiet")
        }
    }
}
