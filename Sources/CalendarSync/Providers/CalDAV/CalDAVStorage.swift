import CalDAV
import Foundation
import HTTP
import VDir
import Logging

/// A CalDAV calendar collection as a `CalendarStorage`.
///
/// Changes are found the cheapest way the server allows: a sync-collection REPORT from the
/// last sync-token (RFC 6578), else a `getctag` compared with the last one, else a full
/// PROPFIND listing. A token the server no longer knows falls back to a full listing.
/// Hrefs are the members' canonical paths (`Href.path`); etags are the server's, verbatim.
///
/// ```swift
/// let client = try CalDAVClient(configuration: .init(http: .init(authentication: .basic(username: u, password: p))))
/// let storage = CalDAVStorage(client: client, collection: URL(string: "https://dav.example.com/cal/alice/personal/")!)
/// let changes = try await storage.changes(since: lastToken)
/// ```
public final class CalDAVStorage: CalendarStorage {
    /// The client that reaches the server.
    public let client: CalDAVClient
    /// The collection's URL, with a trailing slash.
    public let collection: URL
    let resolver: HrefResolver
    let logger: Logger
    /// The collection's properties as last read in this run, so the metadata sync needs no
    /// second request.
    let lastInfo = LastCollectionInfo()
    /// Properties read by someone else in this run (an account's home listing), used once
    /// instead of a PROPFIND of the collection.
    let primedInfo = LastCollectionInfo()
    /// What the server kept of writes it rewrote, until the executor takes it.
    let rewritten = RewrittenVersions()
    /// What the person is to hear of this run's writes (see ``NotingStorage``).
    let notes = StorageNotes()
    /// What the server did with the person's deletions of meetings (see ``DeletionScheduling``).
    let deletions = DeletionSchedulingLog()
    /// Hrefs listed in this run that could not be read, told in one note (see ``UnreadableHrefs``).
    let unreadable = UnreadableHrefs()
    /// The hrefs this run's listings showed, which no create is sent to (see ``ListedNames``).
    let listed = ListedNames()
    /// The Schedule-Tag of each meeting read or written as the person's action in this run.
    let scheduleTags = ScheduleTags()
    /// The account's calendar addresses, once asked (``storedCopyForm(_:as:)``).
    let accountAddresses = AccountAddresses()
    /// The schedule Inbox's tokens as read in this run (``scheduleInboxMark(known:)``).
    let inboxTokens: InboxTokens

    /// Writes at once when fixed by `CALGW_WRITE_CONCURRENCY` (1 to 16), instead of found by
    /// trying: for a server that misbehaves under concurrent writes, and for tests that need a
    /// number whatever the timing.
    let fixedWriteConcurrency: Int?
    /// What the server does (``ServerFacts``), settled once its answers name it.
    let settledFacts: SettledFacts

    /// The collection at `collection` (a trailing slash is added when missing), reached through
    /// `client`; of the server `product` when the config names one (``ServerSettings/product``),
    /// else of the product its URL and answers show.
    /// - Parameter inboxTokens: the Inbox tokens shared with the account's other calendars.
    public convenience init(
        client: CalDAVClient, collection: URL, product: ServerProduct? = nil,
        logger: Logger = Logger(label: "calgw.caldav-storage")
    ) {
        self.init(client: client, collection: collection, product: product, logger: logger, inboxTokens: InboxTokens())
    }

    init(client: CalDAVClient, collection: URL, product: ServerProduct?, logger: Logger, inboxTokens: InboxTokens) {
        self.inboxTokens = inboxTokens
        let base =
            collection.absoluteString.hasSuffix("/")
            ? collection : URL(string: collection.absoluteString + "/") ?? collection
        self.client = client
        self.collection = base
        self.resolver = HrefResolver(base: base)
        self.settledFacts = SettledFacts(product: product, url: base)
        self.logger = logger
        fixedWriteConcurrency = ProcessEnvironment.value("CALGW_WRITE_CONCURRENCY").flatMap(Int.init).map {
            min(max($0, 1), 16)
        }
    }

    /// What the server does, as far as its product is known yet (``ServerFacts``).
    public var facts: ServerFacts { settledFacts.facts(client.traits) }

    /// Hands over the collection's properties as just read elsewhere (an account pair's PROPFIND
    /// Depth 1 of the calendar home): the next look for changes uses them instead of asking the
    /// server, so an unchanged collection costs no request at all.
    public func prime(with info: CalendarCollection) {
        primedInfo.store(info)
    }

