import CalDAV
import Foundation
import Graph
import HTTP
import ICalendar
import Logging
import Synchronization

/// One Outlook calendar through Microsoft Graph, as a storage: each item is a single event or
/// a whole series (its master, exceptions and cancelled occurrences as one iCalendar object),
/// addressed by the Graph id of the event or master and versioned by its change key.
///
/// Graph lists a calendar only over a window (``GraphWindow``), through rounds of
/// `calendarView/delta`; the change token carries the round's link (``GraphListingState``).
/// A first sync reads the events a page at a time (``fetchAll(batchSize:into:)``). An update
/// compares the event's change key just before it, sends it as `If-Match` too, and carries
/// only the fields that changed (``GraphChangedProperties``). A copy of a meeting is never
/// written: Graph mails the attendees of every meeting it creates or moves, and offers no way
/// not to; the person's own actions are written.
///
/// ```swift
/// let calendar = URL(string: "https://graph.microsoft.com/v1.0/me/calendars/AAMk…")!
/// let storage = try GraphStorage(http: client, calendar: calendar)
/// let changes = try await storage.changes(since: nil)
/// ```
public final class GraphStorage: CalendarStorage, @unchecked Sendable {
    let client: GraphClient
    /// `…/me/calendars/{id}`.
    public let calendar: URL
    let window: GraphWindow
    let logger: Logger
    /// Whether the account may write to the calendar (its `canEdit`), once read.
    let access = Mutex<Bool?>(nil)
    /// The token the last listing gave (see ``token(forListing:)``).
    let listed = Mutex<ChangeToken?>(nil)
    /// Series Outlook kept otherwise than written, for the run to bring the vdir to.
    let rewritten = RewrittenVersions()
    /// What the writes have to tell the person.
    let notes = StorageNotes()

    /// Events per delta page asked for (`Prefer: odata.maxpagesize`): Outlook's most, so that a
    /// first round of 10,000 events and their occurrences takes about twenty pages.
    var pageSize = 1000
    /// Events per page of a first sync's listing (`$top`; Outlook gives at most 1,000).
    var listPageSize = 1000
    /// How far a delta round may go (see ``round(from:)``).
    var bounds = RoundBounds()

    /// The calendar at `calendar` (`…/v1.0/me/calendars/{id}`), reached with `http`, synced
    /// over `window` (`-365d..+730d`; nil: that default).
    /// - Throws: ``GraphError`` when `calendar` is not a calendar's address.
    public init(http: HTTPClient, calendar: URL, window: String? = nil, logger: Logger = Logger(label: "calgw.graph"))
        throws
    {
        guard let mailbox = GraphClient.mailbox(of: calendar) else {
            throw GraphError(
                .unreadableAnswer, "\(calendar.absoluteString) is not a Graph calendar's address",
                recovery: "use …/v1.0/me/calendars/{id}: calgw discover lists them")
        }
        client = GraphClient(http: http, mailbox: mailbox, calendar: calendar)
        self.calendar = calendar
        self.window = GraphWindow(window)
        self.logger = logger
    }

    public var capabilities: StorageCapabilities {
        let writable = access.withLock { $0 }
        return StorageCapabilities(
            bulkFetching: self, streamingFetching: self, listingToken: self, windowedListing: self, serverNamed: self,
            rewriting: self, noting: self,
            isReadOnly: writable == false,
            knowsWriteAccess: writable != nil)
    }

    // MARK: Listing

    public func changes(since token: ChangeToken?) async throws -> StorageChanges {
        let changes = try await listing(since: token)
        switch changes {
        case .unchanged(let next), .full(_, token: let next?), .delta(_, _, token: let next?):
            listed.withLock { $0 = next }
        default: break
        }
        return changes
    }

    private func listing(since token: ChangeToken?) async throws -> StorageChanges {
        let state = token.flatMap(GraphListingState.init)
        if let state, state.window == window.key {
            do {
                return try await nextRound(after: state)
            } catch let error as GraphError where error.status == 410 || Self.isExpiredToken(error) {
                logger.info("delta token expired; listing again", metadata: ["code": "\(error.graphCode ?? "")"])
            }
        }
        return try await firstRound(events: state?.events)
    }

