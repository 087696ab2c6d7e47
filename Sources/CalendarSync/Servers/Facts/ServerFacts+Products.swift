import CalDAV
import Foundation

/// The registry: every server product calgw knows, what it does, and how it is recognised.
/// A new server product is one entry here (its facts and how its answers name it); nothing
/// else in the engine names a product.
extension ServerFacts {
    /// A server calgw does not know: what RFC 4791 and RFC 6638 say one does.
    public static let generic = ServerFacts(
        product: ServerProduct("generic"), title: "the server", api: nil, scheduling: .asAdvertised,
        meetingCopies: .schedulingSwitch, writesScheduleStatus: true, honoursIfNoneMatch: true,
        honoursIfMatchOnDelete: true, keepsReplyComment: true, makesCalendars: .onRequest, defersWithBare403: false)

    /// Every product calgw knows, by its config name.
    public static let known: [ServerFacts] = [
        generic,
        // Google Calendar's CalDAV endpoint: it mails the attendees of every meeting written or
        // deleted, ignoring SCHEDULE-AGENT=CLIENT and Scheduling-Enabled (Outlook CalDAV
        // Synchronizer #183, #116, #274); MKCALENDAR is not supported (its CalDAV guide); it
        // defers with a bare 403.
        with(generic, "google", "Google") {
            $0.scheduling = .always
            $0.meetingCopies = .never
            $0.defersWithBare403 = true
            $0.freeBusy = .googleCalendarAPI
            $0.makesCalendars = .never(
                advice: "Google makes no calendars over CalDAV; make one in Google Calendar (Settings, Add "
                    + "calendar, Create new calendar)")
        },
        // Microsoft Graph: every create, move or deletion of a meeting mails its attendees;
        // answers are sent by the requests that make them, and nothing is marked on the event.
        with(generic, "graph", "Outlook") {
            $0.api = "Graph"
            $0.scheduling = .always
            $0.meetingCopies = .never
            $0.writesScheduleStatus = false
        },
        // DAViCal schedules implicitly and takes no request header to skip it: a copy it stores
        // invites the attendees who are its users unless each says SCHEDULE-AGENT=CLIENT.
        with(generic, "davical", "DAViCal") { $0.meetingCopies = .scheduleAgentClient },
        // Cyrus (Fastmail) honours Scheduling-Enabled: F on PUT and DELETE.
        with(generic, "cyrus", "Cyrus") { _ in },
        // Radicale schedules nothing and has no schedule Outbox to ask for free-busy time.
        with(generic, "radicale", "Radicale") {
            $0.freeBusy = .none(reason: "Radicale answers no free-busy request (it has no schedule Outbox)")
        },
        // Xandikos advertises calendar-auto-schedule and sends nothing; its answers name only
        // the aiohttp server it runs on, which is how it is known.
        with(generic, "xandikos", "Xandikos") {
            $0.scheduling = .never
            $0.freeBusy = .none(reason: "Xandikos answers no free-busy request (it schedules nothing)")
        },
        // SOGo delivers to local attendees on every write of a meeting, whatever the request
        // says; it writes no SCHEDULE-STATUS, ignores If-None-Match and If-Match on DELETE (not on
        // PUT), drops a reply's COMMENT, takes a colour only as #RRGGBBAA, and adds CLASS:PUBLIC
        // to what it stores while answering with an ETag; its sync token is a second.
        with(generic, "sogo", "SOGo") {
            $0.meetingCopies = .never
            $0.writesScheduleStatus = false
            $0.honoursIfNoneMatch = false
            $0.honoursIfMatchOnDelete = false
            $0.keepsReplyComment = false
            $0.colorsWithAlpha = true
            $0.addedProperties = ["CLASS:PUBLIC"]
            $0.tokenCountsSeconds = true
            $0.queriesFindEverything = false
        },
        // sabre/dav (Nextcloud, ownCloud, Baïkal) ignores Scheduling-Enabled and takes
        // Schedule-Reply: F as "no scheduling" on PUT and DELETE; its iTIP broker builds a REPLY
        // without the COMMENT.
        with(generic, "sabre", "sabre/dav") {
            $0.meetingCopies = .scheduleReply
            $0.keepsReplyComment = false
        },
        // The servers no test can run, as their users and python-caldav's compatibility hints
        // report them (Scripts/proxies/reported_proxy.py plays each behaviour over Radicale):
        // iCloud answers a calendar-query filtered on VCALENDAR alone with nothing (calcurse
        // PR #60), takes no tasks over CalDAV, and signs in third-party clients only with an
        // app-specific password.
        with(generic, "icloud", "iCloud") {
            $0.queriesFindEverything = false
            $0.takesComponents = ["VEVENT"]
            $0.passwordAdvice =
                "iCloud takes an app-specific password, not the Apple ID's own: make one at account.apple.com "
                + "(Sign-In and Security, App-Specific Passwords)"
        },
        // Open-Xchange (mailbox.org): a calendar-query without a time range finds only what is
        // within about a year of now (`search.unlimited-time-range: broken`).
        with(generic, "ox", "Open-Xchange") { $0.queriesFindEverything = false },
        // Zimbra and Synology: a query on VCALENDAR alone is "fragile" in the hints.
        with(generic, "zimbra", "Zimbra") { $0.queriesFindEverything = false },
        with(generic, "synology", "Synology") { $0.queriesFindEverything = false },
    ]