    /// The collection's properties: primed ones once, else a PROPFIND Depth 0 asking for the
    /// change tokens `tokens` names.
    func currentInfo(tokens: CollectionTokens = .all) async throws -> CalendarCollection {
        let info: CalendarCollection
        if let primed = primedInfo.take() {
            info = primed
        } else {
            info = try await client.collectionInfo(collection, tokens: tokens)
        }
        lastInfo.store(info)
        return info
    }

    /// The collection's properties with the token to start from: the sync-token alone (the four
    /// servers calgw is tested on all have one), and getctag only from a server without. Radicale
    /// derives each token from every item: asking for both would double a first read's wait.
    func tokenInfo() async throws -> CalendarCollection {
        let info = try await currentInfo(tokens: .syncToken)
        return info.syncToken == nil && info.ctag == nil ? try await currentInfo(tokens: .ctag) : info
    }

    /// The token to keep from `info`: its sync-token, else its getctag.
    static func changeToken(of info: CalendarCollection) -> ChangeToken? {
        (info.syncToken.map(CollectionToken.sync) ?? info.ctag.map(CollectionToken.ctag))?.changeToken
    }

    /// From a sync-token, a sync-collection REPORT (a full listing when the server no longer knows
    /// the token); from a getctag, a comparison; else a full listing.
    public func changes(since token: ChangeToken?) async throws -> StorageChanges {
        do { return try await changesByToken(since: token) } catch var error as HTTPError
            where error.code == .authenticationFailed
        {
            // A server that wants another password than the account's says which.
            if let advice = facts.passwordAdvice { error.recovery = advice }
            throw error
        }
    }

    private func changesByToken(since token: ChangeToken?) async throws -> StorageChanges {
        switch token.flatMap(CollectionToken.init) {
        case .sync(let syncToken)?:
            return noted(try await changes(sinceSyncToken: syncToken, token: token!))
        case .ctag(let ctag)?:
            let info = try await currentInfo()
            if info.ctag == ctag, info.syncToken == nil { return .unchanged(token!) }
            return noted(try await fullListing(info: info))
        case nil:
            return noted(try await fullListing())
        }
    }

    /// `changes`, with the hrefs it shows noted as taken (``listed``).
    private func noted(_ changes: StorageChanges) -> StorageChanges {
        switch changes {
        case .full(let versions, _), .delta(let versions, _, _): listed.add(versions.lazy.map(\.href.value))
        case .unchanged: break
        }
        return changes
    }

    /// What changed since an RFC 6578 sync-token.
    private func changes(sinceSyncToken syncToken: SyncToken, token: ChangeToken) async throws -> StorageChanges {
        // One PROPFIND answers "anything new?" and brings the name and colour along; only a
        // changed token costs the sync-collection REPORT.
        let info = try await currentInfo(tokens: .syncToken)
        if info.syncToken?.value == syncToken.value { return .unchanged(token) }
        do {
            let result = try await client.syncCollection(collection, token: syncToken)
            let next = result.token.map { CollectionToken.sync($0).changeToken }
            if result.changed.isEmpty && result.removed.isEmpty {
                return .unchanged(next ?? token)
            }
            return .delta(
                changed: result.changed.map(Self.version), removed: result.removed.map { ItemHref($0) }, token: next)
        } catch let error as HTTPError where error.code == .invalidSyncToken {
            logger.info(
                "sync-token no longer valid; listing the collection in full",
                metadata: ["collection": "\(collection)"])
            return try await fullListing()
        }
    }

    /// Every member, with the best token the server offers.
    private func fullListing(info known: CalendarCollection? = nil) async throws -> StorageChanges {
        let info: CalendarCollection
        if let known { info = known; lastInfo.store(info) } else { info = try await tokenInfo() }
        if info.syncToken != nil {
            do {
                let result = try await client.syncCollection(collection, token: nil)
                return .full(
                    result.changed.map(Self.version), token: result.token.map { CollectionToken.sync($0).changeToken })
            } catch let error as HTTPError
                where error.code != .authenticationFailed && error.code != .connectionFailed
            {
                logger.info("initial sync-collection refused; listing instead", metadata: ["error": "\(error.message)"])
            }
        }
        // Token first, then the listing: a change in between shows up again next time.
        let token = Self.changeToken(of: info)
        let items = try await client.listItems(in: collection)
        return .full(items.map(Self.version), token: token)
    }

