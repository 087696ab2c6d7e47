import ICalendar

/// One `[busy.NAME]` projection of the config: which calendars' events make busy blocks in
/// which other calendar, and which of them (shared/CLI.md). Read and checked here; the config
/// file's reader only hands over the table's values.
public struct BusySettings: Sendable, Equatable {
    /// What besides declined, free and cancelled events is left out.
    public enum Skip: String, Sendable, CaseIterable {
        case tentative
        case needsAction = "needs-action"
        case allDay = "all-day"
    }

    /// The projection's name: part of each block's UID, and its `X-CALGW-BUSY` value.
    public var name: String
    /// The calendars whose events make blocks: a pair, or `pair/collection`.
    public var from: [String]
    /// The calendar that receives the blocks: a pair, or `pair/collection`.
    public var to: String
    /// Every block's SUMMARY.
    public var title = "Busy"
    /// What else is left out.
    public var skip: Set<Skip> = []
    /// Only the part of each event within these minutes of the day (start, end), in the
    /// reader's zone; nil: the whole event.
    public var hours: (start: Int, end: Int)?
    /// What is projected, in seconds relative to now: events ending before the first or
    /// starting after the second are not.
    public var horizon: (back: Int64, ahead: Int64) = (-86_400, 180 * 86_400)

    /// The projection `name`, its values as the config gives them (nil: the default).
    /// - Throws: ``BusySettingsError`` naming the key and what is wrong with it.
    public init(
        name: String, from: [String], to: String, title: String? = nil, skip: [String] = [], hours: String? = nil,
        horizon: String? = nil
    ) throws {
        self.name = name
        guard !from.isEmpty else { throw BusySettingsError(key: "from", "names no calendar to project from") }
        guard !from.contains(to) else {
            throw BusySettingsError(key: "to", "\(to) is also in from: a calendar's blocks would be its own events")
        }
        self.from = from
        self.to = to
        if let title { self.title = title }
        self.skip = Set(
            try skip.map { word in
                guard let kind = Skip(rawValue: word.lowercased()) else {
                    throw BusySettingsError(
                        key: "skip",
                        "\(word) is none of \(Skip.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return kind
            })
        if let hours { self.hours = try Self.hours(hours) }
        if let horizon { self.horizon = try Self.horizon(horizon) }
    }

    public static func == (a: BusySettings, b: BusySettings) -> Bool {
        a.name == b.name && a.from == b.from && a.to == b.to && a.title == b.title && a.skip == b.skip
            && a.hours?.start == b.hours?.start && a.hours?.end == b.hours?.end && a.horizon == b.horizon
    }

    /// `08:00-19:00` as minutes of the day.
    static func hours(_ text: String) throws -> (start: Int, end: Int) {
        let parts = text.split(separator: "-").map { $0.trimmingCharacters(in: .whitespaces) }
        func minutes(_ clock: String) -> Int? {
            let hm = clock.split(separator: ":")
            guard hm.count == 2, let h = Int(hm[0]), let m = Int(hm[1]), (0...24).contains(h), (0..<60).contains(m)
            else { return nil }
            return h * 60 + m
        }
        guard parts.count == 2, let start = minutes(parts[0]), let end = minutes(parts[1]), start < end, end <= 1440
        else { throw BusySettingsError(key: "hours", "\(text) is not HH:MM-HH:MM with the start first") }
        return (start, end)
    }

    /// `-1d..+180d` (units s, m, h, d, w) as seconds relative to now.
    static func horizon(_ text: String) throws -> (back: Int64, ahead: Int64) {
        let bounds = text.components(separatedBy: "..")
        func seconds(_ part: String) -> Int64? {
            let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]
            guard let unit = part.last.flatMap({ units[$0] }), let n = Int64(part.dropLast()) else { return nil }
            return n * unit
        }
        guard bounds.count == 2, let back = seconds(bounds[0]), let ahead = seconds(bounds[1]), back < ahead else {
            throw BusySettingsError(key: "horizon", "\(text) is not FROM..TO such as -1d..+180d")
        }
        return (back, ahead)
    }
}

/// A `[busy.NAME]` value that cannot be taken.
public struct BusySettingsError: Error, Sendable, CustomStringConvertible {
    /// The key at fault.
    public var key: String
    /// What is wrong with it.
    public var problem: String

    public init(key: String, _ problem: String) {
        self.key = key
        self.problem = problem
    }

    public var description: String { "\(key): \(problem)" }
}
