import Foundation
import ICalendar
import Recurrence

extension Invitations {
    /// One invitation found in a file of a pair's local side.
    public struct Found {
        /// The invitation.
        public var invitation: Invitation
        /// The file holding it.
        public var file: URL
        /// The calendar's folder name: an account's calendar, or the pair's own vdir.
        public var calendar: String
        /// Whether the file is in a calendar of an account pair (an answer names that calendar).
        public var inAccountCalendar: Bool
        /// DTSTART in RFC 3339 with the offset in force then, as `list --json` gives it
        /// (floating times without an offset, dates as dates), and its instant, to sort by.
        public var start: (text: String, instant: Int64)?
        /// The occurrence an answer to one occurrence is for, in RFC 3339 likewise; nil for
        /// the whole event.
        public var occurrence: String?
    }

    /// What the files of a pair's local side hold for the person at some addresses.
    public struct PairScan {
        /// The invitations awaiting their answer, file by file.
        public var found: [Found] = []
        /// The UIDs of meetings organized by someone else that name none of the addresses
        /// (``unclaimed(in:addresses:)``).
        public var unclaimed: [String] = []
        /// Files that name attendees but do not parse, with the line and the reason: their
        /// meetings are not listed.
        public var unreadable: [(file: String, line: Int, reason: String)] = []
        /// How many files were read.
        public var read = 0

        /// Adds what the file `file` of `pair` (whose local folder is `root`) holds for the
        /// person at `addresses`.
        /// - Returns: false when it could not be read.
        mutating func add(_ file: URL, pair: Pair, root: URL, addresses: [String]) -> Bool {
            guard let data = try? Data(contentsOf: file) else { return false }
            let calendar: Component
            do {
                guard let parsed = try ICalendarParser().parse(data).calendar else { return true }
                calendar = parsed
            } catch let error as ICalendarSyntaxError {
                // A meeting in it would be left out without a word: the file and line are named.
                if data.range(of: Data("ATTENDEE".utf8)) != nil {
                    unreadable.append((file.path, error.line, error.reason))
                }
                return true
            } catch { return true }
            // An attendee line a hand edit broke (`ATTENDEE;PARTSTAT=NEEDS-ACTION mailto:…`, a
            // space for the colon) reads as no address: named, never passed over in silence.
            if let broken = BrokenCalendarUser.first(in: calendar.components) {
                unreadable.append((file.path, broken.line, broken.reason))
                return true
            }
            let folder = file.deletingLastPathComponent()
            let account = pair.isAccount && folder.standardizedFileURL.path != root.standardizedFileURL.path
            let resolver = TimeZoneResolver(calendar: calendar)
            unclaimed += Invitations.unclaimed(in: calendar, addresses: addresses)
            for invitation in Invitations.awaiting(in: calendar, addresses: addresses) {
                found.append(
                    Found(
                        invitation: invitation, file: file, calendar: folder.lastPathComponent,
                        inAccountCalendar: account,
                        start: invitation.startValue.map { Invitations.shown($0, resolver: resolver) },
                        occurrence: invitation.occurrenceStart.map { Invitations.shown($0, resolver: resolver).text }))
            }
            return true
        }
    }

    /// Reads the item files of `pair`'s local side (a vdir, an account's calendars, or its
    /// single file) for the invitations awaiting the person at `addresses`. A file that cannot
    /// be read is passed over.
    ///
    /// With an index of invitations kept in `cache` (``ListingIndex/Kind/invitations``, its
    /// fingerprint carrying the addresses), a file the index knows unchanged that held no
    /// invitation for these addresses and no broken meeting is passed over, the UIDs of its
    /// unclaimed meetings taken from the index; every other file is read as without it, and
    /// one read for being new or changed is recorded: read every time when it holds an
    /// invitation or a broken meeting, else with the UIDs of its unclaimed meetings.
    public static func scan(_ pair: Pair, addresses: [String], cache: ListingCache? = nil) -> PairScan {
        let root = pair.local.url
        let cache = cache.map {
            var c = $0.of(.invitations)
            c.fingerprint = c.fingerprint.adding(Set(addresses.map(CalendarUser.normalized)).sorted())
            return c
        }
        let listing: ListedFiles
        if case .singleFile(let url) = pair.local {
            listing = .single(url, cache: cache)
        } else {
            listing = .local(folder: root, cache: cache)
        }
        // The UIDs of each file the index passes over; nil for a file to read.
        let passed: [[String]?] = (0..<listing.count).map { i in
            guard let index = listing.index, index.canPassOver(i) else { return nil }
            return index.withFacts(of: i, UIDFacts.decode) ?? nil
        }
        // The others are read and parsed on every core (each alone: a series costs more than
        // a single event), then taken in listing order, as the index records them.
        let reading = passed.indices.filter { passed[$0] == nil }
        var files = reading.map(listing.url(of:)).mappedOnEveryCore(minimum: 2, eachAlone: true) { file in
            var one = PairScan()
            let readable = one.add(file, pair: pair, root: root, addresses: addresses)
            return (scan: one, readable: readable)
        }.makeIterator()
        var scan = PairScan()
        for i in 0..<listing.count {
            if let unclaimed = passed[i] {
                scan.unclaimed += unclaimed
                continue
            }
            let (one, readable) = files.next()!
            scan.read += 1
            scan.found += one.found
            scan.unclaimed += one.unclaimed
            scan.unreadable += one.unreadable
            guard let index = listing.index, !index.isFresh(i) else { continue }
            if !readable || !one.found.isEmpty || !one.unreadable.isEmpty {
                index.record(i, spans: nil)
            } else {
                index.record(i, spans: [], facts: UIDFacts.encode(one.unclaimed))
            }
        }
        listing.index?.save()
        return scan
    }

    /// `value` in RFC 3339 at its instant (in its own zone, as `list` shows it), and the
    /// instant; floating times and dates as written, at their wall-clock time in UTC.
    static func shown(_ value: DateTimeValue, resolver: TimeZoneResolver) -> (text: String, instant: Int64) {
        switch value.form {
        case .utc:
            return (
                OccurrenceTime.rfc3339(value, instant: value.local.secondsSinceEpoch, zone: nil),
                value.local.secondsSinceEpoch
            )
        case .zoned(let tzid):
            guard let zone = resolver.zone(for: tzid) else {
                return (value.local.isoString, value.local.secondsSinceEpoch)
            }
            let instant = zone.utc(forLocal: value.local)
            return (OccurrenceTime.rfc3339(value, instant: instant, zone: zone), instant)
        case .floating, .date:
            return (
                OccurrenceTime.rfc3339(value, instant: value.local.secondsSinceEpoch, zone: nil),
                value.local.secondsSinceEpoch
            )
        }
    }
}
