import Foundation
import Testing
import ICalendar
import CalgwTestSupport

/// `calgw event open` with the real Vim in a real terminal (tmux), typed at as a person would.
@Suite(.timeLimit(.minutes(10))) struct EventOpenVimTests {
    func tmux(_ arguments: [String]) async throws -> ProcessRunner.Result {
        try await ProcessRunner.run("/usr/bin/env", ["tmux", "-L", socket] + arguments)
    }

    let socket = "calgw-test-\(UUID().uuidString.prefix(8))"

    /// Waits until the pane shows `text` (at most ~30 s).
    func waitForScreen(_ session: String, containing text: String) async throws -> String {
        var screen = ""
        for _ in 0..<300 {
            screen = try await tmux(["capture-pane", "-p", "-t", session]).stdoutText
            if screen.contains(text) { return screen }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("the terminal never showed \(text); it shows:\n\(screen)")
        return screen
    }

    @Test func changeTheSummaryInVimAndSave() async throws {
        let s = try EventCommandTests.Setup()
        defer { s.folder.remove() }
        let add = try await s.calgw([
            "event", "add", "--summary", "Before Vim", "--start", "2026-06-01T10:00", "--offline",
        ])
        #expect(add.status == 0, "\(add.stderrText)")
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)

        let done = s.folder.file("exit-status")
        let command =
            "VISUAL='vim -u NONE -N' TZ=Europe/Berlin \(CalgwBinary.url.path) event open \(uid) --offline "
            + "--config \(s.config.path); echo $? > \(done.path)"
        let session = "open"
        // The tmux server this starts keeps its output open: point it at a file, not at our pipes.
        let log = s.folder.file("tmux.log")
        let start = try await ProcessRunner.run(
            "/bin/sh",
            [
                "-c",
                "tmux -L \(socket) new-session -d -s \(session) -x 120 -y 40 \"$1\" "
                    + "</dev/null >\(log.path) 2>&1", "sh", command,
            ])
        try #require(start.status == 0, "tmux did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        defer { _ = try? ProcessRunner.runBlocking("/usr/bin/env", ["tmux", "-L", socket, "kill-server"]) }

        _ = try await waitForScreen(session, containing: "SUMMARY:Before Vim")
        _ = try await tmux(["send-keys", "-t", session, ":%s/^SUMMARY:.*/SUMMARY:After Vim/", "Enter"])
        _ = try await tmux(["send-keys", "-t", session, ":wq", "Enter"])
        for _ in 0..<300 where !FileManager.default.fileExists(atPath: done.path) {
            try await Task.sleep(for: .milliseconds(100))
        }
        let status = try String(contentsOf: done, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(status == "0")
        let event = try #require(try s.event(uid).components.first { $0.name == "VEVENT" })
        #expect(event["SUMMARY"]?.text == "After Vim")
        #expect(event["SEQUENCE"]?.value == "1")
    }
}
