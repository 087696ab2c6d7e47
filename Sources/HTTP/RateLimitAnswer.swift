import Foundation

/// An answer that says the client asks too fast, to be waited out as a 503 is: 429, or
/// Google's 403 whose JSON error is in the `usageLimits` domain (`rateLimitExceeded`,
/// `userRateLimitExceeded`, `quotaExceeded`: Google Calendar API's "Handle API errors", which
/// CalDAV shares). A 403 for want of a privilege is not one: it is final.
///
/// Google's CalDAV endpoint also defers requests with a 403 whose body is an empty
/// `<D:error xmlns:D="DAV:"/>`, neither JSON nor 429, in some syncs and partway through bulk
/// imports (Outlook CalDAV Synchronizer #303 and #423, sabre-io/dav #1347, calcurse #174).
/// Only a client configured for Google counts that one (`bareDAVError`): another server's
/// bare 403 is its refusal.
public enum RateLimitAnswer {
    /// The reasons of Google's 403 that a wait can cure.
    static let reasons: Set<String> = ["rateLimitExceeded", "userRateLimitExceeded", "quotaExceeded"]

    /// Whether the answer `status` with `body` is a rate limit; with `bareDAVError`, a 403
    /// with an empty `DAV:error` element (or no body at all) is one too.
    public static func matches(status: Int, body: Data, bareDAVError: Bool = false) -> Bool {
        if status == 429 { return true }
        guard status == 403, body.count < 65_536 else { return false }
        if bareDAVError, isBareDAVError(body) { return true }
        guard !body.isEmpty, let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let error = object["error"] as? [String: Any]
        else { return false }
        let details = (error["errors"] as? [[String: Any]]) ?? []
        return details.contains {
            ($0["domain"] as? String) == "usageLimits" || reasons.contains(($0["reason"] as? String) ?? "")
        } || (error["status"] as? String) == "RESOURCE_EXHAUSTED"
    }

    /// An empty body, or an XML document whose only element is an empty `error` (any prefix
    /// bound to `DAV:`): `<D:error xmlns:D="DAV:"/>` or `<d:error xmlns:d="DAV:"></d:error>`.
    static func isBareDAVError(_ body: Data) -> Bool {
        var text = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { return true }
        if text.hasPrefix("<?xml"), let end = text.range(of: "?>") {
            text = String(text[end.upperBound...]).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let squeezed = text.replacingOccurrences(of: "'", with: "\"")
        let name = #"(?:[A-Za-z][\w.-]*:)?error"#
        let pattern = #"^<"# + name + #"\s+xmlns(?::[A-Za-z][\w.-]*)?="DAV:"\s*(?:/>|>\s*</"# + name + #"\s*>)$"#
        return squeezed.range(of: pattern, options: .regularExpression) != nil
    }
}