    /// A calendar-multiget REPORT of the hrefs; for the person's action on a meeting, with each
    /// one's Schedule-Tag.
    public func fetch(_ hrefs: [ItemHref], for intent: WriteIntent) async throws -> [StoredItem] {
        var wanted: [Href] = []
        for href in hrefs {
            guard let member = try member(href) else { continue }
            wanted.append(member.href)
        }
        // The person's action on a meeting is written against the Schedule-Tag read here.
        let persons = intent == .personsAction
        let resources = try await client.multiget(collection, hrefs: wanted, scheduleTags: persons)
        if resources.count < wanted.count {
            // Only what a listing showed is told: a name looked at before a create is not.
            let read = Set(resources.map(\.href))
            unreadable.add(wanted.filter { !read.contains($0) && listed.contains($0.path) }.map(\.path))
        }
        if persons { for resource in resources { scheduleTags.set(resource.scheduleTag, at: ItemHref(resource.href)) } }
        return resources.map {
            StoredItem(version: ItemVersion(href: ItemHref($0.href), etag: ItemETag($0.etag)), data: $0.data)
        }
    }

    /// A PUT with `If-None-Match: *` of `<suggestedName>.ics` (a stem derived from the UID when the
    /// name is not safe).
    public func create(_ data: Data, suggestedName: String, as intent: WriteIntent) async throws -> ItemVersion {
        let name =
            (SafeFileName.isSafeStem(suggestedName) ? suggestedName : SafeFileName.stem(forUID: suggestedName)) + ".ics"
        let url = (client.traits.relocation(of: collection) ?? collection).appendingPathComponent(name)
        let href = ItemHref(HrefResolver.href(of: url))
        // A name the listing showed taken is not asked for: a server that ignores
        // If-None-Match would replace what is there.
        if listed.contains(href.value) { throw StorageError.alreadyExists(href: href) }
        try refuseMeetingCopy(data, as: intent, href: href)
        prepareWrites()
        do {
            let stored = try await client.write(
                url, data: await storedCopyForm(data, as: intent), condition: .createOnly, scheduling: intent.scheduling
            )
            return kept(stored, at: href, intent: intent)
        } catch let error as HTTPError {
            throw componentRefusal(error, data: data, href: href) ?? splitSeriesRefusal(error, data: data, href: href)
                ?? ContentRefused.refusal(error, href: href) ?? storageError(error, href: href, creating: true)
        }
    }

    /// A PUT with `If-Match`, or `If-Schedule-Tag-Match` for the person's action on a meeting read
    /// with its tag.
    public func update(href: ItemHref, data: Data, ifMatch etag: ItemETag, as intent: WriteIntent) async throws
        -> ItemVersion
    {
        guard let member = try member(href) else {
            throw StorageError.rejected(href: href, reason: "not an item of the collection")
        }
        try refuseMeetingCopy(data, as: intent, href: href)
        prepareWrites()
        do {
            // The person's change to a meeting read with its Schedule-Tag is made unless the
            // meeting changed in a way that matters; another attendee's answer that landed
            // meanwhile, the server merges (RFC 6638 §3.2.10).
            let tag = intent == .personsAction ? scheduleTags.tag(at: ItemHref(member.href)) : nil
            let condition = tag.map(WriteCondition.ifScheduleTagMatch) ?? .ifMatch(ETag(etag))
            let before = await versionBeforeOrganizerUpdate(data, at: member.url, as: intent)
            let stored: StoredWrite
            if intent == .personsAction, OutboxReply.carriesComment(data),
                let answered = try await answeredThroughOutbox(data, at: member.url, condition: condition, failure: nil)
            {
                // DAViCal's reply code leaves the comment out: the copy, and the REPLY by the Outbox.
                stored = answered
            } else {
                stored = try await written(member.url, data: data, condition: condition, as: intent)
                await noteCommentLeftOut(data, at: member.href, as: intent)
            }
            if let before { await sendWhatTheServersUpdateLeftOut(before: before, after: data, href: member.href) }
            return kept(stored, at: ItemHref(member.href), intent: intent)
        } catch let error as HTTPError {
            throw componentRefusal(error, data: data, href: href) ?? splitSeriesRefusal(error, data: data, href: href)
                ?? Self.recurringConflict(error, data: data, href: href)
                ?? recurringMeetingDeferral(error, data: data, href: href) ?? ContentRefused.refusal(error, href: href)
                ?? storageError(error, href: href, creating: false)
        }
    }

