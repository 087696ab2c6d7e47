import CalendarSync
import Foundation
import KernelEvents

/// Keeps pairs in sync until SIGINT or SIGTERM: a pair runs when its vdir has been quiet for
/// 500 ms after a change, and when its poll is due (the engine answers "unchanged" cheaply
/// from the sync-token or ctag). Each run is an ordinary `sync` through ``PairRunner``.
struct WatchLoop {
    /// Why a pair ran.
    typealias Trigger = WatchTrigger

    /// One `--json` line: a pair's sync report, why it ran and the wait before its next poll.
    struct RunRecord: Encodable {
        var trigger: Trigger
        var report: PairRunner.PairOutput
        var status: Int32
        var nextPollSeconds: Double

        func encode(to encoder: Encoder) throws {
            try report.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(trigger, forKey: .trigger)
            try container.encode(status, forKey: .status)
            try container.encode(nextPollSeconds, forKey: .nextPollSeconds)
        }
        enum Keys: String, CodingKey { case trigger, status, nextPollSeconds }
    }

    private struct PairState {
        var pair: PairConfiguration
        var schedule: PairScheduleState
    }

    let runner: PairRunner
    let pairs: [PairConfiguration]
    let interval: Double
    let json: Bool
    /// The reminders, when the config has `notify_command`; nil: alarms are not read.
    var alarms: AlarmWatch? = nil

    /// Runs until a signal arrives; returns the signal's number.
    func run() async throws -> Int32 {
        let signals = try SignalPipe.install()
        let watcher = try InotifyWatcher(isItem: ItemFileName.isItem)
        // A server on the local side (a server-to-server pair) is polled like the remote one,
        // and so is a single .ics file (a poll of it is one stat).
        // What a pair's local side is, the pair model says (`Pair.localFolder`).
        let folders = try pairs.compactMap { configuration in
            try configuration.pair.localFolder.map { (configuration.name, $0) }
        }
        for (name, folder) in folders {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try watcher.watch(folder, tag: name)
        }
        var states = pairs.map {
            PairState(pair: $0, schedule: PairScheduleState(interval: interval, now: MonotonicClock.now()))
        }
        if !json && !runner.output.quiet {
            let watched =
                folders.isEmpty ? "watching no folder" : "watching \(folders.map { $0.1.path }.joined(separator: ", "))"
            let reminding = alarms.map { "; alarms run \($0.command.arguments[0])" } ?? ""
            Terminal.err("\(watched); polling every \(Self.format(interval))\(reminding); Ctrl-C to stop")
        }
        // The first run catches up with whatever changed while nobody was watching.
        for index in states.indices { await runOne(&states[index], trigger: .start) }
        alarms?.refresh()
        while true {
            let now = MonotonicClock.now()
            let wait = states.map { $0.schedule.nextWake(after: now) }.min() ?? interval
            // The alarms' timer is set to a wall-clock time: due on time across a suspend.
            let readable = try DescriptorWait.readable(
                [signals, watcher.fileDescriptor] + (alarms.map { [$0.timer.fileDescriptor] } ?? []), within: wait)
            if let signal = SignalPipe.drain(signals).first { return signal }
            if let alarms, readable[2] { alarms.timerFired() }
            let changed = watcher.drain()
            let later = MonotonicClock.now()
            for index in states.indices where changed.contains(states[index].pair.name) {
                states[index].schedule.debouncer.touch(at: later)
                if runner.output.verbose { Terminal.err("\(states[index].pair.name): local change seen") }
            }
            var ran = false
            for index in states.indices {
                guard let trigger = states[index].schedule.due(at: later) else { continue }
                await runOne(&states[index], trigger: trigger)
                ran = true
                // A signal that came during the run ends the watch now the run is finished.
                if let signal = SignalPipe.drain(signals).first { return signal }
            }
            // What a run wrote (or a file changed) may move, add or remove alarms.
            if ran { alarms?.refresh() }
        }
    }

    private func runOne(_ state: inout PairState, trigger: Trigger) async {
        if runner.output.verbose { Terminal.err("\(state.pair.name): syncing (\(trigger.rawValue))") }
        let (report, status) = await runner.runPair(state.pair)
        let next = state.schedule.finished(success: status == .success, at: MonotonicClock.now())
        if json {
            let record = RunRecord(
                trigger: trigger, report: .init(pair: state.pair.name, report: report),
                status: status.rawValue, nextPollSeconds: next)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            if let data = try? encoder.encode(record) { Terminal.out(String(decoding: data, as: UTF8.self)) }
        } else if !runner.output.quiet && (report.hasChanges || runner.output.verbose || status != .success) {
            Terminal.out("\(Self.timestamp()) \(state.pair.name): \(report.summary)")
            for c in report.conflicts { Terminal.out("  conflict \(c.uid): \(c.resolution.rawValue)") }
            if status != .success { Terminal.err("\(state.pair.name): next poll in \(Self.format(next))") }
        }
    }

    static func format(_ seconds: Double) -> String {
        seconds >= 60 && seconds.truncatingRemainder(dividingBy: 60) == 0
            ? "\(Int(seconds / 60)) min" : "\(seconds.formatted()) s"
    }

    static func timestamp() -> String {
        let f = DateFormatter()
        f.dateFormat = "HH:mm:ss"
        return f.string(from: Date())
    }
}

extension SyncReport {
    /// Whether the run wrote anything or met a conflict (quiet runs print nothing in `watch`).
    var hasChanges: Bool { created.total + updated.total + deleted.total + conflicts.count > 0 }
}
