import CalDAV
import Crypto
import Foundation
import VDir

/// Which local folder of an account pair holds which server collection. Kept beside the pair's
/// journals and never re-derived: a calendar renamed on the server keeps its folder, and two
/// collections whose hrefs give the same name keep the names they were given.
public struct CollectionMapping: Codable, Sendable, Equatable {
    /// One folder and the collection it holds.
    public struct Entry: Codable, Sendable, Equatable, Hashable {
        /// The subfolder of the pair's `local` folder.
        public var name: String
        /// The collection's path on the server (ends with `/`).
        public var href: CollectionHref
        /// The folder `name` holding the collection at `href`.
        public init(name: String, href: CollectionHref) {
            self.name = name
            self.href = href
        }
    }

    /// The folders and their collections, one entry each.
    public var entries: [Entry]
    /// The calendar home found by discovery (an absolute URL), so later runs list it with one
    /// PROPFIND Depth 1 instead of discovering it again. Nil until found.
    public var home: String?
    /// The pair's `remote` the home was found from: a different `remote` discovers again.
    public var discoveredFrom: String?
    /// The new folders whose calendar the server refused to make (MKCALENDAR refused while
    /// the href stayed empty): later runs do not ask again for them, and ask for any other
    /// folder (see `CalendarMaking`). Nil until a refusal. (Mappings written before kept one
    /// flag for the whole account, `makesNoCalendars`, concluded from a single answer: it is
    /// no longer read, so each of their folders is asked once more.)
    public var refused: [String]?

    /// A mapping; empty, with no home found, unless given.
    public init(entries: [Entry] = [], home: String? = nil, discoveredFrom: String? = nil) {
        self.entries = entries
        self.home = home
        self.discoveredFrom = discoveredFrom
    }

    /// The kept calendar home, when it was found from `remote`.
    public func home(for remote: URL) -> URL? {
        guard let home, discoveredFrom == remote.absoluteString else { return nil }
        return URL(string: home)
    }

    /// Reads the mapping; a missing file is an empty mapping.
    public static func load(from url: URL) throws -> CollectionMapping {
        guard let data = FileManager.default.contents(atPath: url.path) else { return CollectionMapping() }
        return try JSONDecoder().decode(CollectionMapping.self, from: data)
    }

    /// Writes the mapping atomically.
    public func save(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(Array(try encoder.encode(self)), to: url)
    }
}

/// What an account pair's run does with its collections before syncing their items: the pure
/// decision from the mapping, the calendars the server lists and the folders the vdir holds.
public struct CollectionPlan: Sendable, Equatable {
    /// Collections present on both sides: their items are synced.
    public var sync: [CollectionMapping.Entry] = []
    /// Calendars new on the server: a local folder of this name is made for each.
    public var newLocal: [CollectionMapping.Entry] = []
    /// Folders new in the vdir: a calendar is made on the server for each (MKCALENDAR).
    public var newRemote: [CollectionMapping.Entry] = []
    /// Collections gone from the server while their folder is still here: reported, left alone.
    public var goneRemote: [CollectionMapping.Entry] = []
    /// Folders gone from the vdir while their calendar is still on the server: reported, left alone.
    public var goneLocal: [CollectionMapping.Entry] = []

    /// The mapping after the plan is carried out: every entry that still has a side.
    public var mapping: CollectionMapping {
        CollectionMapping(entries: (sync + newLocal + newRemote + goneRemote + goneLocal).sorted { $0.name < $1.name })
    }

    /// Plans an account pair's collections.
    /// - Parameters:
    ///   - remote: the server's calendar collections (paths ending with `/`).
    ///   - local: the names of the vdir's subfolders.
    ///   - home: the calendar home's path (ends with `/`), where new calendars are made.
    public static func plan(mapping: CollectionMapping, remote: [CollectionHref], local: [String], home: String)
        -> CollectionPlan
    {
        plan(mapping: mapping, named: remote.map { ($0, $0.namingSegment) }, local: local, home: home)
    }

    /// Plans an account pair's collections from calendars that come with the folder name a
    /// first run gives each (`suggested`: an href's last segment, or a calendar's name in
    /// Outlook), made safe and unique here.
    static func plan(
        mapping: CollectionMapping, named remote: [(href: CollectionHref, suggested: String)], local: [String],
        home: String
    ) -> CollectionPlan {
        var plan = CollectionPlan()
        let suggested = Dictionary(remote.map { ($0.href, $0.suggested) }, uniquingKeysWith: { first, _ in first })
        let remote = remote.map(\.href)
        let remoteSet = Set(remote), localSet = Set(local)
        var taken = Set(mapping.entries.map(\.name))
        var mappedHrefs = Set(mapping.entries.map(\.href))
        for entry in mapping.entries {
            switch (remoteSet.contains(entry.href), localSet.contains(entry.name)) {
            case (true, true): plan.sync.append(entry)
            case (false, true): plan.goneRemote.append(entry)
            case (true, false): plan.goneLocal.append(entry)
            case (false, false): taken.remove(entry.name)  // gone on both sides: forgotten
            }
        }
        var unclaimedLocal = localSet.subtracting(mapping.entries.map(\.name))
        for href in remote.sorted() where !mappedHrefs.contains(href) {
            let base = name(forSegment: suggested[href] ?? href.namingSegment)
            if unclaimedLocal.contains(base) {
                // A folder of that name already here (a first run, or a takeover): the same calendar.
                unclaimedLocal.remove(base)
                taken.insert(base)
                plan.sync.append(.init(name: base, href: href))
            } else {
                let unique = uniqueName(base, href: href, taken: taken.union(localSet))
                taken.insert(unique)
                plan.newLocal.append(.init(name: unique, href: href))
            }
            mappedHrefs.insert(href)
        }
        for folder in unclaimedLocal.sorted() {
            var href = CollectionHref(
                home + (SafeFileName.isSafeStem(folder) ? folder : name(forSegment: folder)) + "/")
            var n = 2
            while mappedHrefs.contains(href) || remoteSet.contains(href) {
                href = CollectionHref(home + name(forSegment: folder) + "-\(n)/")
                n += 1
            }
            mappedHrefs.insert(href)
            plan.newRemote.append(.init(name: folder, href: href))
        }
        return plan
    }

