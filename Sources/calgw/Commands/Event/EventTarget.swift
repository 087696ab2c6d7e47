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
        let pair = try config.select(pair: options.global.pair, all: false)[0].pair
        self.pair = pair
        calendar = try PairRun(pair: pair).calendar(options.collection)
        files = calendar.eventFiles
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
