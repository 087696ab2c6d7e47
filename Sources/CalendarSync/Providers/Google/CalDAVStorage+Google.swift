import CalDAV
import HTTP
import Foundation
import ICalendar

/// What calgw does differently on Google Calendar's CalDAV endpoint (a remote on
/// `apidata.googleusercontent.com`, or `api = "google"`), besides what its facts say
/// (``ServerFacts/known``): the UIDs it refuses, and the deferral it never lifts.
extension CalDAVStorage {
    /// Google's refusal (400) of an event whose UID is one Google gave a series it split
    /// (`…_R20250101T090000@google.com`), written to another calendar (vdirsyncer #1225, khal
    /// #945); nil for any other failure.
    func splitSeriesRefusal(_ error: HTTPError, data: Data, href: ItemHref) -> GoogleSplitSeriesUID? {
        guard facts.product.name == "google", error.status == 400, let uid = Self.uid(of: data),
            GoogleSplitSeriesUID.matches(uid)
        else {
            return nil
        }
        return GoogleSplitSeriesUID(href: href, uid: uid)
    }

    /// On Google, an update of a recurring meeting still deferred after the retries: Google
    /// answers the same bare 403 when asked too fast and, on every try, to some updates of a
    /// meeting with guests (Outlook CalDAV Synchronizer #423, where the client then deleted
    /// and made the event again, which mailed the guests a cancellation; calgw never does).
    /// The change stays pending, and the message says what to do if it keeps coming; nil for
    /// any other failure.
    func recurringMeetingDeferral(_ error: HTTPError, data: Data, href: ItemHref) -> HTTPError? {
        guard facts.defersWithBare403, error.code == .rateLimited, error.status == 403,
            data.range(of: Data("\nRRULE".utf8)) != nil, MeetingContent.isMeeting(data)
        else { return nil }
        return HTTPError(
            .rateLimited,
            "Google refused this change of a recurring meeting with a 403 that gives no reason, on every retry; "
                + "it answers so when asked too fast, and always to some changes of a meeting with guests (Outlook "
                + "CalDAV Synchronizer #423): the change stays in the vdir and is sent again on the next run; if it is "
                + "refused again, make it in Google Calendar",
            recovery: "run again later, or make the change in Google Calendar (calgw never deletes and remakes the "
                + "meeting, which would mail its guests a cancellation)",
            status: 403, url: error.url, serverReason: error.serverReason)
    }

    /// The UID of the first component of `data` that has one.
    static func uid(of data: Data) -> String? {
        guard let parsed = try? ICalendarParser().parse(data) else { return nil }
        return parsed.components.lazy.flatMap(\.components).compactMap { $0["UID"]?.text }.first
    }
}

/// An event Google refuses to hold because its UID names a series Google split, in another
/// calendar (`…_R<date>@google.com`): the same on every run while the event stays as it is.
public struct GoogleSplitSeriesUID: KeptLocalRefusal, CustomStringConvertible {
    /// Where the write was to go.
    public var href: ItemHref
    /// The event's UID.
    public var uid: String

    /// Whether `uid` is one Google makes for the part of a series split at a date.
    static func matches(_ uid: String) -> Bool {
        uid.range(of: #"_R\d{8}(T\d{6}Z?)?@google\.com$"#, options: [.regularExpression, .caseInsensitive]) != nil
    }

    public var keptReason: String { "Google refuses the UID of a series it split in another calendar" }
    public var keptNote: String {
        "the event stays in the vdir: Google answers 400 to its UID \(uid), which Google gave the part of a "
            + "series it split, in another calendar; copy it with a new UID to have it here "
            + "(it is not sent again until it changes)"
    }
    public var description: String { "\(href): \(keptNote)" }
}
