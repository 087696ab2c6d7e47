import Failures
import GRDB

extension CodedError where Code == JournalFailure {
    /// SQLite's refusal of a statement that writes journal rows, as an error a person can act
    /// on: what failed in SQLite's words, and what to do for the result codes a person can
    /// do something about (a full disk, a read-only file, another program holding the file).
    /// SQLite's own error stays the cause, so a caller can still tell a constraint apart.
    static func rowsNotWritten(_ error: DatabaseError) -> JournalError {
        let reason = error.message ?? "\(error.resultCode)"
        return JournalError(
            .storage, "the journal could not record its rows: \(reason) (SQLite \(error.extendedResultCode.rawValue))",
            recovery: recovery(for: error.resultCode), cause: error)
    }

    /// SQLite's refusal of a read of journal rows, with what to do about it.
    static func notRead(_ error: DatabaseError) -> JournalError {
        let reason = error.message ?? "\(error.resultCode)"
        return JournalError(
            .storage, "the journal could not be read: \(reason) (SQLite \(error.extendedResultCode.rawValue))",
            recovery: recovery(for: error.resultCode), cause: error)
    }

    /// What to do when SQLite answers `code` to a write.
    static func recovery(for code: ResultCode) -> String {
        switch code {
        case .SQLITE_FULL: "free space on the file system holding the journal, then run again"
        case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_CANTOPEN:
            "calgw may not write the journal: check the owner and permissions of the journal and its folder, then run again"
        case .SQLITE_BUSY, .SQLITE_LOCKED: "another program holds the journal: let it finish, then run again"
        default:
            "run again: what was written is kept, and the rest is done then; if it fails again, move the journal away to start over (the next sync then matches items by UID)"
        }
    }

    /// Whether SQLite refused the rows because another row holds one of their unique values
    /// (an href belongs to one item).
    var isUniqueConstraint: Bool {
        (cause as? DatabaseError)?.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE
    }
}
