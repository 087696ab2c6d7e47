import Foundation

extension PairCalendar {
    /// Keeps the person's actions on meetings in the calendar's journal, for the run that sends
    /// them (an `event` command run `--offline`, or before its push): whichever run sends them
    /// sends them as the person's action (see ``SyncPolicy/personsActions``).
    /// - Parameter answers: those of `actions` that answer an invitation.
    /// - Throws: `JournalError` (the pair's lock held by another run, a journal that cannot be opened).
    public func awaitPersonsActions(_ actions: Set<String>, answers: Set<String> = []) throws {
        try SyncSession.awaitPersonsActions(actions, answers: answers, journalAt: journal)
    }

    /// The first of `uids` whose vdir state the calendar's journal does not record as synced:
    /// a UID with a file is synced when the journal's row names that file at its current
    /// signature, one without (deleted) when the journal has no row for it. Read under the
    /// pair's lock; nil when all are synced.
    public func firstUnsynced(_ uids: [String], in files: EventFiles, lockTimeout: Double = 5) -> String? {
        guard let lock = try? PairLock(journal: journal, timeout: lockTimeout),
            let journal = try? Journal.open(at: journal)
        else {
            return uids.first
        }
        defer { withExtendedLifetime(lock) {} }
        for uid in uids {
            let row = (try? journal.items(keys: [.uid(uid)]))?.first
            if let file = try? files.find(uid: uid) {
                guard let row, row.local.href.value == file.name, file.signature.matches(etag: row.local.etag.value)
                else { return uid }
            } else if row != nil {
                return uid
            }
        }
        return nil
    }
}