    /// The products the config's `api` key may name besides the providers: a service whose
    /// rules hold wherever it is reached, so that a pair on a proxy or a test server in front of
    /// it names it (Google's CalDAV, which speaks CalDAV and is known by its address otherwise).
    public static let namedByAPI = ["google"]

    /// Other names of known products: what people call the service that runs the engine.
    static let aliases = [
        "nextcloud": "sabre", "owncloud": "sabre", "baikal": "sabre", "fastmail": "cyrus", "mailbox.org": "ox",
        "open-xchange": "ox",
    ]

    /// The hosts of services known by their address, with their product.
    static let byHost = [
        (host: "icloud.com", product: "icloud"), (host: "mailbox.org", product: "ox"),
        (host: "fastmail.com", product: "cyrus"),
    ]

    /// The facts of the product the config calls `name` (or one of its other names); nil for a
    /// name calgw does not know.
    public static func named(_ name: String) -> ServerFacts? {
        let name = name.lowercased()
        let product = aliases[name] ?? name
        return known.first { $0.product.name == product }
    }

    /// The config names of the known products and their other names, for a message listing them.
    public static var names: [String] { known.map(\.product.name) + aliases.keys.sorted() }

    /// The facts of the server at `url` that answered with `identity`: known by its URL
    /// (Google's CalDAV endpoint, Graph), else by the product headers of its answers, else
    /// ``generic``.
    public static func detected(url: URL?, identity: ServerIdentity = ServerIdentity()) -> ServerFacts {
        productName(url: url, identity: identity).flatMap(named) ?? generic
    }

    /// The config name of the product at `url` that answered with `identity`; nil when neither
    /// names one.
    static func productName(url: URL?, identity: ServerIdentity) -> String? {
        if let url, url.host?.lowercased() == "graph.microsoft.com" { return "graph" }
        if let url, GoogleCalDAV.recognises(url) { return "google" }
        if let host = url?.host?.lowercased(),
            let known = byHost.first(where: { host == $0.host || host.hasSuffix("." + $0.host) })
        {
            return known.product
        }
        if let named = byVersionHeader.first(where: { identity.header($0.header) != nil }) { return named.product }
        return productName(byServerHeader: identity.header("Server"))
    }

    /// The products that name themselves in a header of their own on every answer.
    static let byVersionHeader = [
        (header: "X-DAViCal-Version", product: "davical"), (header: "X-Sabre-Version", product: "sabre"),
    ]

    /// The words of a `Server:` header that name a product. SOGo answers PROPFIND and OPTIONS
    /// with `Server: SOPE 4.9.37/WebDAV` (its framework).
    static let byServerHeader = [
        (word: "sogo", product: "sogo"), (word: "sope", product: "sogo"), (word: "cyrus", product: "cyrus"),
        (word: "xandikos", product: "xandikos"), (word: "radicale", product: "radicale"),
        // Xandikos answers as the aiohttp server it runs on (`Python/3.11 aiohttp/3.14.5`); no
        // other CalDAV server calgw knows of does.
        (word: "aiohttp", product: "xandikos"),
    ]

    /// The product a `Server:` header names (`SOPE 4.9.37/WebDAV`, `Cyrus-HTTP/3.6`).
    static func productName(byServerHeader header: String?) -> String? {
        guard let header = header?.lowercased() else { return nil }
        return byServerHeader.first { header.hasPrefix($0.word) || header.contains(" \($0.word)") }?.product
    }

    /// `base` named `name` (`title` in messages), changed by `change`.
    private static func with(
        _ base: ServerFacts, _ name: String, _ title: String, _ change: (inout ServerFacts) -> Void
    ) -> ServerFacts {
        var facts = base
        facts.product = ServerProduct(name)
        facts.title = title
        change(&facts)
        return facts
    }
}
