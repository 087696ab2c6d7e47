import Foundation

/// Google Calendar's CalDAV endpoint, known by its host (`apidata.googleusercontent.com`) or
/// its URL shape (`/caldav/v2/<calendar>/…`), or named by `api = "google"`
/// (``ServerSettings/google``): everything calgw does differently for Google follows from
/// one of these.
public enum GoogleCalDAV {
    /// Whether `url` is on Google's CalDAV endpoint:
    /// `https://apidata.googleusercontent.com/caldav/v2/…`.
    public static func recognises(_ url: URL) -> Bool {
        let host = url.host?.lowercased() ?? ""
        return host == "apidata.googleusercontent.com" || host.hasSuffix(".googleusercontent.com")
            || url.path.hasPrefix("/caldav/v2/")
    }
}

extension ServerSettings {
    /// These settings, marked Google's when `url` is on Google's endpoint.
    func onGoogle(_ url: URL) -> ServerSettings {
        var settings = self
        settings.google = google || GoogleCalDAV.recognises(url)
        return settings
    }
}
