import Recurrence

/// What `watch` does about the alarms it knows at a moment: pure decisions, no clock and no
/// files, so that each rule is tested on its own.
///
/// - An alarm goes off once per identity (``AlarmInstant/identity``): one that fired (in this
///   process or an earlier one) never again, and one found twice (an event in two pairs'
///   folders) once.
/// - DISPLAY and AUDIO alarms run the notify command; EMAIL (and any other action) never do.
/// - An alarm is due from its trigger on; one found later than `missedWindow` after its
///   trigger is let go. One that goes off more than ``lateAfter`` seconds after its trigger
///   is late: its original time is said.
public struct AlarmSchedule {
    /// Seconds after its trigger from which an alarm going off counts as late (missed while
    /// the machine slept, `watch` was stopped, or a long sync held the loop).
    static let lateAfter: Int64 = 2

    /// What to do now.
    public struct Decision {
        /// The alarms to fire, in trigger order, each identity once, with whether it is late.
        public var due: [(alarm: AlarmInstant, late: Bool)] = []
        /// Due alarms found too late to fire (more than the missed window ago), not fired yet.
        public var tooLate: [AlarmInstant] = []
        /// The next trigger after `now` of an alarm that will fire, if any.
        public var next: Int64?
    }

    /// Whether an alarm of `action` runs the notify command.
    public static func runsCommand(_ action: String?) -> Bool { action == "DISPLAY" || action == "AUDIO" }

    /// Decides, at `now`, about `alarms` (sorted by trigger) given the identities that fired.
    public static func decide(_ alarms: [AlarmInstant], fired: Set<String>, now: Int64, missedWindow: Int64) -> Decision
    {
        var decision = Decision()
        var taken = fired
        for alarm in alarms where runsCommand(alarm.view.action) && !taken.contains(alarm.identity) {
            if alarm.trigger > now {
                decision.next = min(decision.next ?? alarm.trigger, alarm.trigger)
                continue
            }
            taken.insert(alarm.identity)
            if now - alarm.trigger > missedWindow {
                decision.tooLate.append(alarm)
            } else {
                decision.due.append((alarm, now - alarm.trigger > lateAfter))
            }
        }
        return decision
    }
}
