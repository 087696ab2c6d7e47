import CalendarSync
import Failures
import Foundation
import ICalendar
import KernelEvents
import Recurrence

/// `watch`'s reminders on the terminal: the library's ``AlarmReminders`` looked at after every
/// sync and file change, with a ``WallClockTimer`` set to the next alarm, so that nothing runs
/// between alarms, and what they did said on stderr. Made only when the config has
/// `notify_command`.
final class AlarmWatch {
    let reminders: AlarmReminders
    let output: OutputOptions
    let timer: WallClockTimer
    private var saidRecordFailure = false

    /// The program run for each alarm.
    var command: NotifyCommand { reminders.command }

    /// - Throws: `KernelEventError` when no timer can be made.
    init(
        command: NotifyCommand, missedWindow: Int64, pairs: [PairConfiguration], output: OutputOptions,
        record: FiredAlarms = FiredAlarms(file: ConfigPaths().firedAlarms()), zone: any ZoneRules
    ) throws {
        let runner = NotifyRunner { Terminal.reportError($0, hint: $1) }
        reminders = AlarmReminders(
            command: command, missedWindow: missedWindow, pairs: pairs.compactMap { try? $0.pair }, record: record,
            zone: zone, runner: runner)
        self.output = output
        timer = try WallClockTimer()
    }

    /// Reads the pairs' changed files again, recomputes the alarms and fires what is due: an
    /// event moved re-schedules its alarms, one deleted cancels them.
    func refresh() {
        let look = reminders.look(clock: WallClockTimer.now)
        for problem in look.problems where !output.quiet {
            Terminal.err("warning: \(problem.file): its alarms cannot be read: \(problem.message)")
        }
        if output.verbose { Terminal.err("alarms: \(look.coming) in the next 24 hours") }
        fireDue(at: look.now)
    }

    /// The timer's descriptor was readable: fires what is due, or looks again when the clock
    /// was set or the horizon ran out.
    func timerFired() {
        let reading = timer.fire()
        let now = WallClockTimer.now()
        if reading == .clockChanged || now >= reminders.horizonEnd { refresh() } else { fireDue(at: now) }
    }

    private func fireDue(at now: Int64) {
        let firing = reminders.fireDue(at: now)
        let zone = reminders.zone
        for alarm in firing.letGo where output.verbose {
            Terminal.err(
                "alarm let go: \(AlarmReminders.summary(alarm)) was due at "
                    + "\(AlarmReminders.text(alarm.triggerValue, alarm.trigger, zone)), more than missed_alarms ago")
        }
        if let error = firing.recordFailure, !saidRecordFailure {
            saidRecordFailure = true
            Terminal.reportError(
                "cannot record the alarms fired in \(reminders.record.file.path): \(CauseChain.text(of: error))",
                hint: "they are fired all the same, and may go off again after watch restarts")
        }
        for (alarm, late) in firing.fired where !output.quiet {
            var line = "\(WatchLoop.timestamp()) alarm: \(AlarmReminders.summary(alarm))"
            if let o = alarm.occurrence { line += ", \(AlarmReminders.text(o.start, o.startInstant, zone))" }
            if late {
                line +=
                    " (due at \(AlarmReminders.text(alarm.triggerValue, alarm.trigger, zone)); "
                    + "missed while watch was stopped or the machine asleep)"
            }
            Terminal.err(line)
        }
        timer.arm(at: firing.next)
    }
}
