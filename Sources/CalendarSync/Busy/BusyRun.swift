import Foundation
import ICalendar
import VDir

/// A projection run: the blocks its sources' events make, written into its target's vdir
/// (made, changed, removed), for the target pair's sync to upload as any change. Reads the
/// source vdirs as they are; writes only files that hold the projection's blocks.
public struct BusyRun {
    /// What a run did (or, with `dryRun`, would do), as `calgw busy --json` gives it.
    public struct Report: Encodable, Sendable {
        public var projection: String
        public var made = 0
        public var changed = 0
        public var removed = 0
        public var unchanged = 0
        /// Files of the sources that could not be read (each left out, said).
        public var unreadable: [String] = []

        /// `work-to-home: 3 made, 1 changed, 0 removed, 12 unchanged`.
        public var line: String {
            "\(projection): \(made) made, \(changed) changed, \(removed) removed, \(unchanged) unchanged"
        }

        /// Whether the run wrote anything.
        public var wrote: Bool { made + changed + removed > 0 }
    }

    public var settings: BusySettings
    /// Every pair of the config: the sources and the target are found among them.
    public var pairs: [Pair]
    /// The reader's zone, for `hours`.
    public var zone: any ZoneRules
    /// Now, for the horizon.
    public var now: Int64

    /// The projection `settings` among `pairs`, in the reader's zone (`TZ`, else the
    /// system's) and at the present instant unless told otherwise.
    public init(
        settings: BusySettings, pairs: [Pair], zone: (any ZoneRules)? = nil,
        now: Int64 = Int64(Date().timeIntervalSince1970)
    ) {
        self.settings = settings
        self.pairs = pairs
        self.zone = zone ?? InvitationView.readerZone
        self.now = now
    }

    /// The target pair (for its sync to upload what the run wrote).
    public var targetPair: String { String(settings.to.split(separator: "/", maxSplits: 1)[0]) }

    /// The runs of the `projections` that read or write one of the pairs `synced`.
    public static func touching(_ projections: [BusySettings], pairs: [Pair], synced: Set<String>) -> [BusyRun] {
        projections.map { BusyRun(settings: $0, pairs: pairs) }.filter { !$0.pairNames.isDisjoint(with: synced) }
    }

    /// The pairs the projection reads or writes.
    public var pairNames: Set<String> {
        Set((settings.from + [settings.to]).map { String($0.split(separator: "/", maxSplits: 1)[0]) })
    }

    /// Runs the projection: every block wanted made or brought up to date, every block of it
    /// no longer wanted removed; with `remove`, every block of it removed and nothing made.
    /// - Throws: ``BusySettingsError`` for a pair or calendar the config does not have; what
    ///   writing the target's vdir throws.
    public func run(dryRun: Bool = false, remove: Bool = false) throws -> Report {
        var report = Report(projection: settings.name)
        let target = try calendars(settings.to, key: "to")
        guard target.count == 1, let into = target.first else {
            throw BusySettingsError(
                key: "to", "\(settings.to) holds \(target.count) calendars: name one as pair/calendar")
        }
        let files = into.calendar.eventFiles
        var wanted: [String: Component] = [:]
        if !remove {
            for name in settings.from {
                for source in try calendars(name, key: "from") {
                    let blocks = BusyBlocks(settings: settings, own: own(source.pair), zone: zone, now: now)
                    for calendar in read(source.calendar.folder, unreadable: &report.unreadable) {
                        wanted.merge(blocks.blocks(of: calendar)) { first, _ in first }
                    }
                }
            }
        }
        let plan = BusyPlan(wanted: wanted, held: try held(in: files, wanted: wanted))
        report.made = plan.make.count
        report.changed = plan.change.count
        report.removed = plan.remove.count
        report.unchanged = plan.unchanged
        guard !dryRun else { return report }
        for block in plan.make { try files.create(block.calendar, uid: block.uid) }
        for block in plan.change { try files.replace(block.file, with: block.calendar) }
        for file in plan.remove { try files.delete(file) }
        return report
    }

    /// The calendars `name` (`pair` or `pair/calendar`) stands for: an account pair's every
    /// calendar, or the one named.
    func calendars(_ name: String, key: String) throws -> [(pair: Pair, calendar: PairCalendar)] {
        let parts = name.split(separator: "/", maxSplits: 1).map(String.init)
        guard let pair = pairs.first(where: { $0.name == parts.first }) else {
            throw BusySettingsError(key: key, "no pair \(parts.first ?? name) in the config")
        }
        if parts.count == 2 { return [(pair, try PairRun(pair: pair).calendar(parts[1]))] }
        if key == "to" { return [(pair, try PairRun(pair: pair).calendar(nil))] }
        return ITipTarget.calendars(of: pair).map { (pair, $0) }
    }

    /// The person's addresses on `pair`: its `addresses`, and those its server gave.
    func own(_ pair: Pair) -> Set<String> {
        Set((pair.addresses + (pair.cachedServerAccount?.addresses ?? [])).map(CalendarUser.normalized))
    }

    /// The calendar objects in `folder`; a file that does not read is named in `unreadable`.
    func read(_ folder: URL, unreadable: inout [String]) -> [Component] {
        let directory = VDirectory(url: folder)
        guard let entries = try? directory.scan() else { return [] }
        var out: [Component] = []
        for entry in entries {
            guard let (data, _) = try? directory.read(entry.name) else { continue }
            guard let calendar = try? ICalendarParser().parse(data).calendar else {
                unreadable.append(directory.path(entry.name))
                continue
            }
            out.append(calendar)
        }
        return out
    }

    /// The projection's blocks in the target: files marked `X-CALGW-BUSY` with its name, and
    /// files holding a block UID it wants whose mark was edited away.
    func held(in files: EventFiles, wanted: [String: Component]) throws -> [String: EventFile] {
        var out: [String: EventFile] = [:]
        guard (try? files.directory.scan()) != nil else { return [:] }
        for entry in try files.directory.scan() {
            guard let file = try files.read(entry.name) else { continue }
            let events = file.calendar.components.filter { $0.name == "VEVENT" }
            guard let uid = events.first?["UID"]?.value, uid.hasPrefix("calgw-busy-") else { continue }
            let marks = Set(events.compactMap { $0["X-CALGW-BUSY"]?.text })
            guard marks.contains(settings.name) || (marks.isEmpty && wanted[uid] != nil) else { continue }
            out[uid] = file
        }
        return out
    }
}
