import GRDB

/// Every read and write of the journal's rows goes through these two, so that SQLite's
/// refusal of any of them reaches a person as a ``JournalError`` that says what to do (a full
/// disk, a read-only file, another program holding it), with SQLite's error as its cause —
/// not as GRDB's own error, in SQLite's words alone.
extension Journal {
    /// Runs `body` in a read transaction.
    /// - Throws: ``JournalError`` (`.storage`) over SQLite's refusal; the body's own errors as they are.
    func reading<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try writer.read(body)
        } catch let error as DatabaseError {
            throw JournalError.notRead(error)
        }
    }

    /// Runs `body` in a write transaction, committed when it returns.
    /// - Throws: ``JournalError`` (`.storage`) over SQLite's refusal; the body's own errors as they are.
    func writing<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try writer.write(body)
        } catch let error as DatabaseError {
            throw JournalError.rowsNotWritten(error)
        }
    }
}
