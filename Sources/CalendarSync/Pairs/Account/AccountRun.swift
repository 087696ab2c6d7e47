import CalDAV
import Foundation
import VDir

/// One run of an account pair (`collections = "all"` or a list): every calendar of the account
/// is a subfolder of `local`, synced with its own journal beside the pair's, under one lock.
///
/// Collections are matched through a mapping kept with the journals (`collections.json`): a
/// new calendar on the server gets a new folder (with its `displayname` and `color` files), a
/// new folder gets a new calendar (MKCALENDAR), and a calendar gone from one side is reported
/// and left alone on the other, unless `--allow-collection-delete`.
///
/// A run asks the server one PROPFIND Depth 1 of the calendar home (kept in the mapping after
/// the first discovery) for every calendar's ctag and sync-token; a calendar whose token its
/// journal already holds costs no further request.
struct AccountRun {
    var run: PairRun

    var pair: Pair { run.pair }
    var policy: SyncPolicy { run.policy }
    var dryRun: Bool { run.options.dryRun }
    /// `--collection`: only this folder.
    var only: String? { run.options.collection }
    var allowCollectionDelete: Bool { run.options.allowCollectionDelete }
    var layout: AccountLayout
    var stateFolder: URL { layout.stateFolder }
    /// The account's own side effects (a folder or calendar made or removed, the mapping
    /// saved), each a step a kill may end the run after (docs/architecture.md).
    let effects: SideEffects

    /// - Throws: `SyncError` with code `.unsupported` when the pair's local side is a server.
    init(run: PairRun) throws {
        self.run = run
        layout = AccountLayout(pair: run.pair, root: try run.pair.localFolder(for: "a pair with collections"))
        effects = SideEffects(run.options.faultHook)
    }

    func journalURL(_ name: String) -> URL { layout.journal(name) }

    /// Whether the pair's `collections` list (and `--collection`) take in this folder.
    func wanted(_ name: String) -> Bool {
        if let only, only != name { return false }
        return layout.listed(name)
    }