    /// Plans an account pair's collections from what the server lists, as every run (and
    /// `calgw init --all-collections`, to name the folders) plans them.
    /// - Parameters:
    ///   - calendars: the paths of the server's calendars that hold items.
    ///   - folders: the names of the vdir's subfolders.
    ///   - home: the calendar home the server named, if it did; else the folder holding the
    ///     calendars (or `remote` itself when it lists none) is where new calendars are made.
    ///   - remote: the URL the pair names (where discovery started).
    public static func plan(
        mapping: CollectionMapping, calendars: [String], folders: [String], home: URL?,
        remote: URL
    ) -> CollectionPlan {
        let homePath =
            home.map { HrefResolver.href(of: $0).path } ?? AccountListing.homePath(remote, calendars: calendars)
        return plan(mapping: mapping, remote: calendars.map { CollectionHref($0) }, local: folders, home: homePath)
    }

    /// Plans an account pair's collections from a directory's listing, as every run plans them.
    /// - Parameters:
    ///   - folders: the names of the vdir's subfolders.
    ///   - remote: the URL the pair names (where discovery started).
    static func plan(mapping: CollectionMapping, listing: DirectoryListing, folders: [String], remote: URL)
        -> CollectionPlan
    {
        let hrefs = listing.calendars.map(\.href.path)
        let homePath =
            listing.home.map { HrefResolver.href(of: $0).path } ?? AccountListing.homePath(remote, calendars: hrefs)
        return plan(
            mapping: mapping, named: listing.calendars.map { ($0.href, $0.suggestedName) }, local: folders,
            home: homePath)
    }

    /// `mapping` with each entry whose calendar the listing no longer shows moved to the one
    /// calendar the listing shows unmapped under the entry's folder name: a provider whose
    /// calendar ids change (Graph, after a calendar is made) then keeps one folder per
    /// calendar, instead of reporting the calendar gone and copying it into a second folder.
    static func followingChangedIDs(_ mapping: CollectionMapping, listing: DirectoryListing) -> CollectionMapping {
        let listed = Set(listing.calendars.map(\.href))
        var mapped = Set(mapping.entries.map(\.href))
        var followed = mapping
        for (index, entry) in mapping.entries.enumerated() where !listed.contains(entry.href) {
            let candidates = listing.calendars.filter {
                !mapped.contains($0.href) && name(forSegment: $0.suggestedName) == entry.name
            }
            guard candidates.count == 1, let calendar = candidates.first else { continue }
            followed.entries[index].href = calendar.href
            mapped.insert(calendar.href)
        }
        return followed
    }

    /// The calendar folders of an account pair's `local`: its visible subfolders (none when it
    /// cannot be read).
    public static func folders(in local: URL) -> [String] {
        (try? AccountLayout.subfolders(of: local)) ?? []
    }

    /// Where an account's new calendars are made: the folder holding its calendars (the
    /// remote URL itself when it lists none yet).
    public static func homePath(_ remote: URL, calendars: [String]) -> String {
        AccountListing.homePath(remote, calendars: calendars)
    }

    /// A folder name from the last segment of a collection's href, in a safe alphabet; from the
    /// one before it in Google's `/caldav/v2/<calendar id>/events/`, where the last is always
    /// `events` (vdirsyncer names Google's calendars so too).
    public static func name(forHref href: CollectionHref) -> String {
        name(forSegment: href.namingSegment)
    }

    /// A name in a safe alphabet for `segment` (a decoded path segment, or a folder's name
    /// that is not one already).
    static func name(forSegment segment: String) -> String {
        SafeFileName.stem(forUID: segment)
    }

    /// `base`, or `base-` and a short hash of the href when the name is taken.
    static func uniqueName(_ base: String, href: CollectionHref, taken: Set<String>) -> String {
        guard taken.contains(base) else { return base }
        let hash = SHA256.hash(data: Data(href.path.utf8)).prefix(3).map { String(format: "%02x", $0) }.joined()
        var candidate = "\(base)-\(hash)"
        var n = 2
        while taken.contains(candidate) { candidate = "\(base)-\(hash)\(n)"; n += 1 }
        return candidate
    }
}
