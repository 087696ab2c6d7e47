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
            return out
        }
    }

    /// Starts `google_proxy.py` in front of `upstream` with `behaviours`.
    public static func google(upstream: URL, _ behaviours: GoogleBehaviours) throws -> TestProxy {
        try start("google_proxy.py", upstream: upstream, arguments: behaviours.arguments)
    }
}
