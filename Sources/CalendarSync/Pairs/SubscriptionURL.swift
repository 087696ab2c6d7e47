import Foundation

/// How a config's `remote` names a subscription: `webcal://` and `webcals://` are feeds by
/// definition (fetched over http and https), and an http(s) URL whose path ends in `.ics` is
/// taken for one, since a CalDAV calendar is a collection, never a `.ics` file.
public enum SubscriptionURL {
    /// The URL to fetch and whether the text named a webcal feed; nil when it is no URL.
    public static func remote(_ text: String) -> (URL, Bool)? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else { return nil }
        guard scheme == "webcal" || scheme == "webcals",
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return (url, false) }
        components.scheme = scheme == "webcal" ? "http" : "https"
        guard let translated = components.url else { return nil }
        return (translated, true)
    }

    /// True for an http(s) URL whose path ends in `.ics`.
    public static func looksLikeFeed(_ url: URL) -> Bool {
        ["http", "https"].contains(url.scheme?.lowercased() ?? "") && url.path.lowercased().hasSuffix(".ics")
    }
}
