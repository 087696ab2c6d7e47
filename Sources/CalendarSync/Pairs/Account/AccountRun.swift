import CalDAV
import Failures
import Foundation
import VDir

/// One run of an account pair (`collections = "all"` or a list), whatever the provider: every
/// calendar of the account is a subfolder of `local`, synced with its own journal beside the
/// pair's, under one lock. What differs between providers (how calendars are listed, made,
/// deleted, and stored) is the pair's ``CalendarDirectory``; everything else is here.
///
/// Collections are matched through a mapping kept with the journals (`collections.json`): a
/// new calendar gets a new folder (with its `displayname` and `color` files), a new folder gets
/// a new calendar, and a calendar gone from one side is reported and left alone on the other,
/// unless `--allow-collection-delete`.
///
/// A CalDAV run asks the server one PROPFIND Depth 1 of the calendar home (kept in the mapping
/// after the first discovery) for every calendar's ctag and sync-token; a calendar whose token
/// its journal already holds costs no further request.
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

    /// Runs the account. A calendar whose sync was refused for safety (a mass deletion), or
    /// failed, while the others synced is an error of its report (of kind `.refusedForSafety`
    /// for the former), named by its folder.
    func run() async throws -> PairRun.Outcome {
        guard let directory = try pair.directory() else {
            throw SyncError(
                .unknownCollection,
                "pair \(pair.name) syncs collections, which needs an account on a server (\(ProviderNames.all.joined(separator: ", "))), "
                    + "not \(pair.remote.url.absoluteString)",
                recovery: "remove `collections` from the pair, or give an http(s):// remote")
        }
        // A dry run (and `status`) makes no folder and no file, not even its lock's.
        if !dryRun { try FolderCreation.make(stateFolder, permissions: 0o700, what: "the account's state folder") }
        let lock =
            dryRun
            ? try PairLock.forReading(journal: layout.lockFile, timeout: 5)
            : try PairLock(journal: layout.lockFile, timeout: 5)
        defer { withExtendedLifetime(lock) {} }
        var mapping = try CollectionMapping.load(from: layout.mappingFile)
        let listing = try await directory.listing(mapping: mapping)
        if directory.calendarIDsMayChange { mapping = CollectionPlan.followingChangedIDs(mapping, listing: listing) }
        if !dryRun { try FolderCreation.make(layout.root, what: "the folder of the account's calendars") }
        let folders =
            FileManager.default.fileExists(atPath: layout.root.path)
            ? try AccountLayout.subfolders(of: layout.root) : []
        var plan = CollectionPlan.plan(mapping: mapping, listing: listing, folders: folders, remote: pair.remote.url)
        // A list of collections narrows what is made and synced; the mapping keeps the rest.
        plan.newLocal = plan.newLocal.filter { wanted($0.name) }
        plan.newRemote = plan.newRemote.filter { wanted($0.name) }

        var report = SyncReport()
        report.dryRun = dryRun
        var parts: [String: SyncReport] = [:]
        let removed = try await handleGone(
            plan, directory: directory, listing: listing, report: &report, parts: &parts)
        var entries = plan.sync
        entries += try copyNewCalendars(plan.newLocal, listing: listing, directory: directory, report: &report)
        let made = try await makeCalendars(plan.newRemote, directory: directory, mapping: mapping, report: &report)
        entries += made.entries
        if !dryRun {
            try save(
                plan, mapping: mapping, listing: listing, entries: entries, removed: removed, refused: made.refused)
        }
        let jobs = entries.sorted(by: { $0.name < $1.name }).filter { wanted($0.name) }.map { entry in
            CalendarJob(
                name: entry.name, journal: journalURL(entry.name), local: layout.folder(entry.name), href: entry.href,
                listed: listing.calendars.first { $0.href == entry.href }, unmade: made.unmade.contains(entry.name))
        }
        let progress = dryRun ? nil : run.options.progress?(jobs.count == 1 ? jobs[0].name : "\(jobs.count) calendars")
        let outcomes = try await syncConcurrently(jobs, directory: directory, progress: progress)
        for job in jobs {
            guard let part = outcomes[job.name]?.report else { continue }
            report.add(part, collection: job.name)
            parts[job.name] = part
        }
        if let only, !entries.contains(where: { $0.name == only }), parts[only] == nil {
            throw SyncError(
                .unknownCollection, "pair \(pair.name) has no collection \(only)",
                recovery: "its collections: \(entries.map(\.name).sorted().joined(separator: ", "))")
        }
        report.collections = parts
        return PairRun.Outcome(report: report)
    }

    /// Writes the mapping after the run's changes to the collections: every entry that still
    /// has a side, the calendar home the listing found, and the folders refused a calendar.
    private func save(
        _ plan: CollectionPlan, mapping old: CollectionMapping, listing: DirectoryListing,
        entries: [CollectionMapping.Entry], removed: Set<CollectionMapping.Entry>, refused: Set<String>
    ) throws {
        var kept = plan
        kept.newLocal = plan.newLocal.filter { entries.contains($0) }
        // A calendar made where the provider chose (Graph) is kept at its own href.
        kept.newRemote = entries.filter { entry in plan.newRemote.contains { $0.name == entry.name } }
        kept.goneRemote = plan.goneRemote.filter { !removed.contains($0) }
        kept.goneLocal = plan.goneLocal.filter { !removed.contains($0) }
        var mapping = kept.mapping
        let remote = pair.remote.url
        mapping.home = listing.home?.absoluteString ?? old.home(for: remote)?.absoluteString
        mapping.discoveredFrom = mapping.home == nil ? nil : remote.absoluteString
        // A refused folder that is gone, or whose calendar came since, is forgotten.
        let stillNew = Set(plan.newRemote.map(\.name)).subtracting(entries.map(\.name))
        let stillRefused = refused.intersection(stillNew).sorted()
        mapping.refused = stillRefused.isEmpty ? nil : stillRefused
        try mapping.save(to: layout.mappingFile)
        try effects.happened()
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
        deletionScheduling.merge(part.deletionScheduling) { _, new in new }
        settledActions.formUnion(part.settledActions)
        if let more = part.items { items = (items ?? []) + more }
        if let more = part.broken { broken = (broken ?? []) + more }
        if let more = part.duplicates { duplicates = (duplicates ?? []) + more }
    }
}
