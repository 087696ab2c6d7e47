import CalDAV
import Foundation
import HTTP
import VDir

/// Making a calendar (MKCALENDAR) for an account pair's new folder, and what is said when it
/// is not made. Google's CalDAV makes none (its guide: MKCALENDAR is not supported): on its
/// endpoint calgw never asks, and says how to make one in Google Calendar.
///
/// A refusal (403, 405, 409, 501) is believed only of an href that is still empty: a server
/// that made the calendar and lost its answer (the connection dropped on the way back) refuses
/// the next MKCALENDAR because the calendar exists, and that calendar is then the folder's.
/// A refusal of an empty href is kept for that folder alone (the mapping's `refused`), so later
/// runs do not ask again for it; it says nothing of the other folders.
enum CalendarMaking {
    /// What became of a request to make a folder's calendar.
    enum Outcome: Sendable {
        /// The provider made the calendar, at this href.
        case made(CollectionHref)
        /// The calendar was already there, made by an earlier request whose answer was lost.
        case found(CollectionHref)
        /// The provider makes no calendar there (the href stays empty): its refusal.
        case refused(any Error)
    }

    /// Makes the calendar at `url` (whose path is `href`) for `folder`, or finds that it is
    /// there already.
    /// - Throws: the MKCALENDAR's error when it failed otherwise (no answer and nothing made,
    ///   a server fault), or the PROPFIND's when the href could not be looked at.
    static func make(
        _ url: URL, href: CollectionHref, for folder: VDirectory, named name: String, client: CalDAVClient
    ) async throws -> Outcome {
        do {
            try await client.makeCalendar(
                url, displayName: folder.metadata(.displayName) ?? name, color: folder.metadata(.color))
            return .made(href)
        } catch let error as HTTPError where isRefusal(error) || error.code == .connectionFailed {
            // The server may have made it before its answer was lost: look before concluding.
            if try await client.calendar(at: url) != nil { return .found(href) }
            if isRefusal(error) { return .refused(error) }
            throw error
        }
    }

    /// Whether `error`, the answer to a MKCALENDAR, is a refusal: not allowed, not supported,
    /// or something is there already (rather than a failure to retry).
    static func isRefusal(_ error: any Error) -> Bool {
        guard let error = error as? HTTPError, let status = error.status else { return false }
        return [403, 405, 409, 501].contains(status)
    }

    /// The note for a new folder `name` that stays in the vdir on a server that makes no
    /// calendars (``ServerFacts/CalendarMaking/never(advice:)``): where to make one instead.
    static func note(folder name: String, unmadeBecause advice: String) -> String {
        "new folder \(name)/ stays in the vdir: \(advice); the next run copies it into a folder of its own, named by "
            + "its id, where you can move the files of \(name)/"
    }

    /// The note for a new folder `name` that stays in the vdir: what the server answered.
    static func note(folder name: String, refusal: (any Error)?) -> String {
        let status = (refusal as? HTTPError)?.status.map { " (MKCALENDAR answered \($0))" } ?? ""
        return "new folder \(name)/ stays in the vdir: the server made no calendar for it\(status); make one "
            + "in the server's own app, and the next run copies it into a folder of its own, where you can move "
            + "the files of \(name)/"
    }
}
