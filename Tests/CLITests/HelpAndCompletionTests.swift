import Foundation
import Testing
import CalgwTestSupport

/// What people find when they ask: `calgw help COMMAND` with examples, and shell completions
/// generated from the same definitions.
@Suite(.timeLimit(.minutes(10))) struct HelpAndCompletionTests {
    /// Every leaf command, as `calgw help` names it.
    static let commands = [["fmt"], ["lint"], ["init"], ["pull"], ["push"], ["sync"], ["status"],
                           ["list"], ["expand"], ["event", "add"], ["event", "edit"], ["event", "delete"], ["event", "open"], ["event", "reply"], ["invitations"]]

    @Test(arguments: commands)
    func helpHasUsageAndExamples(_ command: [String]) throws {
        let r = try CalgwBinary.run(["help"] + command)
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(r.stdoutText.contains("USAGE: calgw \(command.joined(separator: " "))"), "\(r.stdoutText)")
        #expect(r.stdoutText.contains("Examples:"), "calgw help \(command.joined(separator: " ")) shows no examples")
    }

    /// `calgw --help` says which options may come before the command; each command's help
    /// lists `-c` among its own options.
    @Test func helpShowsTheOptionsThatMayComeBeforeTheCommand() throws {
        let root = try CalgwBinary.run(["--help"])
        #expect(root.status == 0, "\(root.stderrText)")
        for text in ["before the command", "-c, --config <path>", "-v, --verbose", "-q, --quiet", "calgw -c ~/work.toml sync"] {
            #expect(root.stdoutText.contains(text), "calgw --help lacks \(text): \(root.stdoutText)")
        }
        for command in [["sync"], ["status"], ["event", "add"], ["init"]] {
            let r = try CalgwBinary.run(["help"] + command)
            #expect(r.stdoutText.contains("-c, --config <path>"), "calgw help \(command.joined(separator: " ")): \(r.stdoutText)")
        }
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionsKnowEveryCommandAndFlag(_ shell: String) throws {
        let r = try CalgwBinary.run(["--generate-completion-script", shell])
        #expect(r.status == 0, "\(r.stderrText)")
        for word in ["event", "sync", "occurrence", "allow-mass-delete", "offline"] {
            #expect(r.stdoutText.contains(word), "\(shell) completion lacks \(word)")
        }
    }
}