    /// The PUT of an update; where DAViCal's reply code fails the person's answer, the copy
    /// and the REPLY by the Outbox (``answeredThroughOutbox(_:at:condition:failure:)``).
    private func written(_ url: URL, data: Data, condition: WriteCondition, as intent: WriteIntent) async throws
        -> StoredWrite
    {
        do {
            return try await client.write(
                url, data: await storedCopyForm(data, as: intent), condition: condition, scheduling: intent.scheduling)
        } catch let error as HTTPError where intent == .personsAction {
            // DAViCal's reply code failed the answer: the copy, and the REPLY by the Outbox.
            guard let answered = try await answeredThroughOutbox(data, at: url, condition: condition, failure: error)
            else { throw error }
            return answered
        }
    }

    /// A DELETE with `If-Match`; an item already gone is not an error.
    public func delete(href: ItemHref, ifMatch etag: ItemETag, as intent: WriteIntent) async throws {
        guard let member = try member(href) else {
            throw StorageError.rejected(href: href, reason: "not an item of the collection")
        }
        do {
            if !facts.honoursIfMatchOnDelete {
                if try await isGone(member.url) { return }
                try await checkVersion(member, is: etag, href: href)
            }
            try await refuseMeetingCopyDeletion(member.href, as: intent, href: href)
            if copiesNeedClientAgent {
                try await deleteOnServerIgnoringSchedulingSwitch(member, ifMatch: etag, as: intent)
            } else if intent == .personsAction, try await deletedAsDecline(member, ifMatch: etag) {
                return
            } else {
                try await client.delete(member.url, ifMatch: ETag(etag), scheduling: intent.scheduling)
            }
        } catch let error as HTTPError where error.code == .notFound {
            return
        } catch let error as HTTPError where error.status == 412 {
            // If-Match fails on a resource that is gone as on one that changed (RFC 9110
            // §13.1.1; sabre/dav answers so): one look tells which, and gone is what was asked.
            if try await isGone(member.url) { return }
            throw storageError(error, href: href, creating: false)
        } catch let error as HTTPError {
            throw storageError(error, href: href, creating: false)
        }
    }

    /// Whether nothing is at `url` any more (a PROPFIND of it answers 404 or 410).
    func isGone(_ url: URL) async throws -> Bool {
        do {
            _ = try await client.etag(of: url)
            return false
        } catch let error as HTTPError where error.code == .notFound || error.status == 410 {
            return true
        }
    }

    /// The member of the collection at `href`: inside its configured URL, or inside the place a
    /// redirect moved it to, where its listings (which follow the redirect) find its items.
    func member(_ href: ItemHref) throws -> (href: Href, url: URL)? {
        if let moved = client.traits.relocation(of: collection),
            let inside = try? HrefResolver(base: moved).member(href.value)
        {
            return inside
        }
        return try resolver.member(href.value)
    }

    /// The version a write made, the server's bytes kept aside when it rewrote them.
    private func kept(_ stored: StoredWrite, at href: ItemHref, intent: WriteIntent) -> ItemVersion {
        let version = ItemVersion(href: href, etag: ItemETag(stored.etag))
        if intent == .personsAction { scheduleTags.set(stored.scheduleTag, at: href) }
        if let bytes = stored.rewritten { rewritten.store(StoredItem(version: version, data: bytes)) }
        return version
    }

    static func version(_ item: RemoteItem) -> ItemVersion {
        ItemVersion(href: ItemHref(item.href), etag: ItemETag(item.etag))
    }

    /// A 409 Conflict on the update of a recurring event: Google answers it to some changes of
    /// a series, whatever the change (vdirsyncer #963, #613; calcurse #470), and to each of
    /// its runs; the message says so and what to do, instead of the bare status.
    static func recurringConflict(_ error: HTTPError, data: Data, href: ItemHref) -> StorageError? {
        guard error.status == 409,
            data.range(of: Data("\nRRULE".utf8)) != nil
                || data.range(of: Data("\nRECURRENCE-ID".utf8)) != nil
        else { return nil }
        return .rejected(
            href: href,
            reason: "409 Conflict: the server refused this change of a recurring event (Google refuses some such "
                + "changes over CalDAV); the change stays in the vdir and is sent again on each run: make it in the "
                + "server's own app (Google Calendar) instead")
    }

