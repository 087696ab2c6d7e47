import Foundation

/// A write to the server that the server failed in its own code (it answered 500), kept out of
/// later runs while the vdir holds the same version: DAViCal 1.1.12 fails an attendee's answer
/// to some meetings on every try (its reply code), so sending it again would fail every run.
/// The vdir keeps the change, the journal keeps the item as it was, and the run counts the
/// write as pending. A new version of the file (a new answer, an edit), a change of the
/// server's copy, or the person's own command on the item (`event reply` again) sends it again.
struct HeldBackWrite: Codable, Equatable, Sendable {
    /// The vdir's version the server failed on: its content hash, or empty for a deletion.
    var hash: String
    /// What the server said, in one line.
    var reason: String
    /// A run after the failure has said that the write is held back (it is said once).
    var told = false
}

extension Journal {
    static let heldBackName = "heldBackWrites"

    /// The writes held back, by item key; none when nothing is.
    func heldBackWrites() throws -> [String: HeldBackWrite] {
        try metaValue([String: HeldBackWrite].self, named: Self.heldBackName) ?? [:]
    }

    func setHeldBackWrites(_ writes: [String: HeldBackWrite]) throws {
        try setMetaValue(writes.isEmpty ? nil : writes, named: Self.heldBackName)
    }
}