    /// Where the calendar's delta rounds are asked: the default calendar (`…/me/calendar`) has
    /// its own documented `…/me/calendarView/delta`; any other, `…/calendars/{id}/calendarView/delta`.
    var deltaBase: String {
        calendar.lastPathComponent == "calendar"
            ? String(client.mailbox.absoluteString.dropLast()) : calendar.absoluteString
    }

    /// Whether Graph refused a delta link because it no longer knows it: the code comes as
    /// `SyncStateNotFound`, `syncStateNotFound`, `resyncRequired` or `fullSyncRequired`, with
    /// 410 or 400.
    static func isExpiredToken(_ error: GraphError) -> Bool {
        ["syncstatenotfound", "resyncrequired", "fullsyncrequired"].contains((error.graphCode ?? "").lowercased())
    }

    /// A whole round from the window's start: every single event, and every series with an
    /// occurrence in the window, by its master (`events`: the calendar's count known before).
    private func firstRound(events: Int? = nil) async throws -> StorageChanges {
        let (canEdit, stamp) = try await readCalendar()
        let start = URL(string: deltaBase + "/calendarView/delta?" + window.query)!
        let (entries, link) = try await round(from: start)
        var singles: [ItemVersion] = []
        var masterIDs: Set<String> = []
        for entry in entries where !entry.removed {
            if let master = entry.masterID {
                masterIDs.insert(master)
            } else if let key = entry.changeKey {
                singles.append(ItemVersion(href: ItemHref(entry.id), etag: ItemETag(key)))
            }
        }
        let (masters, counted) = try await seriesKeys(of: masterIDs, events: events)
        let state = GraphListingState(
            deltaLink: link, window: window.key, masters: masters, canEdit: canEdit, events: counted, stamp: stamp,
            checked: Date())
        let versions = singles + masters.map { ItemVersion(href: ItemHref($0.key), etag: ItemETag($0.value)) }
        return .full(versions, token: state.token)
    }

    /// The round after `state`: what changed since, series by their masters.
    private func nextRound(after state: GraphListingState) async throws -> StorageChanges {
        guard let link = URL(string: state.deltaLink) else { return try await firstRound(events: state.events) }
        access.withLock { $0 = state.canEdit }
        let (first, stamp) = try await firstPageAndStamp(link)
        let (entries, next) = try await round(from: link, first: first)
        var changed: [ItemVersion] = []
        var removed: [ItemHref] = []
        var recheck: Set<String> = []
        var removals: [String] = []
        for entry in entries {
            let id = entry.id
            if entry.removed {
                if state.masters[id] != nil { recheck.insert(id) } else { removals.append(id) }
            } else if let master = entry.masterID {
                recheck.insert(master)
            } else if let key = entry.changeKey {
                changed.append(ItemVersion(href: ItemHref(id), etag: ItemETag(key)))
            }
        }
        // A removal is a deletion, a move out of the window (the event lives on: it is read
        // again, not deleted from the vdir) or a cancelled occurrence (its series is asked).
        let asked = try await current(Set(removals))
        for id in removals {
            guard let event = asked[id] else {
                removed.append(ItemHref(id))
                continue
            }
            if let master = Self.masterID(of: event) {
                recheck.insert(master)
            } else if let key = event.changeKey {
                changed.append(ItemVersion(href: ItemHref(id), etag: ItemETag(key)))
            }
        }
        // Every known series is asked too when the folder changed since they were: an
        // occurrence deleted in Outlook leaves no trace in delta (its entries are stubs, and a
        // deleted one has none), only its master's change key moves.
        let now = Date()
        let checksAll = SeriesCheck.needed(stamp: stamp, after: state, now: now)
        if checksAll { recheck.formUnion(state.masters.keys) }
        let (keys, counted) = try await seriesKeys(of: recheck, events: state.events)
        var masters = state.masters
        for id in recheck.sorted() {
            if let key = keys[id] {
                if key != state.masters[id] { changed.append(ItemVersion(href: ItemHref(id), etag: ItemETag(key))) }
                masters[id] = key
            } else if masters.removeValue(forKey: id) != nil {
                removed.append(ItemHref(id))
            }
        }
        let token = GraphListingState(
            deltaLink: next, window: state.window, masters: masters, canEdit: state.canEdit, events: counted,
            stamp: stamp, checked: checksAll ? now : state.checked
        ).token
        if changed.isEmpty && removed.isEmpty { return .unchanged(token) }
        return .delta(changed: changed, removed: removed, token: token)
    }

