import Foundation

extension TestProxies {
    /// Google Calendar's CalDAV endpoint as its guide and its users' reports describe it
    /// (`google_proxy.py`), in front of `upstream`; every behaviour is off unless asked for.
    public struct GoogleBehaviours: Sendable {
        /// MKCALENDAR and MKCOL answer 405.
        public var noMkcalendar = false
        /// `honour`, `ignore` (dropped before forwarding) or `refuse` (400) `If-None-Match`.
        public var ifNoneMatch = "honour"
        /// A PUT's answer has no ETag.
        public var noPutETag = false
        /// Paths of collections whose listings carry two hrefs that answer 404 (`…_R<date>`).
        public var phantomCollections: [String] = []
        /// A PUT with If-Match of an event with an RRULE answers 409.
        public var recurringUpdateConflict = false
        /// The next `throttleCount` requests (of `throttleMethods`, or any) answer 403
        /// `rateLimitExceeded` or 429; nil for none.
        public var throttle: Int?
        public var throttleCount = 1
        public var throttleMethods = ""
        /// A PUT of a VTODO or VJOURNAL answers 400.
        public var noVTODO = false
        /// The file where the mails Google would send are noted (``TestProxies/googleMails(in:)``):
        /// for each PUT of a changed meeting and each DELETE of one, whatever its marks.
        public var scheduleLedger: URL?
        /// Every Nth request of `deferMethods` answers 403 with an empty DAV error (a deferral).
        public var deferEvery: Int?
        /// The first N requests of `deferMethods` answer so.
        public var deferFirst: Int?
        /// The methods deferred, comma-separated (default PUT).
        public var deferMethods = "PUT"
        /// After ``TestProxy/expireGoogleSyncTokens()``, the next sync-collection with a token on
        /// each collection answers this status once; nil for never.
        public var expiredTokenStatus: Int?
        /// A sync-collection without a token answers 400.
        public var noInitialSyncCollection = false
        /// A PUT of an object with a UID of a series Google split (`…_R<date>@google.com`) answers 400.
        public var refuseSplitUIDs = false
        /// A PUT with If-Match of a recurring event with attendees answers 403 on every try.
        public var recurringGuestsUpdate403 = false
        /// Google's URL shape (`/caldav/v2/<id>/events/`) over the upstream's paths, when set.
        public var shape: GoogleShape?
        /// Other people's busy time for the Calendar API's freeBusy.query: an address and its
        /// `START/END` periods (RFC 3339, UTC); anyone else is answered `notFound`.
        public var freeBusy: [String: [String]] = [:]

        public init() {}

        var arguments: [String] {
            var out = ["--if-none-match", ifNoneMatch]
            if noMkcalendar { out.append("--no-mkcalendar") }
            if noPutETag { out.append("--no-put-etag") }
            for path in phantomCollections { out += ["--phantom-collection", path] }
            if recurringUpdateConflict { out.append("--recurring-update-conflict") }
            if let throttle {
                out += ["--throttle", String(throttle), "--throttle-count", String(throttleCount)]
                if !throttleMethods.isEmpty { out += ["--throttle-methods", throttleMethods] }
            }
            if noVTODO { out.append("--no-vtodo") }
            if let scheduleLedger { out += ["--schedule-ledger", scheduleLedger.path] }
            if let deferEvery { out += ["--defer-every", String(deferEvery)] }
            if let deferFirst { out += ["--defer-first", String(deferFirst)] }
            if deferEvery != nil || deferFirst != nil { out += ["--defer-methods", deferMethods] }
            if let expiredTokenStatus { out += ["--expired-token-status", String(expiredTokenStatus)] }
            if noInitialSyncCollection { out.append("--no-initial-sync-collection") }
            if refuseSplitUIDs { out.append("--refuse-split-uids") }
            if recurringGuestsUpdate403 { out.append("--recurring-guests-update-403") }
            if let shape { out += shape.arguments }
            for (who, periods) in freeBusy.sorted(by: { $0.key < $1.key }) {
                out += ["--free-busy", "\(who)=\(periods.joined(separator: ","))"]
            }
            return out
        }
    }

    /// Google's URL shape served over an upstream account: the account's principal, its home
    /// listing `calendars`, each at `/caldav/v2/<id>/events/` (see `google_paths.py`).
    public struct GoogleShape: Sendable {
        /// The account's address, the primary calendar's id.
        public var account: String
        /// The upstream path of the account's calendar home.
        public var upstreamHome: String
        /// Each calendar's Google id and the upstream path of its collection.
        public var calendars: [(id: String, upstreamPath: String)]
        /// How `@` is written in the hrefs of answers: `encoded` (`%40`) or `mixed`.
        public var atSpelling = "encoded"

        public init(account: String, upstreamHome: String, calendars: [(id: String, upstreamPath: String)]) {
            self.account = account
            self.upstreamHome = upstreamHome
            self.calendars = calendars
        }

        var arguments: [String] {
            ["--google-account", account, "--upstream-home", upstreamHome, "--at-spelling", atSpelling]
                + calendars.flatMap { ["--google-calendar", "\($0.id)=\($0.upstreamPath)"] }
        }

        /// The path of the calendar `id` on the proxy, `@` written as given.
        public static func calendarPath(_ id: String) -> String { "/caldav/v2/\(id)/events/" }

        /// The principal's path on the proxy.
        public var principalPath: String { "/caldav/v2/\(account)/user" }
    }

    /// Starts `google_proxy.py` in front of `upstream` with `behaviours`.
    public static func google(upstream: URL, _ behaviours: GoogleBehaviours) throws -> TestProxy {
        try start("google_proxy.py", upstream: upstream, arguments: behaviours.arguments)
    }
}

/// A mail Google would have sent for a write through the proxy (`--schedule-ledger`).
public struct GoogleMail: Sendable, CustomStringConvertible {
    /// `REQUEST` for a meeting written, `CANCEL` for one deleted.
    public var method: String
    public var uid: String
    /// The attendee's address, without `mailto:`, lower-cased.
    public var attendee: String

    public var description: String { "\(method) \(uid) → \(attendee)" }
}

extension TestProxies {
    /// The mails noted in the ledger `file`, in order; none when the file is not there yet.
    public static func googleMails(in file: URL) throws -> [GoogleMail] {
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        return try String(contentsOf: file, encoding: .utf8).split(separator: "\n").compactMap { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                return nil
            }
            return GoogleMail(
                method: object["method"] as? String ?? "", uid: object["uid"] as? String ?? "",
                attendee: object["attendee"] as? String ?? "")
        }
    }
}

extension TestProxy {
    /// Has the Google proxy forget the sync tokens it gave (`--expired-token-status`).
    public func expireGoogleSyncTokens() async throws {
        let r = try await ProcessRunner.run(
            "curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST",
                url.absoluteString + "_google/expire-sync-tokens",
            ])
        guard r.stdoutText == "204" else {
            throw ProcessFailure(command: "POST /_google/expire-sync-tokens", status: -1, stderr: r.stdoutText)
        }
    }
}
