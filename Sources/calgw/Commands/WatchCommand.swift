import ArgumentParser
import CalendarSync
import Foundation

/// `calgw watch`: keeps pairs in sync, from local file changes and a server poll.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Keep syncing: local file changes at once, the server every interval.",
        discussion: """
            Runs a sync when an item file of the vdir is written, moved or deleted (after 500 ms \
            of quiet, so an editor's burst of writes is one sync), and polls the server every \
            --interval seconds (cheap: an unchanged sync-token or ctag ends the run early). After \
            a failed run the wait doubles, up to 15 minutes, and returns to --interval after a \
            success. Dotfiles and editor leftovers (.x.swp, x~, #x#) are ignored.

            With notify_command in the config, the alarms (VALARMs) of the watched vdirs go off: \
            the command runs at each DISPLAY or AUDIO alarm's trigger, once (what fired is kept \
            in $XDG_STATE_HOME/calgw/alarms.json), and an alarm missed while watch was stopped \
            or the machine asleep goes off when seen, up to missed_alarms (1h) late. EMAIL alarms \
            are never sent. See `calgw alarms` and docs/guide.md, "Reminders".

            SIGINT (Ctrl-C) or SIGTERM lets the current run finish, then exits 0.
            With --json, each run prints one JSON document on one line of stdout (JSON Lines), \
            flushed at once: the sync report of `sync --json` plus "pair", "trigger" (start, \
            local, poll), "status" (the exit code `sync` would give) and "nextPollSeconds":
              {"conflicts":[],"created":{"local":1,"remote":0},...,"pair":"work","status":0,"trigger":"poll"}

            Examples:
              calgw watch
              calgw watch --all --interval 300
              calgw watch --pair work --json | jq -c 'select(.status != 0)'
              systemctl --user enable --now calgw-watch.service   # see docs/guide.md
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("Seconds between polls of the server.", valueName: "seconds"))
    var interval: Double = 60
    @Option(
        help: ArgumentHelp(
            "How to resolve conflicts, instead of the pair's setting (not ask: nobody is there to answer).",
            valueName: "strategy"))
    var conflict: ConflictStrategy?
    @Flag(help: "Propagate the deletion of everything on one side (refused by default).")
    var allowMassDelete = false
    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard interval >= 1 else { throw ValidationError("--interval must be at least 1 second") }
        if conflict == .ask {
            throw ValidationError(
                "--conflict must be one of: \(ConflictStrategy.allCases.filter { $0 != .ask }.map(\.rawValue).joined(separator: ", "))"
            )
        }
    }

    func run() async throws {
        let config = try global.loadConfig()
        let pairs = try config.select(pair: global.pair, all: global.all)
        var options = try SyncRunOptions.parse(allowMassDelete ? ["--allow-mass-delete"] : [])
        options.conflict = conflict
        let runner = PairRunner(global: global, run: options, output: output, direction: .both, saidOnce: SaidOnce())
        var loop = WatchLoop(runner: runner, pairs: pairs, interval: interval, json: output.json)
        if let command = config.reminders.notifyCommand {
            loop.alarms = try AlarmWatch(
                command: command, missedWindow: config.reminders.missedWindow, pairs: pairs, output: output,
                zone: try DateArgument.zone(named: nil))
        }
        let signal = try await loop.run()
        if !output.json && !output.quiet { Terminal.err("stopped by \(signal == SIGINT ? "SIGINT" : "SIGTERM")") }
    }
}
