import Foundation
import VDir

/// The calendars of one account, as its provider keeps them: all an account pair's run
/// (``AccountRun``) asks of a provider. CalDAV (``CalDAVDirectory``) and Microsoft Graph
/// (``GraphDirectory``) implement it; a next provider needs a directory and a storage, and
/// nothing else.
///
/// Calendars are named by their path (a ``CollectionHref`` ending with `/`), which the
/// account's mapping keeps beside the folder that holds each one.
protocol CalendarDirectory: Sendable {
    /// The provider, as messages name it: "the server", "Outlook".
    var provider: String { get }
    /// Where the provider's calendars are, as messages say it: "on the server", "in Outlook".
    var place: String { get }

    /// How many calendars sync at once: servers serialise writes within a calendar, not
    /// across them; Graph takes few requests at once from one mailbox.
    var concurrentCalendars: Int { get }

    /// Whether a calendar may be listed under another href than it was made or mapped with
    /// (Graph answers a calendar's creation with an id other than the one it lists it by): a
    /// mapped calendar gone from the listing is then the unmapped one of its folder's name.
    var calendarIDsMayChange: Bool { get }

    /// The account's calendars that hold items, each with the folder name a first run gives it.
    /// - Parameter mapping: what earlier runs kept (CalDAV's calendar home, to list it again
    ///   with one request instead of discovering it).
    func listing(mapping: CollectionMapping) async throws -> DirectoryListing

    /// Makes a calendar for the new folder `folder`; `proposed` is where the plan would put
    /// it, for providers that let the client choose.
    /// - Returns: where it was made (or found, made by an earlier request whose answer was
    ///   lost), or why it was not.
    /// - Throws: what failed otherwise (no answer and nothing made, a server fault): the
    ///   folder waits for the next run.
    func makeCalendar(for folder: VDirectory, named name: String, proposed: CollectionHref) async throws
        -> CalendarMaking.Outcome

    /// When the provider makes no calendars for clients at all (Google's CalDAV), the note for
    /// the new folder `name`, saying what to do instead: the provider is then never asked.
    func makesNoCalendar(for name: String) -> String?

    /// Deletes the calendar at `href` with its items.
    /// - Throws: what the provider answered when it refused or failed (Graph keeps a
    ///   mailbox's default calendar, and one holding meetings whose attendees it would mail).
    func deleteCalendar(_ href: CollectionHref) async throws

    /// The storage of the calendar at `href`, primed with what the listing said of it.
    func storage(for href: CollectionHref, listed: ListedCalendar?) throws -> any CalendarStorage

    /// What the provider says of the account: its calendar addresses, whether it schedules.
    func account() async throws -> ServerAccount

    /// Other people's busy time in [from, to), by normalised address (RFC 6638 VFREEBUSY on
    /// CalDAV): each person's intervals, or why they could not be had.
    func freeBusy(of people: [String], from: Int64, to: Int64) async -> [String: Result<
        [FreeTime.Interval], FreeBusyFailure
    >]
}

/// What a directory lists: its calendars, and where new ones are made.
struct DirectoryListing: Sendable {
    /// The calendars that hold items (events or tasks).
    var calendars: [ListedCalendar]
    /// The calendar home, when the provider names one worth keeping for later runs (CalDAV);
    /// nil when new calendars go beside the listed ones, or the provider chooses their place.
    var home: URL?
}

/// One calendar of a directory's listing.
struct ListedCalendar: Sendable {
    /// Its path (ends with `/`).
    var href: CollectionHref
    /// The folder name a first run gives it: the href's last segment on CalDAV (Google's
    /// calendar id), the calendar's name in Outlook. Made safe and unique by the plan.
    var suggestedName: String
    /// Its display name and colour, written to a new folder's metadata files.
    var displayName: String?
    var color: String?
    /// What the listing said of it that its storage can use, for the directory that listed
    /// it alone to read back (on CalDAV its change tokens, so that an unchanged calendar costs
    /// no further request); nil where the listing tells nothing more.
    var primed: (any Sendable)?
}

extension CalendarDirectory {
    /// Other people's busy time in [from, to) as the provider tells it, by normalised
    /// address: each person's intervals, or why they could not be had. This provider is not
    /// asked: every person is named as one that cannot be.
    func freeBusy(of people: [String], from: Int64, to: Int64) async -> [String: Result<
        [FreeTime.Interval], FreeBusyFailure
    >] {
        Dictionary(
            uniqueKeysWithValues: people.map {
                ($0, .failure(FreeBusyFailure("\(provider) is not asked for free-busy time")))
            })
    }
}

/// Why a person's busy time could not be had.
public struct FreeBusyFailure: Error, Sendable, Equatable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
}
