import Foundation
import GRDB

/// The person's actions on meetings that have not reached the server yet: an `event` command
/// run `--offline`, or whose push failed (the server refused or could not be reached). The
/// journal keeps them so that the run that finally sends such an item sends it as the person's
/// action, which a scheduling server delivers; sent as a copy it would invite nobody.
struct AwaitedActions: Codable, Equatable, Sendable {
    /// UIDs whose next write to the server is the person's action (``SyncPolicy/personsActions``).
    var actions: Set<String> = []
    /// Of those, answers to invitations (``SyncPolicy/answers``).
    var answers: Set<String> = []

    var isEmpty: Bool { actions.isEmpty }

    /// These without `settled` UIDs.
    func removing(_ settled: some Sequence<String>) -> AwaitedActions {
        let done = Set(settled)
        return AwaitedActions(actions: actions.subtracting(done), answers: answers.subtracting(done))
    }
}

extension Journal {
    static let awaitedActionsName = "awaitedPersonsActions"

    /// The person's actions still to send; none when nothing waits.
    func awaitedActions() throws -> AwaitedActions {
        try metaValue(AwaitedActions.self, named: Self.awaitedActionsName) ?? AwaitedActions()
    }

    func setAwaitedActions(_ awaited: AwaitedActions) throws {
        try setMetaValue(awaited.isEmpty ? nil : awaited, named: Self.awaitedActionsName)
    }

    /// The value kept as JSON under `name` in the `meta` table; nil when none is, or it cannot
    /// be read (a value a later version wrote differently is taken as none).
    func metaValue<Value: Decodable>(_ type: Value.Type, named name: String) throws -> Value? {
        let text = try reading { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE name = ?", arguments: [name])
        }
        guard let text else { return nil }
        return try? JSONDecoder().decode(Value.self, from: Data(text.utf8))
    }

    /// Keeps `value` as JSON under `name` in the `meta` table; nil removes it.
    func setMetaValue(_ value: (some Encodable)?, named name: String) throws {
        guard let value else {
            try writing { db in try db.execute(sql: "DELETE FROM meta WHERE name = ?", arguments: [name]) }
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        try writing { db in
            try db.execute(sql: "INSERT OR REPLACE INTO meta (name, value) VALUES (?, ?)", arguments: [name, text])
        }
    }
}
