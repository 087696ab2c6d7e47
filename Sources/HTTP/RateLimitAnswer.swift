import Foundation

/// An answer that says the client asks too fast, to be waited out as a 503 is: 429, or
/// Google's 403 whose JSON error is in the `usageLimits` domain (`rateLimitExceeded`,
/// `userRateLimitExceeded`, `quotaExceeded`: Google Calendar API's "Handle API errors", which
/// CalDAV shares). A 403 for want of a privilege is not one: it is final.
public enum RateLimitAnswer {
    /// The reasons of Google's 403 that a wait can cure.
    static let reasons: Set<String> = ["rateLimitExceeded", "userRateLimitExceeded", "quotaExceeded"]

    /// Whether the answer `status` with `body` is a rate limit.
    public static func matches(status: Int, body: Data) -> Bool {
        if status == 429 { return true }
        guard status == 403, !body.isEmpty, body.count < 65_536,
            let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let error = object["error"] as? [String: Any]
        else { return false }
        let details = (error["errors"] as? [[String: Any]]) ?? []
        return details.contains {
            ($0["domain"] as? String) == "usageLimits" || reasons.contains(($0["reason"] as? String) ?? "")
        } || (error["status"] as? String) == "RESOURCE_EXHAUSTED"
    }
}
