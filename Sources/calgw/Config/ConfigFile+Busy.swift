import CalendarSync
import TOMLKit

extension ConfigFile {
    /// The `[busy.NAME]` tables: each a projection, checked by ``BusySettings``.
    /// - Throws: `ConfigError` naming the table and key, for a value of the wrong kind or one
    ///   BusySettings refuses, and for a key it does not know.
    static func busy(_ table: TOMLTable, file: String) throws -> [BusySettings] {
        guard let tables = table["busy"]?.table else { return [] }
        return try tables.keys.sorted().map { name in
            guard let t = tables[name]?.table else { throw ConfigError("\(file): busy.\(name) is not a table") }
            let known = ["from", "to", "title", "skip", "hours", "horizon"]
            if let unknown = t.keys.sorted().first(where: { !known.contains($0) }) {
                throw ConfigError(
                    "\(file): busy.\(name).\(unknown) is not a key calgw knows",
                    hint: "a projection takes \(known.joined(separator: ", "))")
            }
            func list(_ key: String) -> [String]? {
                t[key]?.string.map { [$0] } ?? t[key]?.array.map { $0.compactMap(\.string) }
            }
            do {
                guard let to = t["to"]?.string else { throw BusySettingsError(key: "to", "names no pair") }
                return try BusySettings(
                    name: name, from: list("from") ?? [], to: to, title: t["title"]?.string, skip: list("skip") ?? [],
                    hours: t["hours"]?.string, horizon: t["horizon"]?.string)
            } catch let error as BusySettingsError {
                throw ConfigError("\(file): busy.\(name).\(error.key): \(error.problem)")
            }
        }
    }
}
