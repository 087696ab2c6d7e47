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
/// and left alone on the other.
struct AccountRun {
    var pair: PairConfiguration
    var policy: SyncPolicy
    var dryRun: Bool
    /// `--collection`: only this folder.
    var only: String?

    /// Where the account's journals and mapping live: `<journal>.d/`.
    var stateFolder: URL {
        pair.journal.deletingPathExtension().appendingPathExtension("d")
    }

    func run() async throws -> SyncReport {
        try FileManager.default.createDirectory(at: stateFolder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let lock = try PairLock(journal: stateFolder.appendingPathComponent("account"), timeout: 5)
        defer { _ = lock }
        let client = try StorageFactory.client(for: pair)
        let calendars = try await client.discover(pair.remote).filter {
            $0.components.isEmpty || $0.components.contains("VEVENT") || $0.components.contains("VTODO")
        }
        let wanted: (String) -> Bool = { name in
            switch pair.collections {
            case .named(let names): names.contains(name)
            default: true
            }
        }
        let home = Self.homePath(pair.remote, calendars: calendars.map(\.href.path))
        let mappingFile = stateFolder.appendingPathComponent("collections.json")
        let mapping = try CollectionMapping.load(from: mappingFile)
        try FileManager.default.createDirectory(at: pair.local, withIntermediateDirectories: true)
        let folders = try FileManager.default.contentsOfDirectory(atPath: pair.local.path).filter { name in
            var isDirectory: ObjCBool = false
            return !name.hasPrefix(".") && FileManager.default.fileExists(atPath: pair.local.appendingPathComponent(name).path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }
        var plan = CollectionPlan.plan(mapping: mapping, remote: calendars.map(\.href.path), local: folders, home: home)
        // A list of collections narrows what is made and synced; the mapping keeps the rest.
        plan.newLocal = plan.newLocal.filter { wanted(CollectionPlan.name(forHref: $0.href)) }
        plan.newRemote = plan.newRemote.filter { wanted($0.name) }

        var report = SyncReport()
        report.dryRun = dryRun
        for gone in plan.goneRemote {
            report.skipped.append("calendar \(gone.href) is gone from the server; its folder \(gone.name)/ is left as it is")
        }
        for gone in plan.goneLocal {
            report.skipped.append("folder \(gone.name)/ is gone from the vdir; the calendar \(gone.href) on the server is left as it is")
        }
        let origin = Self.origin(pair.remote)
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
            try kept.mapping.save(to: mappingFile)
        }
        for entry in entries.sorted(by: { $0.name < $1.name }) where (only == nil || only == entry.name) && wanted(entry.name) {
            guard let url = URL(string: entry.href, relativeTo: origin)?.absoluteURL else { continue }
            let part: SyncReport
            do {
                part = try await SyncSession.run(
                    journalAt: stateFolder.appendingPathComponent("\(entry.name).sqlite"),
                    local: VDirStorage(url: pair.local.appendingPathComponent(entry.name, isDirectory: true)),
                    remote: CalDAVStorage(client: client, collection: url), policy: policy, dryRun: dryRun,
                    prompt: nil, faultHook: TestFaultHook.fromEnvironment())
            } catch let error as SyncError where error.code == .massDeletion {
                report.errors.append("\(entry.name): \(error.message)")
                continue
            }
            report.add(part, collection: entry.name)
        }
        if let only, !entries.contains(where: { $0.name == only }) {
            throw CLIError("pair \(pair.name) has no collection \(only)",
                           hint: "its collections: \(entries.map(\.name).sorted().joined(separator: ", "))", status: .usage)
        }
        return report
    }

    /// The calendar home's path: the folder holding the calendars (the remote URL itself when
    /// it lists none yet).
    static func homePath(_ remote: URL, calendars: [String]) -> String {
        let parents = Set(calendars.map { path -> String in
            let parent = path.split(separator: "/").dropLast().joined(separator: "/")
            return parent.isEmpty ? "/" : "/" + parent + "/"
        })
        if parents.count == 1, let only = parents.first { return only }
        return remote.path.hasSuffix("/") ? remote.path : remote.path + "/"
    }

    static func origin(_ url: URL) -> URL {
        var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) ?? URLComponents()
        parts.path = "/"
        parts.query = nil
        return parts.url ?? url
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
        skipped += part.skipped.map { "\(collection): \($0)" }
    }
}
