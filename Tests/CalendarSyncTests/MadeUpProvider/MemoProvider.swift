import CalgwTestSupport
import Foundation
import Synchronization
import VDir
@testable import CalendarSync

/// A made-up provider, written as a next provider would be: a folder of its own with a storage
/// (calendars held in memory) and a directory, registered by name. It proves that the pairs,
/// account runs and the config reader need nothing else to sync with it.
struct MemoProvider: CalendarProvider {
    /// Registered under a name of its own per test, which also names the host it claims.
    let name: String
    /// The account's calendars, by href.
    let account: MemoAccount

    func claims(_ url: URL) -> Bool { url.host == "\(name).invalid" }

    var marksSchedulingStatus: Bool { false }

    func storage(at url: URL, settings: ServerSettings, use: ProviderUse) throws -> any CalendarStorage {
        account.calendar(CollectionHref(url.path(percentEncoded: false)))
    }

    func directory(at url: URL, settings: ServerSettings, use: ProviderUse) throws -> any CalendarDirectory {
        MemoDirectory(account: account, home: url)
    }

    func discover(_ url: URL, server: CalendarServer) async throws -> [DiscoveredCalendar] {
        account.hrefs.map { href in
            DiscoveredCalendar(url: URL(string: href.value, relativeTo: url)!.absoluteURL, components: ["VEVENT"])
        }
    }
}

/// The calendars of one made-up account, each an ``InMemoryStorage``.
final class MemoAccount: Sendable {
    private let calendars = Mutex<[CollectionHref: InMemoryStorage]>([:])

    /// The calendar at `href`, made empty when there is none.
    func calendar(_ href: CollectionHref) -> InMemoryStorage {
        calendars.withLock { calendars in
            if let calendar = calendars[href] { return calendar }
            let made = InMemoryStorage()
            calendars[href] = made
            return made
        }
    }

    /// Every calendar's href, sorted.
    var hrefs: [CollectionHref] { calendars.withLock { $0.keys.sorted { $0.value < $1.value } } }

    /// Removes the calendar at `href`.
    func remove(_ href: CollectionHref) { _ = calendars.withLock { $0.removeValue(forKey: href) } }
}

/// The made-up account as an account pair sees it.
struct MemoDirectory: CalendarDirectory {
    let account: MemoAccount
    let home: URL

    var provider: String { "the memo" }
    var place: String { "in the memo" }
    var concurrentCalendars: Int { 2 }
    var calendarIDsMayChange: Bool { false }

    func listing(mapping: CollectionMapping) async throws -> DirectoryListing {
        DirectoryListing(
            calendars: account.hrefs.map { href in
                ListedCalendar(
                    href: href, suggestedName: URL(fileURLWithPath: href.value).lastPathComponent, displayName: nil,
                    color: nil, primed: nil)
            },
            home: home)
    }

    func makeCalendar(for folder: VDirectory, named name: String, proposed: CollectionHref) async throws
        -> CalendarMaking.Outcome
    {
        _ = account.calendar(proposed)
        return .made(proposed)
    }

    func makesNoCalendar(for name: String) -> String? { nil }

    func deleteCalendar(_ href: CollectionHref) async throws { account.remove(href) }

    func storage(for href: CollectionHref, listed: ListedCalendar?) throws -> any CalendarStorage {
        account.calendar(href)
    }

    func account() async throws -> ServerAccount { ServerAccount(addresses: [], autoSchedules: false) }
}
