#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import CalendarSync
import Foundation

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
        guard let signals = SignalPipe.install() else { throw CLIError("cannot install signal handlers") }
        let watcher = try InotifyWatcher()
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
        var states = pairs.map { PairState(pair: $0, schedule: PairScheduleState(interval: interval, now: Self.now())) }
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
            let now = Self.now()
            let wait = states.map { $0.schedule.nextWake(after: now) }.min() ?? interval
            var fds = [
                pollfd(fd: signals, events: Int16(POLLIN), revents: 0),
                pollfd(fd: watcher.fileDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            // The alarms' timer is set to a wall-clock time: due on time across a suspend.
            if let alarms { fds.append(pollfd(fd: alarms.timer.fileDescriptor, events: Int16(POLLIN), revents: 0)) }
            let timeout = Int32(max(0, min(wait, 3600)) * 1000)
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 && errno != EINTR {
                throw CLIError("waiting for changes failed: \(String(cString: strerror(errno)))")
            }
            if let signal = SignalPipe.drain(signals).first { return signal }
            if let alarms, fds[2].revents & Int16(POLLIN) != 0 { alarms.timerFired() }
            let changed = watcher.drain()
            let later = Self.now()
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
        let next = state.schedule.finished(success: status == .success, at: Self.now())
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

    /// Seconds on the monotonic clock.
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
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
