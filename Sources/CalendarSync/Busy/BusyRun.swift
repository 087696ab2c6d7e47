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
    /// A source file unchanged since the last run (its signature) is not read, nor a block
    /// file left as that run left it: a run with nothing new lists folders and writes nothing.
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
        let stateURL = BusyState.url(projection: settings.name, calendar: into.calendar)
        let sources = try settings.from.flatMap { try calendars($0, key: "from") }
        let key = fingerprint(sources.map(\.pair))
        let known = remove ? nil : BusyState.load(stateURL, key: key)
        var state = BusyState(key: key)
        var (wanted, kept): ([String: Component], [String: String]) = ([:], [:])
        if !remove { (wanted, kept) = gather(sources, known: known, into: &state, unreadable: &report.unreadable) }
        // A block of an unchanged source whose file is not as the last run left it (edited or
        // deleted by hand, or rewritten by a sync) is made again from its source, and compared.
        let present = Dictionary(
            ((try? files.directory.scan()) ?? []).map { ($0.name, "\($0.signature)") }, uniquingKeysWith: { a, _ in a })
        for (uid, path) in kept where wanted[uid] == nil {
            if let held = known?.held[uid], present[held.name] == held.signature {
                state.held[uid] = held
                report.unchanged += 1
            } else if let block = remade(uid, from: path, sources: sources) {
                wanted[uid] = block
            }
        }
        // What the plan compares: the held files of the blocks to check, and of every block the
        // last run knew (or, without a state, every block file of the projection).
        var held = known == nil ? try self.held(in: files, wanted: wanted) : [:]
        if let known {
            for uid in Set(known.held.keys).union(wanted.keys) where kept[uid] == nil || wanted[uid] != nil {
                let name = known.held[uid]?.name ?? SafeFileName.fileName(forUID: uid)
                if let file = try files.read(name),
                    file.calendar.components.contains(where: { $0["UID"]?.value == uid })
                {
                    held[uid] = file
                }
            }
        }
        let plan = BusyPlan(wanted: wanted, held: held)
        report.made = plan.make.count
        report.changed = plan.change.count
        report.removed = plan.remove.count
        report.unchanged += plan.unchanged
        guard !dryRun else { return report }
        var written: [String: String] = [:]
        for block in plan.make { written[block.uid] = try files.create(block.calendar, uid: block.uid) }
        for block in plan.change {
            try files.replace(block.file, with: block.calendar)
            written[block.calendar.components.first { $0.name == "VEVENT" }?["UID"]?.value ?? ""] = block.file.name
        }
        for file in plan.remove { try files.delete(file) }
        try remember(plan, held: held, wanted: wanted, written: written, in: files, state: &state)
        if remove { try? FileManager.default.removeItem(at: stateURL) } else { state.save(stateURL) }
        return report
    }

    /// The blocks the changed source files make (read and projected), and the blocks of the
    /// unchanged ones (by UID, the file that makes each, not read); each file's signature and
    /// blocks recorded in `state`.
    func gather(
        _ sources: [(pair: Pair, calendar: PairCalendar)], known: BusyState?, into state: inout BusyState,
        unreadable: inout [String]
    ) -> (wanted: [String: Component], kept: [String: String]) {
        var wanted: [String: Component] = [:]
        var kept: [String: String] = [:]
        for source in sources {
            let blocks = BusyBlocks(settings: settings, own: own(source.pair), zone: zone, now: now)
            let directory = VDirectory(url: source.calendar.folder)
            for entry in (try? directory.scan()) ?? [] {
                let path = source.calendar.folder.path + "/" + entry.name
                let signature = "\(entry.signature)"
                if let old = known?.sources[path], old.signature == signature {
                    state.sources[path] = old
                    for uid in old.blocks { kept[uid] = path }
                    continue
                }
                guard let calendar = parsed(directory, entry.name, unreadable: &unreadable) else { continue }
                let made = blocks.blocks(of: calendar)
                wanted.merge(made) { first, _ in first }
                state.sources[path] = BusyState.Source(signature: signature, blocks: made.keys.sorted())
            }
        }
        return (wanted, kept)
    }

    /// Records in `state` each block file as this run leaves it: the ones it wrote, and the
    /// ones it found as wanted.
    func remember(
        _ plan: BusyPlan, held: [String: EventFile], wanted: [String: Component], written: [String: String],
        in files: EventFiles, state: inout BusyState
    ) throws {
        let removed = Set(plan.remove.map(\.name))
        for (uid, file) in held where wanted[uid] != nil && !removed.contains(file.name) && written[uid] == nil {
            state.held[uid] = BusyState.Held(name: file.name, signature: "\(file.signature)")
        }
        for (uid, name) in written {
            if let (_, signature) = try files.directory.read(name) {
                state.held[uid] = BusyState.Held(name: name, signature: "\(signature)")
            }
        }
    }

    /// The block `uid` made again from the source file at `path` (a folder's path and a
    /// name); nil when the file no longer reads or makes it.
    func remade(_ uid: String, from path: String, sources: [(pair: Pair, calendar: PairCalendar)]) -> Component? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let folder = URL(fileURLWithPath: String(path[..<slash]))
        guard let source = sources.first(where: { $0.calendar.folder.path == folder.path }) else { return nil }
        var ignored: [String] = []
        guard
            let calendar = parsed(
                VDirectory(url: folder), String(path[path.index(after: slash)...]), unreadable: &ignored)
        else { return nil }
        return BusyBlocks(settings: settings, own: own(source.pair), zone: zone, now: now).blocks(of: calendar)[uid]
    }

    /// What the state holds for: the settings, the person's addresses on every source pair,
    /// and the day (the horizon moves with it).
    func fingerprint(_ sourcePairs: [Pair]) -> String {
        let addresses = Set(sourcePairs.flatMap { own($0) }).sorted().joined(separator: ",")
        return [
            settings.name, settings.from.joined(separator: ","), settings.to, settings.title,
            settings.skip.map(\.rawValue).sorted().joined(separator: ","),
            settings.hours.map { "\($0.start)-\($0.end)" } ?? "", "\(settings.horizon.back)..\(settings.horizon.ahead)",
            addresses, "\(now / 86_400)", zone.identifier,
        ].joined(separator: "|")
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

    /// The calendar object in the file `name` of `directory`; nil (and the file named in
    /// `unreadable`) when it does not read.
    func parsed(_ directory: VDirectory, _ name: String, unreadable: inout [String]) -> Component? {
        guard let (data, _) = try? directory.read(name) else { return nil }
        guard let calendar = try? ICalendarParser().parse(data).calendar else {
            unreadable.append(directory.path(name))
            return nil
        }
        return calendar
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
