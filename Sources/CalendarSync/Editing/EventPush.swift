import Failures
import Foundation

/// Sends what an `event` command just wrote to the server, unless `--offline`: a push of the
/// pair (of the edited calendar only, for an account pair), so the change travels with the same journal, conditional requests and safety rails
/// as `calgw push` (other changes pending in the vdir go with it).
///
/// Once the vdir holds the change the command has done its work: a failure to send it never
/// makes the command fail, since running it again would make the change twice (a second event
/// for `add`). The outcome says whether the change reached the server and, if not, why; the
/// next `push` or `sync` sends it.
public struct EventPush {
    /// The pair the command works on.
    public var pair: Pair
    /// The calendar of it whose vdir the command wrote.
    public var calendar: PairCalendar
    /// `--offline`: nothing is sent; the change waits for the next push or sync.
    public var offline: Bool
    /// UIDs whose write is the person's own action (a reply): the server schedules for them.
    public var personsActions: Set<String> = []
    /// Of those, the UIDs whose action answers an invitation (see ``SyncPolicy/answers``).
    public var answers: Set<String> = []

    /// Sends `calendar` of `pair` (unless `offline`), `personsActions` as the person's own.
    public init(pair: Pair, calendar: PairCalendar, offline: Bool, personsActions: Set<String> = []) {
        self.pair = pair
        self.calendar = calendar
        self.offline = offline
        self.personsActions = personsActions
    }

    /// Where the change stands after the command.
    public struct Outcome {
        /// Whether every item the command wrote is on the server as the vdir holds it.
        public var pushed: Bool
        /// Why it is not (nil when pushed, or `--offline`).
        public var pendingReason: String?
        /// What the person can do about it.
        public var hint: String?
        /// The answer was not sent: the organizer changed the meeting meanwhile, and the vdir
        /// now holds the new version to answer.
        public var answerOutdated = false
        /// What the run had to tell besides (a cancellation the server could not send).
        public var notes: [String] = []
        /// The server failed in its own code on the change (DAViCal's reply code): it is held
        /// back, and the command fails saying so.
        public var heldBack = false
        /// What the server did with the person's deletion of a meeting, when the storage that
        /// deleted learnt it (see ``DeletionScheduling``); nil otherwise.
        public var deletion: DeletionScheduling?
    }

    /// Pushes the pair and checks, in its journal, that each of `uids` reached the server.
    public func push(uids: [String]) async -> Outcome {
        if pair.remote.isReadOnly {
            return Outcome(
                pushed: false,
                pendingReason: offline
                    ? nil : "pair \(pair.name) subscribes to a read-only feed, which takes no changes",
                hint:
                    "the event stays in the vdir only; a later change to it in the feed keeps yours as a conflict copy")
        }
        // Whichever run sends them, they go as the person's action (the push below, or a later one).
        if pair.schedules {
            try? calendar.awaitPersonsActions(personsActions, answers: answers)
        }
        if offline { return Outcome(pushed: false) }
        var push = PairRun.Options(direction: .push)
        push.collection = calendar.collection
        push.personsActions = personsActions
        push.answers = answers
        let report: SyncReport
        do {
            report = try await PairRun(pair: pair, options: push).run().report
        } catch {
            let hint =
                if let explained = error as? any ExplainedError {
                    explained.recovery
                } else { (error as? LocalizedError)?.recoverySuggestion }
            // The server's own hint may say a rerun is safe; for this command it is not (an
            // added event would be added twice): the push is what to run again.
            let serverHint = hint?.replacingOccurrences(of: "; rerunning is safe", with: "")
            return Outcome(
                pushed: false, pendingReason: "sending it to the server failed: \(CauseChain.text(of: error))",
                hint: serverHint.map { "\($0); then `calgw push` sends it" }
                    ?? "`calgw push` sends it when the server can be reached")
        }
        if let outdated = uids.first(where: report.unsentAnswers.contains) {
            return Outcome(
                pushed: false,
                pendingReason:
                    "the organizer changed \(outdated) since your copy was synced, so your answer was not sent",
                hint: "the vdir now holds the new version: look at it (`calgw list`), then answer again",
                answerOutdated: true)
        }
        if let reason = uids.lazy.compactMap({ report.heldBack[$0] }).first {
            return Outcome(
                pushed: false, pendingReason: "the server failed on it (\(reason))",
                hint: "the server's fault, not the change's: later runs leave it in the vdir and do not send it "
                    + "again until it changes; tell the other people of the meeting yourself",
                notes: report.notes, heldBack: true)
        }
        if let missing = notOnServer(uids) {
            let errors = report.errors.isEmpty ? "" : ": " + report.errors.lines.joined(separator: "; ")
            return Outcome(
                pushed: false, pendingReason: "the server does not have \(missing) yet\(errors)",
                hint: "`calgw status` shows what is pending; `calgw push` retries")
        }
        var pushed = Outcome(pushed: true, notes: report.notes)
        pushed.deletion = uids.lazy.compactMap { report.deletionScheduling[$0] }.first
        return pushed
    }

    /// The first of `uids` the calendar's journal does not record as synced, if any.
    func notOnServer(_ uids: [String]) -> String? {
        calendar.firstUnsynced(uids, in: calendar.eventFiles)
    }
}