    /// The refusal of a task or journal entry by a calendar that takes events only
    /// (``ComponentNotTaken``); nil for any other failure.
    func componentRefusal(_ error: HTTPError, data: Data, href: ItemHref) -> ComponentNotTaken? {
        guard ComponentNotTaken.refusesContent(error), let component = ComponentNotTaken.component(of: data) else {
            return nil
        }
        // Only where the calendar (or the server's facts) says it takes no such component, or the server names that
        // precondition (Google's "unsupported component" too): a task refused for its content (415 from sabre/dav to a date start with
        // a timed due) is the content's refusal, said with the server's own words.
        let reason = (error.serverReason ?? "").lowercased()
        let named = reason.contains("supported-calendar-component") || reason.contains("unsupported component")
        let listed = lastInfo.components.map { !$0.contains(component) } ?? false
        let declared = facts.takesComponents.map { !$0.contains(component) } ?? false
        guard named || listed || declared else { return nil }
        return ComponentNotTaken(href: href, component: component, serverLine: error.serverLine)
    }

    /// `storageError(_:href:creating:)`, and a refusal for want of the privilege to write, on
    /// a calendar whose access its listing did not tell (DAViCal withholds
    /// `current-user-privilege-set` from an account granted only DAV:read), is
    /// `.notPermitted`: from then on the storage counts as read-only.
    func storageError(_ error: HTTPError, href: ItemHref, creating: Bool) -> Error {
        if error.status == 403, lastInfo.writable == nil, Self.isPrivilegeRefusal(error) {
            lastInfo.markNotWritable()
            return StorageError.notPermitted(href: href, reason: error.serverReason ?? error.message)
        }
        return Self.storageError(error, href: href, creating: creating)
    }

    /// A 403 that says the account lacks a privilege (RFC 3744 `need-privileges`, or a body
    /// naming the permission), not that the content was refused.
    static func isPrivilegeRefusal(_ error: HTTPError) -> Bool {
        let reason = (error.serverReason ?? "").lowercased()
        return reason.contains("need-privileges") || reason.contains("permission") || reason.contains("privilege")
    }

    /// Maps the statuses the sync engine acts on to `StorageError`; the rest stay `HTTPError`.
    /// Radicale refuses a duplicate UID with 409, Cyrus with 403: both are `.rejected`.
    /// A rate limit that outlasted the retries (Google's 403 `rateLimitExceeded`) stays a
    /// `HTTPError`: the item was not refused, the run was asked to slow down.
    static func storageError(_ error: HTTPError, href: ItemHref, creating: Bool) -> Error {
        if error.status == 403, error.code != .forbidden { return error }
        switch error.status {
        case 412:
            return creating ? StorageError.alreadyExists(href: href) : StorageError.preconditionFailed(href: href)
        case 404 where !creating, 410 where !creating:
            return StorageError.preconditionFailed(href: href)
        case 403, 409, 415, 422:
            return StorageError.rejected(href: href, reason: error.serverReason ?? error.message)
        default:
            return error
        }
    }
}

/// The Schedule-Tags of meetings as last read or written in a run, by href.
final class ScheduleTags: @unchecked Sendable {
    private let lock = NSLock()
    private var tags: [ItemHref: ScheduleTag] = [:]
    /// Sets (or with nil, forgets) the tag of the meeting at `href`.
    func set(_ tag: ScheduleTag?, at href: ItemHref) { lock.withLock { tags[href] = tag } }
    func tag(at href: ItemHref) -> ScheduleTag? { lock.withLock { tags[href] } }
}

/// A collection's properties read once in a run, handed on once.
final class LastCollectionInfo: @unchecked Sendable {
    private let lock = NSLock()
    private var info: CalendarCollection?
    private var access: Bool?
    private var kinds: [String]?
    func store(_ value: CalendarCollection) {
        lock.withLock {
            info = value; access = value.writable ?? access
            if !value.components.isEmpty { kinds = value.components }
        }
    }
    /// The components the calendar takes (its supported-calendar-component-set), as the last
    /// properties stored said; nil when none said it (kept when they are taken).
    var components: [String]? { lock.withLock { kinds } }
    /// Whether the account may write there, as the last properties stored said (kept when
    /// they are taken: a run's capabilities do not change once it has listed).
    var writable: Bool? { lock.withLock { access } }
    /// Notes that a write was refused for want of the privilege: the calendar is read-only.
    func markNotWritable() { lock.withLock { access = false } }
    /// The stored properties, forgotten as they are taken.
    func take() -> CalendarCollection? {
        lock.withLock {
            defer { info = nil }; return info
        }
    }
}
