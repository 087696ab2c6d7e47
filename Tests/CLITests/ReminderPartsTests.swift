import Foundation
import ICalendar
import Recurrence
import Testing
import CalendarSync
import CalgwTestSupport
@testable import calgw

/// The pure parts of `watch`'s reminders, each rule on its own: the notify command's
/// placeholders, the config keys, what is due when (``AlarmSchedule``) and the record of what
/// fired (``FiredAlarms``).
@Suite struct ReminderPartsTests {
    /// The alarm instants of one event starting at `start` (seconds since the epoch) with one
    /// VALARM per trigger (`-PT5M`, `PT0S`…) of `action`.
    static func alarms(uid: String = "a", start: Int64, triggers: [String], action: String = "DISPLAY") throws
        -> [AlarmInstant]
    {
        let valarms = triggers.map { "BEGIN:VALARM\r\nACTION:\(action)\r\nTRIGGER:\($0)\r\nEND:VALARM\r\n" }.joined()
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\n"
            + "DTSTAMP:20260101T000000Z\r\nDTSTART:\(LocalDateTime(secondsSinceEpoch: start).description)Z\r\n"
            + "SUMMARY:S\r\n\(valarms)END:VEVENT\r\nEND:VCALENDAR\r\n"
        return CalendarAlarms(components: try ICalendarParser().parse(text).components).alarms(
            from: start - 86_400, to: start + 86_400)
    }

    @Test func placeholdersAreReplacedOnceAndUnknownOnesRefused() throws {
        let command = try NotifyCommand(arguments: [
            "notify-send", "--app-name=calgw", "{summary} at {start}", "{x", "{}",
        ])
        let argv = command.argv(["summary": "Say {start} {trigger}", "start": "10:00"])
        #expect(argv == ["notify-send", "--app-name=calgw", "Say {start} {trigger} at 10:00", "{x", "{}"])
        #expect(try NotifyCommand(arguments: ["n", "{end}{location}"]).argv([:]) == ["n", ""])
        #expect(throws: NotifyCommand.Problem.self) { try NotifyCommand(arguments: ["n", "{summmary}"]) }
        #expect(throws: NotifyCommand.Problem.self) { try NotifyCommand(arguments: [""]) }
    }

    @Test func theConfigReadsNotifyCommandAndMissedAlarms() throws {
        let url = URL(fileURLWithPath: "/home/alice/.config/calgw/config.toml")
        let read = { (text: String) in try ConfigFile.parse(text, url: url).reminders }
        #expect(try read("") == ReminderSettings())
        #expect(try read("").missedWindow == 3600)
        let settings = try read("notify_command = [\"notify-send\", \"{summary}\"]\nmissed_alarms = \"90m\"\n")
        #expect(settings.notifyCommand?.arguments == ["notify-send", "{summary}"])
        #expect(settings.missedWindow == 5400)
        for (text, words) in [
            ("notify_command = \"notify-send {summary}\"", "without a shell"),
            ("notify_command = []", "array of strings"),
            ("notify_command = [\"n\", \"{when}\"]", "{when}"),
            ("missed_alarms = \"soon\"", "length of time"),
        ] {
            do {
                _ = try read(text)
                Issue.record("accepted: \(text)")
            } catch let error as ConfigError {
                #expect(
                    (error.message + " " + (error.hint ?? "")).contains(words),
                    "\(text): \(error.message) \(error.hint ?? "")")
            }
        }
    }

    /// Due from the trigger on, once per identity, late past two seconds, let go past the
    /// missed window; EMAIL never; the next trigger is the earliest still to come.
    @Test func theScheduleFiresEachAlarmOnceFromItsTriggerOn() throws {
        let start: Int64 = 1_800_000_000
        let alarms =
            try Self.alarms(start: start, triggers: ["-PT2H", "-PT30M", "-PT10M", "PT0S", "PT10M"])
            + Self.alarms(start: start, triggers: ["PT0S"], action: "EMAIL")
            + Self.alarms(start: start, triggers: ["PT0S"])  // the same event in a second folder
        let sorted = alarms.sorted(by: AlarmInstant.precedes)
        var decision = AlarmSchedule.decide(sorted, fired: [], now: start - 600, missedWindow: 3600)
        #expect(decision.due.map(\.alarm.trigger) == [start - 1800, start - 600])
        #expect(decision.due.map(\.late) == [true, false])
        #expect(decision.tooLate.map(\.trigger) == [start - 7200])
        #expect(decision.next == start)
        let fired = Set((decision.due.map(\.alarm) + decision.tooLate).map(\.identity))
        decision = AlarmSchedule.decide(sorted, fired: fired, now: start + 1, missedWindow: 3600)
        #expect(decision.due.map(\.alarm.trigger) == [start], "the DISPLAY at the start once, the EMAIL never")
        #expect(decision.due.map(\.late) == [false])
        #expect(decision.next == start + 600)
    }

    @Test func anAlarmIsClaimedOnceAcrossRecordsOfOneFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("state/calgw/alarms.json")
        let one = FiredAlarms(file: file), two = FiredAlarms(file: file)
        #expect(try one.claim([("a", 100), ("b", 200), ("a", 100)], now: 300, keepAfter: 0) == ["a", "b"])
        #expect(try two.claim([("b", 200), ("c", 250)], now: 300, keepAfter: 0) == ["c"])
        #expect(one.load() == ["a", "b", "c"])
        // Entries older than the window are dropped at the next write.
        #expect(try one.claim([("d", 400)], now: 500, keepAfter: 210) == ["d"])
        #expect(two.load() == ["c", "d"])
        let mode =
            try FileManager.default.attributesOfItem(atPath: file.deletingLastPathComponent().path)[
                .posixPermissions] as? Int
        #expect(mode == 0o700)
    }
}
