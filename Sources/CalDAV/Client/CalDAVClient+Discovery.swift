import Foundation
import HTTP

extension CalDAVClient {
    /// Finds the calendars behind `url`: a calendar collection itself, a calendar home, a
    /// principal, or a server root (RFC 6764: `/.well-known/caldav`, then
    /// `current-user-principal`, then `calendar-home-set`).
    /// - Returns: the calendar collections, sorted by href.
    /// - Throws: `HTTPError.discoveryFailed` when no calendar home can be found;
    ///   `.authenticationFailed` on 401.
    public func discover(_ url: URL) async throws -> [CalendarCollection] {
        try await discoverAccount(url).calendars
    }

    /// ``discover(_:)``, with the calendar home the server named (`calendar-home-set`), nil
    /// when `url` is a calendar or a home that does not describe itself.
    public func discoverAccount(_ url: URL) async throws -> (calendars: [CalendarCollection], home: URL?) {
        if let home = try await findCalendarHome(url) {
            if case .collection(let single) = home { return ([single], nil) }
            if case .home(let homeURL) = home { return (try await calendars(inHome: homeURL), homeURL) }
        }
        // Last resort: the URL may be a home that does not describe itself.
        let found = (try? await calendars(inHome: Self.collectionURL(url))) ?? []
        guard !found.isEmpty else {
            throw HTTPError(
                .discoveryFailed, "no calendar home was found behind \(url.redactedString)",
                recovery: "give the URL of the calendar home or of one calendar (see the server's documentation)",
                url: url)
        }
        return (found, nil)
    }

    /// The properties of one collection (Depth 0) with the change tokens `tokens` names:
    /// a server may derive each token from every item (Radicale does), so asking for one that
    /// will not be used costs.
    public func collectionInfo(_ url: URL, tokens: CollectionTokens = .all) async throws -> CalendarCollection {
        let collection = Self.collectionURL(url)
        let (status, _) = try await multistatus(
            "PROPFIND", collection, depth: "0",
            body: DAVRequestBodies.propfind(DAVRequestBodies.collectionProperties(tokens)))
        guard let response = status.responses.first else {
            throw HTTPError(
                .invalidResponse, "PROPFIND \(collection.redactedString) returned no properties", url: collection)
        }
        return Self.collection(from: response, url: collection, href: HrefResolver.href(of: collection))
    }

    enum DiscoveredStart {
        case collection(CalendarCollection)
        case home(URL)
    }

    private func findCalendarHome(_ url: URL) async throws -> DiscoveredStart? {
        // Only these three: DAViCal fails (500) when asked for a sync-token on its root.
        let properties: [XMLBuilder.Element] = [
            .empty("d:resourcetype"), .empty("d:current-user-principal"), .empty("c:calendar-home-set"),
        ]
        var candidates = [url]
        if let wellKnown = URL(string: "/.well-known/caldav", relativeTo: url)?.absoluteURL {
            candidates.append(wellKnown)
        }
        for candidate in candidates {
            let answer: Multistatus
            do {
                (answer, _) = try await multistatus(
                    "PROPFIND", candidate, depth: "0", body: DAVRequestBodies.propfind(properties))
            } catch let error as HTTPError
                where error.code != .authenticationFailed && error.code != .tlsVerificationFailed
                && error.code != .connectionFailed
            {
                logger.debug(
                    "discovery: no answer",
                    metadata: ["url": "\(candidate.redactedString)", "error": "\(error.message)"])
                continue
            }
            guard let response = answer.responses.first else { continue }
            let resolver = HrefResolver(base: candidate)
            if response.hasResourceType(XMLNamespace.caldav, "calendar") {
                return .collection(
                    try await collectionInfo(Self.collectionURL(try resolver.resolve(response.href).url)))
            }
            if let home = response.property(XMLNamespace.caldav, "calendar-home-set")?.child(XMLNamespace.dav, "href")?
                .trimmedText
            {
                return .home(Self.collectionURL(try resolver.resolve(home).url))
            }
            if let principal = response.property(XMLNamespace.dav, "current-user-principal")?.child(
                XMLNamespace.dav, "href")?.trimmedText
            {
                let principalURL = try resolver.resolve(principal).url
                let (principalAnswer, _) = try await multistatus(
                    "PROPFIND", principalURL, depth: "0",
                    body: DAVRequestBodies.propfind([.empty("c:calendar-home-set")]))
                if let home = principalAnswer.responses.first?.property(XMLNamespace.caldav, "calendar-home-set")?
                    .child(XMLNamespace.dav, "href")?.trimmedText
                {
                    return .home(Self.collectionURL(try HrefResolver(base: principalURL).resolve(home).url))
                }
            }
        }
        return nil
    }

