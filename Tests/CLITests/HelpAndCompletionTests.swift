import Foundation
import Testing
import CalgwTestSupport
@testable import calgw

/// What people find when they ask: `calgw help COMMAND` with examples, and shell completions
/// generated from the same definitions.
@Suite(.timeLimit(.minutes(10))) struct HelpAndCompletionTests {
    /// Every leaf command, as `calgw help` names it.
    static let commands = [
        ["fmt"], ["lint"], ["init"], ["pull"], ["push"], ["sync"], ["status"],
        ["list"], ["expand"], ["event", "add"], ["event", "edit"], ["event", "delete"], ["event", "open"],
        ["event", "reply"], ["invitations"],
    ]

    @Test(arguments: commands)
    func helpHasUsageAndExamples(_ command: [String]) async throws {
        let r = try await CalgwBinary.run(["help"] + command)
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(r.stdoutText.contains("USAGE: calgw \(command.joined(separator: " "))"), "\(r.stdoutText)")
        #expect(r.stdoutText.contains("Examples:"), "calgw help \(command.joined(separator: " ")) shows no examples")
    }

    /// `calgw --help` says which options may come before the command; each command's help
    /// lists `-c` among its own options.
    @Test func helpShowsTheOptionsThatMayComeBeforeTheCommand() async throws {
        let root = try await CalgwBinary.run(["--help"])
        #expect(root.status == 0, "\(root.stderrText)")
        for text in [
            "before the command", "-c, --config <path>", "-v, --verbose", "-q, --quiet", "calgw -c ~/work.toml sync",
        ] {
            #expect(root.stdoutText.contains(text), "calgw --help lacks \(text): \(root.stdoutText)")
        }
        for command in [["sync"], ["status"], ["event", "add"], ["init"]] {
            let r = try await CalgwBinary.run(["help"] + command)
            #expect(
                r.stdoutText.contains("-c, --config <path>"),
                "calgw help \(command.joined(separator: " ")): \(r.stdoutText)")
        }
    }

    /// `event reply` takes one answer of three: its usage line says so, where the generated
    /// one listed all three as if they went together.
    @Test func replyUsageOffersOneAnswerOfThree() async throws {
        let r = try await CalgwBinary.run(["event", "reply", "--help"])
        #expect(r.stdoutText.contains("<uid> (--accept | --decline | --tentative)"), "\(r.stdoutText)")
        let missing = try await CalgwBinary.run(["event", "reply", "x"])
        #expect(missing.status == 2 && missing.stderrText.contains("(--accept | --decline | --tentative)"))
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionsKnowEveryCommandAndFlag(_ shell: String) async throws {
        let r = try await CalgwBinary.run(["--generate-completion-script", shell])
        #expect(r.status == 0, "\(r.stderrText)")
        for word in ["event", "sync", "occurrence", "allow-mass-delete", "offline"] {
            #expect(r.stdoutText.contains(word), "\(shell) completion lacks \(word)")
        }
    }

    /// docs/cli.md, the contract, names every command `calgw --help` and `calgw event --help`
    /// list, and docs/guide.md's lists of keys every key a pair's table takes and every
    /// top-level one.
    @Test func theDocsKeepInStepWithHelpAndTheConfigReader() async throws {
        let contract = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        func subcommands(_ arguments: [String]) async throws -> [String] {
            let help = try await CalgwBinary.run(arguments + ["--help"]).stdoutText
            let section = help.components(separatedBy: "SUBCOMMANDS:").last ?? ""
            return section.split(whereSeparator: \.isNewline).compactMap { line in
                line.hasPrefix("  ") && !line.hasPrefix("   ") ? line.split(separator: " ").first.map(String.init) : nil
            }.filter { $0 != "See" }
        }
        let top = try await subcommands([])
        let events = try await subcommands(["event"])
        #expect(top.count >= 13 && events.count >= 5, "\(top) \(events)")
        for command in top.filter({ $0 != "event" }).map({ "calgw \($0)" }) + events.map({ "calgw event \($0)" }) {
            #expect(contract.contains("`\(command)"), "docs/cli.md does not name \(command)")
        }
        let guide = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/guide.md"), encoding: .utf8)
        for key in PairReader.knownKeys.union(ReminderSettings.keys).sorted() {
            #expect(guide.contains("`\(key)`"), "docs/guide.md does not list the key \(key)")
        }
    }
}
