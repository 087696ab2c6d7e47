import CalDAV
import Foundation
import Graph
import VDir

/// One run of an account pair over a Microsoft Graph mailbox (`collections = "all"` with
/// `remote = "…/v1.0/me/"`): every calendar of the mailbox is a subfolder of `local`, named
/// after the calendar, synced with its own journal, under the account's lock.
///
/// Calendars and folders are matched through the account's mapping (`collections.json`, by
/// calendar id): a calendar new in Outlook gets a folder (with its name and colour), a folder
/// new in the vdir gets a calendar of its name (`POST …/calendars`); a folder not yet mapped
/// whose name is a calendar's is that calendar's. A calendar gone from one side is reported
/// and left alone on the other, or with `--allow-collection-delete` deleted there too
/// (``GraphAccountRun+Gone``). The calendars sync one after another: Graph takes few
/// requests at once from one mailbox.
struct GraphAccountRun {
    var run: PairRun
    var layout: AccountLayout
    let effects: SideEffects

    var pair: Pair { run.pair }
    var dryRun: Bool { run.options.dryRun }

    init(run: PairRun) throws {
        self.run = run
        layout = AccountLayout(pair: run.pair, root: try run.pair.localFolder(for: "a pair with collections"))
        effects = SideEffects(run.options.faultHook)
    }

    func run() async throws -> PairRun.Outcome {
        guard case .graph(let remoteURL, let server) = pair.remote else { return PairRun.Outcome(report: SyncReport()) }
        if !dryRun {
            try FolderCreation.make(layout.stateFolder, permissions: 0o700, what: "the account's state folder")
        }
        let lock =
            dryRun
            ? try PairLock.forReading(journal: layout.lockFile, timeout: 5)
            : try PairLock(journal: layout.lockFile, timeout: 5)
        defer { withExtendedLifetime(lock) {} }
        let http = try server.client(owner: "pair \(pair.name)").http
        let calendars = try await CalendarServer.graphCalendars(http: http, remoteURL)
        var mapping = try CollectionMapping.load(from: layout.mappingFile)
        if !dryRun { try FolderCreation.make(layout.root, what: "the folder of the account's calendars") }
        let folders =
            FileManager.default.fileExists(atPath: layout.root.path)
            ? try AccountLayout.subfolders(of: layout.root) : []

        var report = SyncReport()
        report.dryRun = dryRun
        var entries: [CollectionMapping.Entry] = []
        var mapped = Dictionary(mapping.entries.map { ($0.href.path, $0) }, uniquingKeysWith: { a, _ in a })
        var taken = Set(folders).union(mapping.entries.map(\.name))
        // Folders whose calendar is not synced this run (the folder is gone), and folders removed.
        var held: Set<String> = []
        var removed: Set<String> = []
        let unmappedFolders = Set(folders).subtracting(mapping.entries.map(\.name))
        for calendar in calendars {
            let href = CollectionHref(calendar.url.path + "/")
            if let entry = mapped.removeValue(forKey: href.path) {
                if folders.contains(entry.name) {
                    entries.append(entry)
                } else if !(try await deleteCalendar(of: entry, at: calendar, http: http, report: &report)) {
                    entries.append(entry)  // kept in the mapping, not synced: its folder is gone
                    held.insert(entry.name)
                }
                continue
            }
            let name = CollectionPlan.name(forSegment: calendar.displayName ?? calendar.url.lastPathComponent)
            if unmappedFolders.contains(name) {
                entries.append(CollectionMapping.Entry(name: name, href: href))
                continue
            }
            let folder = CollectionPlan.uniqueName(name, href: href, taken: taken)
            taken.insert(folder)
            if !dryRun {
                let directory = VDirectory(url: layout.folder(folder))
                try directory.createIfMissing()
                try directory.setMetadata(.displayName, calendar.displayName)
                try directory.setMetadata(.color, calendar.color)
                try effects.happened()
            }
            report.notes.append(
                "new calendar \(calendar.displayName ?? folder) in Outlook: "
                    + (dryRun ? "would be copied into a new folder \(folder)/" : "copied into a new folder \(folder)/"))
            entries.append(CollectionMapping.Entry(name: folder, href: href))
        }
        for gone in mapped.values.sorted(by: { $0.name < $1.name }) where folders.contains(gone.name) {
            if try removeFolder(of: gone, report: &report) { removed.insert(gone.name) } else { entries.append(gone) }
        }
        var live = Set(calendars.map { $0.url.path + "/" })
        let mappedNames = Set(entries.map(\.name))
        for folder in folders.sorted()
        where !mappedNames.contains(folder) && !removed.contains(folder) && run.policy.direction.writes(.remote) {
            let directory = VDirectory(url: layout.folder(folder))
            let name = directory.metadata(.displayName) ?? folder
            if dryRun {
                report.notes.append("new folder \(folder)/: a calendar \(name) would be made for it in Outlook")
                continue
            }
            let made = try await GraphStorage.makeCalendar(http: http, mailbox: remoteURL, name: name)
            try effects.happened()
            report.notes.append("new folder \(folder)/: made the calendar \(name) for it in Outlook")
            entries.append(CollectionMapping.Entry(name: folder, href: CollectionHref(made.path + "/")))
            live.insert(made.path + "/")
        }
        if !dryRun {
            mapping.entries = entries.sorted { $0.name < $1.name }
            try mapping.save(to: layout.mappingFile)
            try effects.happened()
        }

        let origin = URL(string: "/", relativeTo: remoteURL)!.absoluteURL
        var parts: [String: SyncReport] = [:]
        for entry in entries.sorted(by: { $0.name < $1.name })
        where live.contains(entry.href.path) && layout.listed(entry.name) && !held.contains(entry.name)
            && (run.options.collection == nil || run.options.collection == entry.name)
        {
            let path = String(entry.href.path.dropLast())
            guard let url = URL(string: path, relativeTo: origin)?.absoluteURL else { continue }
            let remote = try GraphStorage(http: http, calendar: url, window: pair.window)
            do {
                let part = try await SyncSession.run(
                    journalAt: layout.journal(entry.name), local: VDirStorage(url: layout.folder(entry.name)),
                    remote: remote, policy: run.policy, dryRun: dryRun, prompt: nil,
                    faultHook: run.options.faultHook, stop: run.options.stop)
                report.add(part, collection: entry.name)
                parts[entry.name] = part
            } catch let error as SyncError where error.code == .massDeletion {
                let refusal = ReportedError(error.message, kind: .refusedForSafety)
                report.errors.append(refusal.marked(collection: entry.name))
            }
        }
        if let only = run.options.collection, parts[only] == nil {
            throw SyncError(
                .unknownCollection, "pair \(pair.name) has no collection \(only)",
                recovery: "its collections: \(entries.map(\.name).sorted().joined(separator: ", "))")
        }
        report.collections = parts
        return PairRun.Outcome(report: report)
    }
}
