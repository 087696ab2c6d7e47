import CalDAV
import Foundation

/// Whether an account pair may make a calendar (MKCALENDAR) for a new folder, and what it says
/// when it may not. Google's CalDAV makes none (its guide: MKCALENDAR is not supported): on
/// its endpoint calgw never asks, and says how to make one in Google Calendar. Another server
/// that refuses (403, 405, 501) is noted in the mapping, and later runs do not ask it again.
enum CalendarMaking {
    /// Whether `remote` is Google Calendar's CalDAV endpoint:
    /// `https://apidata.googleusercontent.com/caldav/v2/…`.
    static func isGoogle(_ remote: URL) -> Bool {
        let host = remote.host?.lowercased() ?? ""
        return host == "apidata.googleusercontent.com" || host.hasSuffix(".googleusercontent.com")
            || remote.path.hasPrefix("/caldav/v2/")
    }

    /// Whether `error`, the answer to a MKCALENDAR, says the server makes no calendars for
    /// this account: not allowed, not supported (rather than a failure to retry).
    static func isRefusal(_ error: any Error) -> Bool {
        guard let error = error as? CalDAVError, let status = error.status else { return false }
        return [403, 405, 501].contains(status)
    }

    /// The note for a new folder `name` that stays in the vdir: on Google, how to make the
    /// calendar there; elsewhere, what the server answered.
    static func note(folder name: String, google: Bool, refusal: (any Error)?) -> String {
        if google {
            return "new folder \(name)/ stays in the vdir: Google makes no calendars over CalDAV; make one in Google "
                + "Calendar (Settings, Add calendar, Create new calendar); the next run copies it into a folder of "
                + "its own, named by its id, where you can move the files of \(name)/"
        }
        let status = (refusal as? CalDAVError)?.status.map { " (MKCALENDAR answered \($0))" } ?? ""
        return "new folder \(name)/ stays in the vdir: the server makes no calendars for calgw\(status); make one "
            + "in the server's own app, and the next run copies it into a folder of its own, where you can move "
            + "the files of \(name)/"
    }
}
