import Foundation
import VDir
import ICalendar

/// A scheduling message applied to the vdir and sent on to the server, as an `event` command's
/// change goes: the copy written (a new file for an invitation, the file replaced otherwise),
/// then pushed unless offline. What the message brings is a copy of the organizer's (or the
/// attendee's) own act: the server is not asked to schedule anything for it.
public struct ITipDelivery: Sendable {
    /// What `itip` reports, in `--json` as shared/CLI.md names it.
    public struct Report: Encodable, Sendable {
        public var method: String
        public var uid: String
        public var recurrenceId: String?
        public var pair: String?
        public var path: String?
        /// added, updated, cancelled, answer recorded, unchanged, refused, unreadable.
        public var action: String
        /// Why nothing was written; nil when applied.
        public var reason: String?
        /// What the reader should know of the message itself (a method stated twice).
        public var note: String?
        /// Whether the change reached the server.
        public var pushed: Bool?
        /// Why the change is not on the server yet (the next push sends it).
        public var pending: String?
        /// True for `--dry-run`: the action is what a run would do; nothing was written.
        public var dryRun: Bool?
        /// The command that answers an invitation just added or updated (its UID can be 130
        /// characters long: a mail program's macro runs it), or that takes a proposal of
        /// another time (COUNTER).
        public var answer: String?

        public init(method: String, uid: String, action: String, reason: String?) {
            self.method = method
            self.uid = uid
            self.action = action
            self.reason = reason
        }

        private enum CodingKeys: String, CodingKey {
            case method, uid, recurrenceId, pair, path, action, reason, note, pushed, pending, dryRun, answer
        }

        /// CLI.md's shape: `uid`, `recurrenceId`, `pair`, `path` and `reason` always there (null
        /// when unknown or not applicable), `recurrenceId` in RFC 3339; the others when set.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(method, forKey: .method)
            try c.encode(uid.isEmpty ? nil : uid, forKey: .uid)
            try c.encode(recurrenceId.map(Self.rfc3339), forKey: .recurrenceId)
            try c.encode(pair, forKey: .pair)
            try c.encode(path, forKey: .path)
            try c.encode(action, forKey: .action)
            try c.encode(reason, forKey: .reason)
            try c.encodeIfPresent(note, forKey: .note)
            try c.encodeIfPresent(pushed, forKey: .pushed)
            try c.encodeIfPresent(pending, forKey: .pending)
            try c.encodeIfPresent(dryRun, forKey: .dryRun)
            try c.encodeIfPresent(answer, forKey: .answer)
        }

        /// `20270125T093000Z` as `2027-01-25T09:30:00Z`, `20270125` as `2027-01-25`; any other
        /// text as it is.
        static func rfc3339(_ value: String) -> String {
            let c = Array(value)
            guard c.count >= 8, c.prefix(8).allSatisfy(\.isNumber) else { return value }
            let date = "\(String(c[0..<4]))-\(String(c[4..<6]))-\(String(c[6..<8]))"
            guard c.count >= 15, c[8] == "T", c[9..<15].allSatisfy(\.isNumber) else {
                return c.count == 8 ? date : value
            }
            return date + "T\(String(c[9..<11])):\(String(c[11..<13])):\(String(c[13..<15]))" + String(c[15...])
        }

        /// Whether `itip --accept` (`--decline`, `--tentative`) answers after this: an
        /// invitation or update applied, or one held already, and not a dry run.
        public var answerable: Bool {
            ["REQUEST", "PUBLISH"].contains(method) && ["added", "updated", "unchanged"].contains(action)
                && dryRun != true
        }

        /// The report of a message that could not be read, for `--json`.
        public static func unreadable(_ error: any Error) -> Report {
            Report(method: "", uid: "", action: "unreadable", reason: "\(error)")
        }

        /// What `itip` says besides its line: the message's own note, and why the change is
        /// not on the server yet.
        public var notes: [String] {
            let lead = method == ITipMessage.Method.counter.rawValue ? "to take it, run" : "answer with:"
            return [note, pending.map { "the server does not have it yet: \($0)" }, answer.map { "\(lead) \($0)" }]
                .compactMap { $0 }
        }

        /// The line `itip` prints: what was done (or, with `--dry-run`, would be), to which
        /// UID, why, and where.
        public var line: String {
            (dryRun == true ? "would be \(action): " : "\(action) ") + (uid.isEmpty ? "(no UID)" : uid)
                + (reason.map { ": \($0)" } ?? "") + (path.map { " (\($0))" } ?? "")
        }
    }

    /// Applies `message` from `sender` at `target` for the person at `own`: writes the copy
    /// (not with `dryRun`) and pushes it (not `offline`); with `takesLarge`, an invitation held
    /// for its size too.
    /// - Throws: what writing the vdir throws (the file changed meanwhile, a folder not writable).
    public static func deliver(
        _ message: ITipMessage, sender: ITipSender?, to target: ITipTarget, own: Set<String>, offline: Bool,
        dryRun: Bool, takesLarge: Bool = false
    ) async throws -> Report {
        let outcome = message.apply(to: target.file?.calendar, sender: sender, own: own, takesLarge: takesLarge)
        var report = Report(
            method: message.method.rawValue, uid: message.uid, action: outcome.action, reason: outcome.reason)
        report.recurrenceId = message.recurrenceID
        report.pair = target.pair.name
        report.note = message.note
        // A first invitation is taken from anyone; who sent it is said when not its organizer.
        if target.file == nil, let sender, let organizer = message.organizer, !sender.includes(organizer) {
            let said = "it comes from \(sender.named), not from its organizer \(organizer)"
            report.note = report.note.map { "\($0); \(said)" } ?? said
        }
        let files = target.calendar.eventFiles
        // The file the copy is in, or would be in: named only where there is, or will be, one.
        if target.file != nil || outcome.copy != nil {
            report.path = files.directory.path(target.file?.name ?? SafeFileName.fileName(forUID: message.uid))
        }
        report.dryRun = dryRun ? true : nil
        if case .proposed(_, let taking) = outcome { report.answer = taking }
        if ["added", "updated"].contains(outcome.action), let copy = outcome.copy,
            let event = copy.components.first(where: {
                $0["UID"]?.text == message.uid && OwnPart.attendee($0, addresses: own) != nil
            })
        {
            let occurrence =
                event["RECURRENCE-ID"]?.dateTime.map { " --occurrence \(OccurrenceText.display($0))" } ?? ""
            report.answer = "calgw event reply \(message.uid)\(occurrence) --accept (or --tentative, --decline)"
        }
        guard let copy = outcome.copy, !dryRun else { return report }
        if let file = target.file {
            try files.replace(file, with: copy)
        } else {
            try files.create(copy, uid: message.uid)
        }
        let outcomeOfPush = await EventPush(pair: target.pair, calendar: target.calendar, offline: offline)
            .push(uids: [message.uid])
        report.pushed = outcomeOfPush.pushed
        report.pending = outcomeOfPush.pendingReason
        return report
    }
}
