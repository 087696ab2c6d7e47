import CalendarSync
import Failures
import Foundation
import ICalendar
import Recurrence

/// `watch`'s reminders: the alarms of the watched pairs' files, looked at again after every
/// sync and file change, fired at their trigger through ``NotifyRunner`` (at most once each,
/// ``FiredAlarms``), with a ``WallClockTimer`` set to the next one, so that nothing runs
/// between alarms. Made only when the config has `notify_command`.
final class AlarmWatch {
    /// How far ahead the alarms are computed; the watch looks again when this runs out (and
    /// after every sync, which comes sooner).
    static let horizon: Int64 = 86_400
    /// How far before the missed window alarms are still read, to say which were let go; the
    /// record of what fired keeps as long.
    static let lookBack: Int64 = 86_400

    let command: NotifyCommand
    let missedWindow: Int64
    let pairs: [PairConfiguration]
    let output: OutputOptions
    let timer: WallClockTimer
    /// The zone of floating times and dates, and of the times the command is given.
    let zone: any ZoneRules
    private let record: FiredAlarms
    private let sources = AlarmSources()
    private let runner = NotifyRunner()
    /// The alarms from the last look, for [its time − the missed window − a day, `horizonEnd`).
    private var known: [AlarmInstant] = []
    private var horizonEnd: Int64 = 0
    /// Identities fired (by this process or, as last read, another) or let go.
    private var done = Set<String>()
    private var saidRecordFailure = false

    /// - Throws: `CLIError` when no timer can be made.
    init(
        command: NotifyCommand, missedWindow: Int64, pairs: [PairConfiguration], output: OutputOptions,
        record: FiredAlarms = FiredAlarms(file: ConfigPaths().firedAlarms()), zone: any ZoneRules
    ) throws {
        self.command = command
        self.missedWindow = missedWindow
        self.pairs = pairs
        self.output = output
        self.record = record
        self.zone = zone
        timer = try WallClockTimer()
    }

    /// Reads the pairs' changed files again, recomputes the alarms and fires what is due: an
    /// event moved re-schedules its alarms, one deleted cancels them.
    func refresh() {
        var files: [URL] = []
        for configuration in pairs {
            // A pair whose local side is a server, or whose vdir is not made yet, has no file.
            guard let pair = try? configuration.pair,
                let found = try? PairRun(pair: pair, options: .init()).listedFiles()
            else { continue }
            files += found.urls
        }
        for problem in sources.update(files) where !output.quiet {
            Terminal.err("warning: \(problem.file): its alarms cannot be read: \(problem.message)")
        }
        let now = WallClockTimer.now()
        // A day further back than the missed window, to say (with -v) which alarms were let go.
        known = sources.alarms(from: now - missedWindow - Self.lookBack, to: now + Self.horizon, zone: zone)
        horizonEnd = now + Self.horizon
        // What fired or was let go matters only while its alarm is still read.
        done = done.intersection(known.map(\.identity)).union(record.load())
        if output.verbose {
            let coming = known.filter { $0.trigger > now && AlarmSchedule.runsCommand($0.view.action) }
            Terminal.err("alarms: \(coming.count) in the next 24 hours")
        }
        fireDue(at: now)
    }

    /// The timer's descriptor was readable: fires what is due, or looks again when the clock
    /// was set or the horizon ran out.
    func timerFired() {
        let reading = timer.fire()
        let now = WallClockTimer.now()
        if reading == .clockChanged || now >= horizonEnd { refresh() } else { fireDue(at: now) }
    }

    private func fireDue(at now: Int64) {
        let decision = AlarmSchedule.decide(known, fired: done, now: now, missedWindow: missedWindow)
        for alarm in decision.tooLate {
            done.insert(alarm.identity)
            if output.verbose {
                Terminal.err(
                    "alarm let go: \(summary(alarm)) was due at \(Self.text(alarm.triggerValue, alarm.trigger, zone)), "
                        + "more than missed_alarms ago"
                )
            }
        }
        if !decision.due.isEmpty { fire(decision.due, at: now) }
        timer.arm(at: min(decision.next ?? horizonEnd, horizonEnd))
    }

    private func fire(_ due: [(alarm: AlarmInstant, late: Bool)], at now: Int64) {
        var claimed: Set<String>
        do {
            claimed = try record.claim(
                due.map { ($0.alarm.identity, $0.alarm.trigger) }, now: now,
                keepAfter: now - missedWindow - Self.lookBack)
        } catch {
            claimed = Set(due.map(\.alarm.identity))
            if !saidRecordFailure {
                saidRecordFailure = true
                Terminal.reportError(
                    "cannot record the alarms fired in \(record.file.path): \(CauseChain.text(of: error))",
                    hint: "they are fired all the same, and may go off again after watch restarts")
            }
        }
        for (alarm, late) in due {
            done.insert(alarm.identity)
            // Fired by another watch meanwhile.
            guard claimed.contains(alarm.identity) else { continue }
            runner.run(command.argv(values(of: alarm)))
            guard !output.quiet else { continue }
            var line = "\(WatchLoop.timestamp()) alarm: \(summary(alarm))"
            if let start = startText(alarm) { line += ", \(start)" }
            if late {
                line +=
                    " (due at \(Self.text(alarm.triggerValue, alarm.trigger, zone)); "
                    + "missed while watch was stopped or the machine asleep)"
            }
            Terminal.err(line)
        }
    }

    private func summary(_ alarm: AlarmInstant) -> String { alarm.component["SUMMARY"]?.text ?? "(no title)" }

    private func startText(_ alarm: AlarmInstant) -> String? {
        if let o = alarm.occurrence { return Self.text(o.start, o.startInstant, zone) }
        return nil
    }

    /// The placeholders' values for `alarm` (``NotifyCommand/placeholders``).
    func values(of alarm: AlarmInstant) -> [String: String] {
        var values = [
            "summary": alarm.component["SUMMARY"]?.text ?? "",
            "location": alarm.component["LOCATION"]?.text ?? "",
            "description": alarm.view.description ?? "",
            "trigger": Self.text(alarm.triggerValue, alarm.trigger, zone),
        ]
        if let o = alarm.occurrence {
            values["start"] = Self.text(o.start, o.startInstant, zone)
            values["end"] = Self.text(o.end, o.endInstant, zone)
        }
        return values
    }

    /// A time for people, in `zone`: `2026-03-29 09:45` (with `:30` when it has seconds); a
    /// date as `2026-03-29`; a floating time as written.
    static func text(_ value: DateTimeValue, _ instant: Int64, _ zone: any ZoneRules) -> String {
        let local: LocalDateTime
        switch value.form {
        case .date: return value.date.isoString
        case .floating: local = value.local
        case .utc, .zoned: local = zone.local(atUTC: instant)
        }
        let seconds = local.time.second
        return local.date.isoString + " " + OccurrenceListing.hm(local)
            + (seconds == 0 ? "" : (seconds < 10 ? ":0" : ":") + String(seconds))
    }
}