    /// The master an occurrence or exception belongs to; nil for a single event.
    static func masterID(of event: GraphEvent) -> String? {
        switch event.type {
        case .occurrence?, .exception?: event.seriesMasterId
        case .seriesMaster?: event.id
        default: nil
        }
    }

    /// What a delta round says of one event: its id, change key and series, or its removal.
    /// Only this is kept of each page, so that a round's memory does not hold whole events.
    struct DeltaEntry {
        var id: String
        var changeKey: String?
        /// The master of an occurrence or exception (a master's own id for a master).
        var masterID: String?
        var removed: Bool

        init?(_ event: GraphEvent) {
            guard let id = event.id else { return nil }
            self.id = id
            changeKey = event.changeKey
            masterID = GraphStorage.masterID(of: event)
            removed = event.removed != nil
        }
    }

    /// Every page of a delta round from `start`, and the link the next round starts from.
    ///
    /// Graph is known to page some calendars forever: a page linking back to itself, or (on
    /// some mailboxes) the same content again and again under a new link each time, or empty
    /// pages without end. A round therefore stops when a page holds what an earlier page held,
    /// and is bounded in pages (``RoundBounds``): a run then fails with nothing changed,
    /// instead of paging until it is killed. A page Graph cannot give in time (504, asked
    /// again by the HTTP client) stops the round with what to do about it.
    /// - Throws: ``GraphError`` `.repeatedPage` for a loop or a round past its bounds, or
    ///   Graph's refusal of a page.
    /// - Parameter first: the round's first page, when it was asked already (beside the
    ///   calendar's commit stamp).
    func round(from start: URL, first: GraphDeltaPage? = nil) async throws -> ([DeltaEntry], String) {
        var events: [DeltaEntry] = []
        var seen: Set<String> = [start.absoluteString]
        var contents: Set<Int> = []
        var pages = 0, emptyInARow = 0
        let began = ContinuousClock.now
        var url = start
        var given = first
        while true {
            let page: GraphDeltaPage
            if let first = given {
                page = first
                given = nil
            } else {
                page = try await deltaPage(url)
            }
            pages += 1
            let entries = page.value.compactMap(DeltaEntry.init)
            events += entries
            if let delta = page.deltaLink { return (events, delta) }
            guard let next = page.nextLink, let nextURL = URL(string: next) else {
                throw GraphError(.unreadableAnswer, "a page of Graph's delta round has neither a next nor a delta link")
            }
            emptyInARow = entries.isEmpty ? emptyInARow + 1 : 0
            let again = !entries.isEmpty && !contents.insert(Self.fingerprint(entries)).inserted
            if !seen.insert(next).inserted || again || emptyInARow > bounds.emptyPages || pages >= bounds.pages
                || ContinuousClock.now - began > bounds.time
            {
                throw endlessRound(pages: pages, repeated: again)
            }
            url = nextURL
        }
    }

    /// The preferences a delta page is asked with: Outlook's largest pages.
    var deltaPreferences: [String] { ["odata.maxpagesize=\(pageSize)"] }

    /// One page of a delta round.
    /// - Throws: ``GraphError``: Graph's refusal; for a page it could not give in time (504,
    ///   asked again by the HTTP client), what to do about it.
    func deltaPage(_ url: URL) async throws -> GraphDeltaPage {
        do {
            return try await client.get(url, as: GraphDeltaPage.self, prefer: deltaPreferences)
        } catch let error as GraphError where error.status == 504 {
            throw unanswered(error)
        }
    }

    /// The error of a delta page Graph did not give in time (504, asked again and again).
    func unanswered(_ error: GraphError) -> GraphError {
        GraphError(
            .refused(status: 504, code: error.graphCode ?? "504"),
            "Microsoft Graph did not give a page of \(calendar.lastPathComponent)'s changes in time (504, "
                + "asked again and again); nothing was changed",
            recovery: "run again later; a calendar with series without end is known for it: a narrower "
                + "window (window = \"-30d..+365d\") asks Graph for fewer occurrences")
    }

