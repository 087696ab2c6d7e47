import Foundation

/// What a calendar server does, where calgw's listings, writes, meeting messages and notes
/// depend on it: declared once per server product (``ServerProduct``, the registry in
/// `ServerFacts+Products.swift`) and read wherever a behaviour differs, instead of a flag per
/// product at each of those places.
///
/// A server is known by what it says of itself (``ServerFacts/detected(url:identity:)``) or by
/// the config (`server = "sogo"`, `api = "google"`); a server calgw does not know gets
/// ``generic``: what RFC 4791 and RFC 6638 say a server does.
public struct ServerFacts: Equatable, Sendable {
    /// The product these facts are of.
    public var product: ServerProduct
    /// Its name in messages (`Google`, `Outlook`, `SOGo`); `the server` for an unknown one.
    public var title: String
    /// The API in front of the calendar when it is not CalDAV, in messages (`Graph`); nil on
    /// CalDAV.
    public var api: String?
    /// Whether it sends a meeting's messages (invitations, updates, replies) itself.
    public var scheduling: Scheduling
    /// How a copy of a meeting, a sync's write rather than the person's action, is stored
    /// without the server sending anything.
    public var meetingCopies: MeetingCopies
    /// Whether it marks on the stored version what it did with each message
    /// (RFC 6638 `SCHEDULE-STATUS`), so calgw can say who was told.
    public var writesScheduleStatus: Bool
    /// Whether it refuses a create (`If-None-Match: *`) onto a name that is taken, rather than
    /// overwriting what is there.
    public var honoursIfNoneMatch: Bool
    /// Whether it refuses a DELETE whose `If-Match` names another version (SOGo deletes whatever
    /// version is there, though it refuses such a PUT).
    public var honoursIfMatchOnDelete: Bool
    /// Whether its reply to an organizer keeps the person's `COMMENT`.
    public var keepsReplyComment: Bool
    /// Whether, and how, it makes calendars for new folders.
    public var makesCalendars: CalendarMaking
    /// Whether it answers "too fast" with a bare 403 and a DAV error that names no condition
    /// (rather than 429 or 503), so that such an answer is waited out and retried.
    public var defersWithBare403: Bool
    /// Whether it takes a calendar's colour only with its alpha (`#RRGGBBAA`), refusing
    /// `#RRGGBB` (SOGo answers 400 "Bad color format"); an opaque alpha is then written.
    public var colorsWithAlpha = false
    /// Properties it adds to each component of what it stores, as whole lines (SOGo adds
    /// `CLASS:PUBLIC` where a component has no CLASS), while answering the write with an ETag
    /// as if it kept the bytes sent. Each write is then read back, so that the vdir gets the
    /// server's version once; and an interrupted run's write is known as landed by its content
    /// without these lines.
    public var addedProperties: [String] = []
    /// Whether its sync token is the second of the latest change, compared with ≥ (SOGo): the
    /// items changed in that second come back on every later call, and a change made in the
    /// same second as a listing leaves the token as it was. Nothing is missed that way, but
    /// the newest item is listed again each run.
    public var tokenCountsSeconds = false
    /// Whether a calendar-query for every object answers with every object. iCloud answers one
    /// filtered on VCALENDAR alone with nothing, Open-Xchange (mailbox.org) one without a time
    /// range with only what is within about a year of now: there the first listing is the
    /// members' listing and multigets, never the query.
    public var queriesFindEverything = true
    /// What the person is told when the server refuses the password, where the server wants
    /// another than the account's own (iCloud's app-specific passwords); nil elsewhere.
    public var passwordAdvice: String?
    /// The components its calendars take, whatever they list, where that is fewer than every
    /// kind (iCloud's take events only over CalDAV: its tasks live in Reminders); nil where a
    /// calendar's own list is to be believed.
    public var takesComponents: Set<String>?
    /// How other people's busy time is asked (`calgw free`).
    public var freeBusy: FreeBusyQuery = .outbox

    /// How a server tells other people's busy time.
    public enum FreeBusyQuery: Equatable, Sendable {
        /// A VFREEBUSY request POSTed to the account's schedule Outbox (RFC 6638 §5).
        case outbox
        /// The Calendar API's `freeBusy.query`, which Google serves beside CalDAV.
        case googleCalendarAPI
        /// Not at all; `reason` says why.
        case none(reason: String)
    }

    /// How a server deals with a meeting's messages.
    public enum Scheduling: Equatable, Sendable {
        /// As its DAV header says (`calendar-auto-schedule`, RFC 6638): asked per account.
        case asAdvertised
        /// It mails a meeting's attendees whenever a meeting is written or deleted, whatever
        /// its DAV header or the client says (Google, Outlook).
        case always
        /// It sends nothing, whatever its DAV header says.
        case never
    }

    /// How a copy of a meeting can be stored without scheduling.
    public enum MeetingCopies: Equatable, Sendable {
        /// The request header `Scheduling-Enabled: F` on PUT and DELETE (Cyrus's switch,
        /// which it honours and stores the object unchanged).
        case schedulingSwitch
        /// The request header `Schedule-Reply: F` on PUT and DELETE, which sabre/dav takes as
        /// "no scheduling for this request" (and ignores `Scheduling-Enabled`).
        case scheduleReply
        /// Only with `SCHEDULE-AGENT=CLIENT` on each attendee of the stored copy (the server
        /// takes no request header to skip scheduling; DAViCal).
        case scheduleAgentClient
        /// Not at all: every write of a meeting mails its attendees, so copies stay where they
        /// are and only the person's own actions are sent (Google, Outlook).
        case never
    }

    /// Whether a server makes calendars.
    public enum CalendarMaking: Equatable, Sendable {
        /// On request (MKCALENDAR, RFC 4791 §5.3.1, on CalDAV); a refusal is believed per folder.
        case onRequest
        /// Never, over this protocol: calgw does not ask; `advice` says where the person
        /// makes one instead.
        case never(advice: String)
    }

    /// Whether a stored copy of a meeting can be written without anyone being told.
    public var storesMeetingCopies: Bool { meetingCopies != .never }
    /// Whether a request header keeps one write from scheduling (so a copy is stored as it is).
    public var switchesSchedulingByHeader: Bool { [.schedulingSwitch, .scheduleReply].contains(meetingCopies) }
}
