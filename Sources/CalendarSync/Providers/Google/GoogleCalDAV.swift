import Foundation

/// Google Calendar's CalDAV endpoint, known by its host (`apidata.googleusercontent.com`) or
/// its URL shape (`/caldav/v2/<calendar>/…`), or named by `api = "google"`
/// (``ServerSettings/product``): Google's facts (``ServerFacts/known``) follow from one of these.
public enum GoogleCalDAV {
    /// Whether `url` is on Google's CalDAV endpoint:
    /// `https://apidata.googleusercontent.com/caldav/v2/…`.
    public static func recognises(_ url: URL) -> Bool {
        let host = url.host?.lowercased() ?? ""
        return host == "apidata.googleusercontent.com" || host.hasSuffix(".googleusercontent.com")
            || url.path.hasPrefix("/caldav/v2/")
    }
}