    /// How far a delta round may go before it is taken for one that never ends.
    struct RoundBounds: Sendable {
        /// Pages in all: 20,000 pages of 100 are two million entries, far beyond any calendar.
        var pages = 20_000
        /// Empty pages in a row (Graph may answer a few while it gathers the changes).
        var emptyPages = 200
        /// Time the round's paging may take.
        var time: Duration = .seconds(900)
    }

    /// The error of a round stopped for never ending.
    func endlessRound(pages: Int, repeated: Bool) -> GraphError {
        GraphError(
            .repeatedPage,
            "Microsoft Graph kept giving pages of \(calendar.lastPathComponent)'s changes "
                + (repeated ? "it had given before" : "without end") + " (\(pages) pages; a fault of Graph's on some "
                + "mailboxes); nothing was changed",
            recovery: "run again later; if it lasts, narrow the pair's window (window = \"-30d..+365d\")")
    }

    /// What a page holds, as one number: its entries' ids, change keys and removals, in order.
    static func fingerprint(_ entries: [DeltaEntry]) -> Int {
        var hasher = Hasher()
        for entry in entries {
            hasher.combine(entry.id)
            hasher.combine(entry.changeKey)
            hasher.combine(entry.removed)
        }
        return hasher.finalize()
    }

    /// The change keys of the masters `ids`, those gone left out.
    func changeKeys(of ids: Set<String>) async throws -> [String: String] {
        try await current(ids).compactMapValues(\.changeKey)
    }

    /// The change keys of the series `ids`, those gone left out, and the calendar's count of
    /// events when it was listed for them (else `events`, as known before): from a listing of
    /// the calendar's single events and masters, ids and change keys only, 1,000 a page, where
    /// that takes fewer requests than asking each series, twenty to a `$batch` (10 pages
    /// against 50 batches for 10,000 events with 1,000 series).
    func seriesKeys(of ids: Set<String>, events: Int?) async throws -> (keys: [String: String], events: Int?) {
        let batches = (ids.count + GraphClient.batchLimit - 1) / GraphClient.batchLimit
        guard let events, (events + listPageSize - 1) / listPageSize < batches else {
            return (try await changeKeys(of: ids), events)
        }
        var keys: [String: String] = [:]
        var count = 0
        try await listEvents(query: "?$select=id,changeKey,type") { event in
            count += 1
            if let id = event.id, ids.contains(id), let key = event.changeKey { keys[id] = key }
        }
        return (keys, count)
    }

    /// The events `ids` as they are now (id, change key, type, series), those gone left out:
    /// twenty to a `$batch`.
    func current(_ ids: Set<String>) async throws -> [String: GraphEvent] {
        let list = Array(ids)
        let answers = try await client.batchGET(
            list.map { client.eventPath($0, query: "?$select=id,changeKey,type,seriesMasterId") })
        var found: [String: GraphEvent] = [:]
        for (id, answer) in zip(list, answers) {
            if let event = try client.batchEvent(answer, path: client.eventPath(id)) { found[id] = event }
        }
        return found
    }
}

extension GraphStorage: ListingTokenStorage {
    /// The token of this run's listing, whatever calgw wrote since: the next delta round from
    /// it reports calgw's own writes among the changes, at the versions the journal holds, so
    /// they cost no read, and a run that wrote does not list the calendar again from the start.
    /// It holds the commit stamp the writes left (one request), so that they alone do not make
    /// the next round ask every series (``SeriesCheck``).
    public func token(forListing versions: [ItemVersion]) async throws -> ChangeToken? {
        guard let token = listed.withLock({ $0 }), var state = GraphListingState(token), state.stamp != nil else {
            return listed.withLock { $0 }
        }
        state.stamp = await currentStamp()
        return state.token
    }
}

extension GraphStorage: WindowedListingStorage {
    /// The events and series among `hrefs` that the calendar still holds, outside the window
    /// (an event that left it as the window moved on, one made for years ahead), twenty to a
    /// `$batch`.
    public func versions(of hrefs: [ItemHref]) async throws -> [ItemVersion] {
        let found = try await current(Set(hrefs.map(\.value)))
        return hrefs.compactMap { href in
            // An item is a single event or a series' master, never one of its occurrences.
            guard let event = found[href.value], let key = event.changeKey, event.type != .occurrence,
                event.type != .exception
            else { return nil }
            return ItemVersion(href: href, etag: ItemETag(key))
        }
    }
}