    /// The calendar collections the home lists (Depth 1): those inside it, and those it lists
    /// elsewhere on the same server, as Google's home lists every calendar of the account at
    /// `/caldav/v2/<calendar id>/events/` though only the primary one's path is inside it.
    ///
    /// The account's schedule Inbox and Outbox are left out, though a server calls them
    /// calendars: DAViCal's admin screen makes `.in/` and `.out/` of the plain calendar type,
    /// and only the principal's `schedule-inbox-URL` and `schedule-outbox-URL` (RFC 6638 §2.1,
    /// §2.2), which DAViCal answers on every member, tell them apart. A calendar whose
    /// resourcetype says it is the Outbox too (SOGo's personal calendar) is a calendar.
    public func calendars(inHome home: URL) async throws -> [CalendarCollection] {
        try await homeListing(home).calendars
    }

    /// ``calendars(inHome:)``, and the account's schedule Inbox and Outbox as the same answer
    /// lists them (with their change tokens) when they are members of the home, as on DAViCal.
    public func homeListing(_ home: URL) async throws -> (
        calendars: [CalendarCollection], scheduleCollections: [CalendarCollection]
    ) {
        let homeURL = Self.collectionURL(home)
        let (answer, _) = try await multistatus(
            "PROPFIND", homeURL, depth: "1",
            body: DAVRequestBodies.propfind(
                DAVRequestBodies.collectionProperties + DAVRequestBodies.scheduleCollectionURLs))
        let resolver = HrefResolver(base: homeURL)
        let homePath = HrefResolver.href(of: homeURL).path
        let scheduling = Self.scheduleCollections(in: answer, resolver: resolver)
        var found: [Href: CalendarCollection] = [:]
        var schedule: [CalendarCollection] = []
        for response in answer.responses {
            // Another server's href, a dot segment and the like are left out (`resolve` throws).
            guard let member = try? resolver.resolve(response.href),
                member.href.path != homePath, member.href.path + "/" != homePath
            else { continue }
            let path = member.href.path.hasSuffix("/") ? member.href : Href(canonicalPath: member.href.path + "/")
            let collection = Self.collection(from: response, url: resolver.url(for: path), href: path)
            let isCalendar = response.hasResourceType(XMLNamespace.caldav, "calendar")
            if isCalendar && response.hasResourceType(XMLNamespace.caldav, "schedule-outbox") {
                // A calendar that is the Outbox too (SOGo's personal calendar, which its
                // schedule-outbox-URL names): it holds the account's events.
                found[path] = collection
            } else if response.hasResourceType(XMLNamespace.caldav, "schedule-inbox")
                || response.hasResourceType(XMLNamespace.caldav, "schedule-outbox")
                || scheduling.contains(Self.folderPath(member.href.path))
            {
                schedule.append(collection)
            } else if isCalendar {
                found[path] = collection
            }
        }
        return (found.values.sorted { $0.href < $1.href }, schedule)
    }

    /// The paths (ending with `/`) of the schedule Inbox and Outbox that any response of
    /// `answer` names.
    static func scheduleCollections(in answer: Multistatus, resolver: HrefResolver) -> Set<String> {
        var paths: Set<String> = []
        for response in answer.responses {
            for name in ["schedule-inbox-URL", "schedule-outbox-URL"] {
                guard
                    let href = response.property(XMLNamespace.caldav, name)?.child(XMLNamespace.dav, "href")?
                        .trimmedText, let resolved = try? resolver.resolve(href)
                else { continue }
                paths.insert(folderPath(resolved.href.path))
            }
        }
        return paths
    }

    /// `path` ending with `/`.
    static func folderPath(_ path: String) -> String { path.hasSuffix("/") ? path : path + "/" }

    static func collection(from response: DAVResponse, url: URL, href: Href) -> CalendarCollection {
        let components =
            response.property(XMLNamespace.caldav, "supported-calendar-component-set")?
            .children(XMLNamespace.caldav, "comp").compactMap { $0.attributes["name"]?.uppercased() } ?? []
        return CalendarCollection(
            url: url, href: href,
            displayName: response.text(XMLNamespace.dav, "displayname"),
            color: response.text(XMLNamespace.appleICal, "calendar-color"),
            components: components,
            ctag: response.text(XMLNamespace.calendarServer, "getctag"),
            syncToken: response.text(XMLNamespace.dav, "sync-token").map(SyncToken.init),
            writable: writable(response.property(XMLNamespace.dav, "current-user-privilege-set")))
    }

    /// Whether a `current-user-privilege-set` lets the account change items; nil without one.
    static func writable(_ privileges: XMLNode?) -> Bool? {
        guard let privileges else { return nil }
        let granted = Set(
            privileges.children(XMLNamespace.dav, "privilege").flatMap(\.children)
                .filter { $0.namespace == XMLNamespace.dav }.map(\.name))
        return !granted.isDisjoint(with: ["all", "write", "write-content"])
    }
}
