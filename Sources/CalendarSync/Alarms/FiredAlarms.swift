import Foundation

/// The alarms `watch` fired, kept in the state folder (`$XDG_STATE_HOME/calgw/alarms.json`)
/// so that each goes off once across restarts, and across two `watch` processes: an alarm is
/// claimed under an exclusive lock (`alarms.lock` beside it) and recorded, the file replaced
/// atomically, before its command runs. A crash between the two loses that one notification
/// rather than repeating it.
///
/// Entries whose trigger is older than the missed window (plus a day) are dropped at each
/// write: such an alarm would not fire again anyway.
public struct FiredAlarms {
    /// The record.
    public let file: URL
    /// The lock taken while the record is read and written.
    var lockFile: URL { file.deletingLastPathComponent().appendingPathComponent("alarms.lock") }

    struct Entry: Codable, Equatable {
        /// ``Recurrence/AlarmInstant/identity``.
        var id: String
        /// The trigger, seconds since the epoch.
        var trigger: Int64
        /// When it was fired.
        var fired: Int64
    }

    private struct Document: Codable {
        var version = 1
        var fired: [Entry]
    }

    /// The record at `file` (`$XDG_STATE_HOME/calgw/alarms.json` for `watch`).
    public init(file: URL) { self.file = file }

    /// The identities recorded (none when there is no record, or it cannot be read).
    public func load() -> Set<String> { Set(entries().map(\.id)) }

    func entries() -> [Entry] {
        guard let data = try? Data(contentsOf: file),
            let document = try? JSONDecoder().decode(Document.self, from: data)
        else { return [] }
        return document.fired
    }

    /// Records the alarms of `candidates` that are not recorded yet, under the lock, and
    /// returns their identities: the ones this process is to fire.
    /// - Parameter keepAfter: entries with a trigger before this are dropped.
    /// - Throws: the reason the folder or the record could not be written (the caller fires
    ///   anyway: a reminder repeated after a restart is better than one lost).
    public func claim(_ candidates: [(id: String, trigger: Int64)], now: Int64, keepAfter: Int64) throws
        -> Set<String>
    {
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let lock = try PairLock(file: lockFile)
        defer { withExtendedLifetime(lock) {} }
        var kept = entries().filter { $0.trigger >= keepAfter }
        let recorded = Set(kept.map(\.id))
        var claimed = Set<String>()
        for c in candidates where !recorded.contains(c.id) && !claimed.contains(c.id) {
            claimed.insert(c.id)
            kept.append(Entry(id: c.id, trigger: c.trigger, fired: now))
        }
        guard !claimed.isEmpty else { return claimed }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try FileReplacement.write(Array(try encoder.encode(Document(fired: kept))), to: file)
        return claimed
    }
}
