import CalendarSync
import Foundation
import ICalendar

/// The pair an `event` command works on, and the calendar of it whose vdir the command edits
/// (for an account pair, `--collection`, else the pair's default).
struct EventTarget {
    var pair: Pair
    var calendar: PairCalendar
    var files: EventFiles

    init(options: EventOptions) throws {
        if options.global.all {
            throw CLIError(
                "--all does not apply to event commands", hint: "pick one pair with --pair NAME", status: .usage)
        }
        let config = try options.global.loadConfig()
        let pair = try config.select(pair: options.global.pair, all: false, takesAll: false)[0].pair
        self.pair = pair
        calendar = try PairRun(pair: pair).calendar(options.collection)
        files = calendar.eventFiles(cache: ConfigPaths().listIndexFolder.map { ListingCache(folder: $0, kind: .uids) })
    }

    /// The current time as a UTC DATE-TIME (whole seconds).
    static func now() -> DateTimeValue {
        DateTimeValue(LocalDateTime(secondsSinceEpoch: Int64(Date().timeIntervalSince1970)), form: .utc)
    }

    /// A new, globally unique UID.
    static func newUID() -> String { UUID().uuidString.lowercased() }

    /// Reads the event.
    func find(uid: String) throws -> EventFile {
        try files.find(uid: uid)
    }
}

extension EventPush {
    /// The push of what an `event` command wrote to `target`'s calendar.
    init(target: EventTarget, options: EventOptions, personsActions: Set<String> = []) {
        self.init(
            pair: target.pair, calendar: target.calendar, offline: options.offline, personsActions: personsActions)
    }

    /// Says on stderr what is pending, unless quiet: the change is safe in the vdir.
    static func warn(_ outcome: Outcome, output: OutputOptions) {
        for note in outcome.notes where !output.quiet { Terminal.err("note: \(note)") }
        guard let reason = outcome.pendingReason, !output.quiet else { return }
        Terminal.err("warning: the change is saved in the vdir but not on the server: \(reason)")
        if let hint = outcome.hint { Terminal.err("hint: \(hint); do not run this command again") }
    }
}
