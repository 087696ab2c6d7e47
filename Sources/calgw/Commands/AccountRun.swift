import CalDAV
import CalendarSync
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
    var pair: PairConfiguration
    var policy: SyncPolicy
    var dryRun: Bool
    /// `--collection`: only this folder.
    var only: String?
    /// `--allow-collection-delete`: a calendar gone from one side is deleted on the other.
    var allowCollectionDelete = false
    /// Makes the progress bar of one calendar's transfer (nil: none), given the folder's name.
    var progressBar: ((String) -> ProgressBar?)? = nil

    /// Where the account's journals and mapping live: `<journal>.d/`.
    var stateFolder: URL {
        pair.journal.deletingPathExtension().appendingPathExtension("d")
    }

    var mappingFile: URL { stateFolder.appendingPathComponent("collections.json") }

    func journalURL(_ name: String) -> URL { stateFolder.appendingPathComponent("\(name).sqlite") }

    /// Whether the pair's `collections` list (and `--collection`) take in this folder.
    func wanted(_ name: String) -> Bool {
        if let only, only != name { return false }
        switch pair.collections {
        case .named(let names): return names.contains(name)
        default: return true
        }
    }

    func run() async throws -> SyncReport {
        try await runReportingRefusals().report
    }

    /// Runs the account; `refused` names the calendars whose sync was refused for safety (a
    /// mass deletion), while the others synced (exit 4 when nothing else failed).
    func runReportingRefusals() async throws -> (report: SyncReport, refused: [String]) {
        try FileManager.default.createDirectory(at: stateFolder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let lock = try PairLock(journal: stateFolder.appendingPathComponent("account"), timeout: 5)
        defer { withExtendedLifetime(lock) {} }
        let client = try StorageFactory.client(for: pair)
        var mapping = try CollectionMapping.load(from: mappingFile)
        let listing = try await AccountListing.read(client: client, remote: pair.remote, mapping: mapping)
        let calendars = listing.calendars
        try FileManager.default.createDirectory(at: pair.local, withIntermediateDirectories: true)
        let folders = try Self.subfolders(of: pair.local)
        let homePath = listing.home.map { HrefResolver.href(of: $0).path } ?? AccountListing.homePath(pair.remote, calendars: calendars.map(\.href.path))
        var plan = CollectionPlan.plan(mapping: mapping, remote: calendars.map(\.href.path), local: folders, home: homePath)
        // A list of collections narrows what is made and synced; the mapping keeps the rest.
        plan.newLocal = plan.newLocal.filter { wanted($0.name) }
        plan.newRemote = plan.newRemote.filter { wanted($0.name) }

        var report = SyncReport()
        report.dryRun = dryRun
        var parts: [String: SyncReport] = [:]
        var refused: [String] = []
        let origin = AccountListing.origin(pair.remote)
        let removed = try await handleGone(plan, client: client, origin: origin, report: &report, parts: &parts)
        var entries = plan.sync
        if !dryRun {
            if policy.direction.writes(.local) {
                for entry in plan.newLocal {
                    let folder = VDirectory(url: pair.local.appendingPathComponent(entry.name, isDirectory: true))
                    try folder.createIfMissing()
                    let info = calendars.first { $0.href.path == entry.href }
                    try folder.setMetadata(.displayName, info?.displayName)
                    try folder.setMetadata(.color, info?.color)
                    entries.append(entry)
                }
            }
            if policy.direction.writes(.remote) {
                for entry in plan.newRemote {
                    let folder = VDirectory(url: pair.local.appendingPathComponent(entry.name, isDirectory: true))
                    guard let url = URL(string: entry.href, relativeTo: origin)?.absoluteURL else { continue }
                    try await client.makeCalendar(url, displayName: folder.metadata(.displayName) ?? entry.name,
                                                  color: folder.metadata(.color))
                    entries.append(entry)
                }
            }
            var kept = plan
            kept.newLocal = plan.newLocal.filter { entries.contains($0) }
            kept.newRemote = plan.newRemote.filter { entries.contains($0) }
            kept.goneRemote = plan.goneRemote.filter { !removed.contains($0) }
            kept.goneLocal = plan.goneLocal.filter { !removed.contains($0) }
            let home = mapping.home(for: pair.remote)?.absoluteString
            mapping = kept.mapping
            mapping.home = listing.home?.absoluteString ?? home
            mapping.discoveredFrom = mapping.home == nil ? nil : pair.remote.absoluteString
            try mapping.save(to: mappingFile)
        }
        let jobs = entries.sorted(by: { $0.name < $1.name }).filter { wanted($0.name) }.compactMap { entry -> CalendarJob? in
            guard let url = URL(string: entry.href, relativeTo: origin)?.absoluteURL else { return nil }
            return CalendarJob(name: entry.name, journal: journalURL(entry.name),
                               local: pair.local.appendingPathComponent(entry.name, isDirectory: true), remote: url,
                               info: calendars.first { $0.href.path == entry.href })
        }
        let bar = dryRun ? nil : progressBar?(jobs.count == 1 ? jobs[0].name : "\(jobs.count) calendars")
        defer { bar?.finish() }
        let outcomes = try await Self.syncConcurrently(jobs, client: client, policy: policy, dryRun: dryRun, progress: bar?.handler)
        for job in jobs {
            switch outcomes[job.name] {
            case .synced(let part):
                report.add(part, collection: job.name)
                parts[job.name] = part
            case .refused(let message):
                report.errors.append("\(job.name): \(message)")
                var failed = SyncReport()
                failed.errors = [message]
                parts[job.name] = failed
                refused.append(job.name)
            case nil: break
            }
        }
        if let only, !entries.contains(where: { $0.name == only }), parts[only] == nil {
            throw CLIError("pair \(pair.name) has no collection \(only)",
                           hint: "its collections: \(entries.map(\.name).sorted().joined(separator: ", "))", status: .usage)
        }
        report.collections = parts
        return (report, refused)
    }

    /// The visible subfolders of `folder`.
    static func subfolders(of folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { name in
            var isDirectory: ObjCBool = false
            return !name.hasPrefix(".")
                && FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }
    }
}

extension SyncReport {
    /// Adds one collection's report, its lines marked with the collection's name.
    mutating func add(_ part: SyncReport, collection: String) {
        created.local += part.created.local; created.remote += part.created.remote
        updated.local += part.updated.local; updated.remote += part.updated.remote
        deleted.local += part.deleted.local; deleted.remote += part.deleted.remote
        pending.local += part.pending.local; pending.remote += part.pending.remote
        conflicts += part.conflicts
        errors += part.errors.map { "\(collection): \($0)" }
        for (line, cause) in part.errorCauses {
            var marked = cause
            marked.item = "\(collection)/\(cause.item)"
            errorCauses["\(collection): \(line)"] = marked
        }
        skipped += part.skipped.map { "\(collection): \($0)" }
    }
}
