import Foundation
import ICalendar
import Recurrence

/// `watch`'s reminders without its clock or terminal: the alarms of the watched pairs' files,
/// looked at again after every sync and file change (``look(clock:)``), and fired at their trigger
/// through a ``NotifyRunner`` (at most once each, ``FiredAlarms``) by ``fireDue(at:)``, which
/// says when to look next, so that nothing runs between alarms.
public final class AlarmReminders {
    /// How far ahead the alarms are computed; the watch looks again when this runs out (and
    /// after every sync, which comes sooner).
    public static let horizon: Int64 = 86_400
    /// How far before the missed window alarms are still read, to say which were let go; the
    /// record of what fired keeps as long.
    static let lookBack: Int64 = 86_400

    /// The program run for each alarm.
    public let command: NotifyCommand
    /// How late an alarm missed while nothing watched still goes off, in seconds.
    public let missedWindow: Int64
    /// The pairs whose local files are read.
    let pairs: [Pair]
    /// The zone of floating times and dates, and of the times the command is given.
    public let zone: any ZoneRules
    /// The record of what fired.
    public let record: FiredAlarms
    private let sources = AlarmSources()
    private let runner: NotifyRunner
    /// The alarms from the last look, for [its time − the missed window − a day, `horizonEnd`).
    private var known: [AlarmInstant] = []
    /// Where the alarms of the last look end: the time to look again at the latest.
    public private(set) var horizonEnd: Int64 = 0
    /// Identities fired (by this process or, as last read, another) or let go.
    private var done = Set<String>()

    /// The reminders of `pairs`' files, run by `command` through `runner`, recorded in `record`.
    public init(
        command: NotifyCommand, missedWindow: Int64, pairs: [Pair], record: FiredAlarms, zone: any ZoneRules,
        runner: NotifyRunner
    ) {
        self.command = command
        self.missedWindow = missedWindow
        self.pairs = pairs
        self.record = record
        self.zone = zone
        self.runner = runner
    }

    /// What a look found: the files whose alarms cannot be read (each once, until it
    /// changes), and how many alarms that run the command come in the next 24 hours.
    public struct Look {
        /// The time the alarms were computed at.
        public var now: Int64
        /// The files that could not be read or parsed, with why.
        public var problems: [(file: String, message: String)]
        /// Alarms to come within the horizon that run the command.
        public var coming: Int
    }

    /// Reads the pairs' changed files again and recomputes the alarms, as at the time `clock`
    /// gives once they are read: an event moved re-schedules its alarms, one deleted cancels
    /// them. ``fireDue(at:)`` then fires.
    public func look(clock: () -> Int64) -> Look {
        var files: [URL] = []
        for pair in pairs {
            // A pair whose local side is a server, or whose vdir is not made yet, has no file.
            guard let found = try? PairRun(pair: pair, options: .init()).listedFiles() else { continue }
            files += found.urls
        }
        let problems = sources.update(files)
        let now = clock()
        // A day further back than the missed window, to say (with -v) which alarms were let go.
        known = sources.alarms(from: now - missedWindow - Self.lookBack, to: now + Self.horizon, zone: zone)
        horizonEnd = now + Self.horizon
        // What fired or was let go matters only while its alarm is still read.
        done = done.intersection(known.map(\.identity)).union(record.load())
        let coming = known.filter { $0.trigger > now && AlarmSchedule.runsCommand($0.view.action) }
        return Look(now: now, problems: problems, coming: coming.count)
    }

    /// What ``fireDue(at:)`` did.
    public struct Firing {
        /// Alarms found too late to fire (more than the missed window ago), let go.
        public var letGo: [AlarmInstant] = []
        /// The alarms whose command this process ran, each with whether it is late.
        public var fired: [(alarm: AlarmInstant, late: Bool)] = []
        /// Why the record of what fired could not be written (the alarms fire all the same).
        public var recordFailure: (any Error)?
        /// When to come back: the next trigger, or the horizon's end.
        public var next: Int64
    }

    /// Fires what is due at `now`: each alarm claimed in the record first, so that two
    /// watches never both run it.
    public func fireDue(at now: Int64) -> Firing {
        let decision = AlarmSchedule.decide(known, fired: done, now: now, missedWindow: missedWindow)
        var firing = Firing(letGo: decision.tooLate, next: min(decision.next ?? horizonEnd, horizonEnd))
        for alarm in decision.tooLate { done.insert(alarm.identity) }
        guard !decision.due.isEmpty else { return firing }
        var claimed: Set<String>
        do {
            claimed = try record.claim(
                decision.due.map { ($0.alarm.identity, $0.alarm.trigger) }, now: now,
                keepAfter: now - missedWindow - Self.lookBack)
        } catch {
            claimed = Set(decision.due.map(\.alarm.identity))
            firing.recordFailure = error
        }
        for (alarm, late) in decision.due {
            done.insert(alarm.identity)
            // Fired by another watch meanwhile.
            guard claimed.contains(alarm.identity) else { continue }
            runner.run(command.argv(values(of: alarm)))
            firing.fired.append((alarm, late))
        }
        return firing
    }

    /// The alarm's event's SUMMARY, or "(no title)".
    public static func summary(_ alarm: AlarmInstant) -> String { alarm.component["SUMMARY"]?.text ?? "(no title)" }

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
    public static func text(_ value: DateTimeValue, _ instant: Int64, _ zone: any ZoneRules) -> String {
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