    /// Runs the account; a calendar whose sync was refused for safety (a mass deletion) while
    /// the others synced is an error of its report, of kind `.refusedForSafety`.
    func run() async throws -> PairRun.Outcome {
        guard case .caldav(let remoteURL, let server) = pair.remote else {
            throw SyncError(
                .unknownCollection,
                "pair \(pair.name) syncs collections, which needs a CalDAV remote, not \(pair.remote.url.absoluteString)",
                recovery: "remove `collections` from the pair, or give an http(s):// remote")
        }
        // A dry run (and `status`) makes no folder and no file, not even its lock's.
        if !dryRun { try FolderCreation.make(stateFolder, permissions: 0o700, what: "the account's state folder") }
        let lock =
            dryRun
            ? try PairLock.forReading(journal: layout.lockFile, timeout: 5)
            : try PairLock(journal: layout.lockFile, timeout: 5)
        defer { withExtendedLifetime(lock) {} }
        let client = try server.client(owner: "pair \(pair.name)")
        var mapping = try CollectionMapping.load(from: layout.mappingFile)
        let listing = try await AccountListing.read(client: client, remote: remoteURL, mapping: mapping)
        let calendars = listing.calendars
        if !dryRun { try FolderCreation.make(layout.root, what: "the folder of the account's calendars") }
        let folders =
            FileManager.default.fileExists(atPath: layout.root.path)
            ? try AccountLayout.subfolders(of: layout.root) : []
        var plan = CollectionPlan.plan(
            mapping: mapping, calendars: calendars.map(\.href.path), folders: folders, home: listing.home,
            remote: remoteURL)
        // A list of collections narrows what is made and synced; the mapping keeps the rest.
        plan.newLocal = plan.newLocal.filter { wanted($0.name) }
        plan.newRemote = plan.newRemote.filter { wanted($0.name) }

        var report = SyncReport()
        report.dryRun = dryRun
        var parts: [String: SyncReport] = [:]
        let origin = AccountListing.origin(remoteURL)
        let removed = try await handleGone(plan, client: client, origin: origin, report: &report, parts: &parts)
        var entries = plan.sync
        // Calendars a dry run would make: previewed against an empty calendar, made by nobody.
        var unmade: Set<String> = []
        if policy.direction.writes(.local) {
            for entry in plan.newLocal {
                if !dryRun {
                    let folder = VDirectory(url: layout.folder(entry.name))
                    try folder.createIfMissing()
                    let info = calendars.first { $0.href.path == entry.href.path }
                    try folder.setMetadata(.displayName, info?.displayName)
                    try folder.setMetadata(.color, info?.color)
                    try effects.happened()
                }
                report.notes.append(
                    "new calendar \(entry.href) on the server: "
                        + (dryRun
                            ? "would be copied into a new folder \(entry.name)/"
                            : "copied into a new folder \(entry.name)/"))
                entries.append(entry)
            }
        }
        // Google makes no calendars over CalDAV: it is never asked; nor is a server that refused before.
        let google = CalendarMaking.isGoogle(remoteURL)
        var makesNoCalendars = google || mapping.makesNoCalendars == true
        if policy.direction.writes(.remote) {
            for entry in plan.newRemote {
                guard let url = URL(string: entry.href.path, relativeTo: origin)?.absoluteURL else { continue }
                if makesNoCalendars {
                    report.notes.append(CalendarMaking.note(folder: entry.name, google: google, refusal: nil))
                    continue
                }
                if dryRun {
                    unmade.insert(entry.name)
                } else {
                    let folder = VDirectory(url: layout.folder(entry.name))
                    do {
                        try await client.makeCalendar(
                            url, displayName: folder.metadata(.displayName) ?? entry.name,
                            color: folder.metadata(.color))
                    } catch let error where CalendarMaking.isRefusal(error) {
                        makesNoCalendars = true
                        report.notes.append(CalendarMaking.note(folder: entry.name, google: google, refusal: error))
                        continue
                    }
                    try effects.happened()
                }
                report.notes.append(
                    "new folder \(entry.name)/: "
                        + (dryRun
                            ? "a calendar would be made for it on the server (\(entry.href))"
                            : "made the calendar \(entry.href) for it on the server"))
                entries.append(entry)
            }
        }
        if !dryRun {
            var kept = plan
            kept.newLocal = plan.newLocal.filter { entries.contains($0) }
            kept.newRemote = plan.newRemote.filter { entries.contains($0) }
            kept.goneRemote = plan.goneRemote.filter { !removed.contains($0) }
            kept.goneLocal = plan.goneLocal.filter { !removed.contains($0) }
            let home = mapping.home(for: remoteURL)?.absoluteString
            let refusedBefore = mapping.makesNoCalendars
            mapping = kept.mapping
            mapping.makesNoCalendars = makesNoCalendars && !google ? true : refusedBefore
            mapping.home = listing.home?.absoluteString ?? home
            mapping.discoveredFrom = mapping.home == nil ? nil : remoteURL.absoluteString
            try mapping.save(to: layout.mappingFile)
            try effects.happened()
        }
        let jobs = entries.sorted(by: { $0.name < $1.name }).filter { wanted($0.name) }.compactMap {
            entry -> CalendarJob? in
            guard let url = URL(string: entry.href.path, relativeTo: origin)?.absoluteURL else { return nil }
            return CalendarJob(
                name: entry.name, journal: journalURL(entry.name),
                local: layout.folder(entry.name), remote: url,
                info: calendars.first { $0.href.path == entry.href.path }, unmade: unmade.contains(entry.name))
        }
        let progress = dryRun ? nil : run.options.progress?(jobs.count == 1 ? jobs[0].name : "\(jobs.count) calendars")
        let outcomes = try await Self.syncConcurrently(
            jobs, client: client, policy: policy, dryRun: dryRun,
            faultHook: run.options.faultHook, progress: progress,
            stop: run.options.stop)
        for job in jobs {
            switch outcomes[job.name] {
            case .synced(let part):
                report.add(part, collection: job.name)
                parts[job.name] = part
            case .refused(let message):
                let refusal = ReportedError(message, kind: .refusedForSafety)
                report.errors.append(refusal.marked(collection: job.name))
                var failed = SyncReport()
                failed.errors = [refusal]
                parts[job.name] = failed
            case .stopped, nil: break
            }
        }
        if let only, !entries.contains(where: { $0.name == only }), parts[only] == nil {
            throw SyncError(
                .unknownCollection, "pair \(pair.name) has no collection \(only)",
                recovery: "its collections: \(entries.map(\.name).sorted().joined(separator: ", "))")
        }
        report.collections = parts
        return PairRun.Outcome(report: report)
    }
}

extension SyncReport {
    /// Adds one collection's report, its lines (errors, skips, notes) marked with the
    /// collection's name.
    mutating func add(_ part: SyncReport, collection: String) {
        created.local += part.created.local; created.remote += part.created.remote
        updated.local += part.updated.local; updated.remote += part.updated.remote
        deleted.local += part.deleted.local; deleted.remote += part.deleted.remote
        pending.local += part.pending.local; pending.remote += part.pending.remote
        conflicts += part.conflicts
        errors += part.errors.map { $0.marked(collection: collection) }
        skipped += part.skipped.map { "\(collection): \($0)" }
        notes += part.notes.map { "\(collection): \($0)" }
        unsentAnswers += part.unsentAnswers
        heldBack.merge(part.heldBack) { _, new in new }
        settledActions.formUnion(part.settledActions)
        if let more = part.items { items = (items ?? []) + more }
        if let more = part.broken { broken = (broken ?? []) + more }
        if let more = part.duplicates { duplicates = (duplicates ?? []) + more }
    }
}
