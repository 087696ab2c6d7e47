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
        /// How many meetings organized by someone else name none of the addresses
        /// (``unclaimed(in:addresses:)``), and the UIDs of the first ``unclaimedKept`` of them
        /// in listing order (a note names a few; a calendar of someone else's meetings can
        /// hold tens of thousands).
        public var unclaimedCount = 0
        public var unclaimed: [String] = []
        /// How many unclaimed UIDs a scan keeps.
        public static let unclaimedKept = 5
        /// Files that name attendees but do not parse, with the line and the reason: their
        /// meetings are not listed.
        public var unreadable: [(file: String, line: Int, reason: String)] = []
        /// How many files were read.
        public var read = 0

        /// Reads the file `file` of `pair` (whose local folder is `root`) and adds what it holds
        /// for the person at `addresses`.
        /// - Returns: what it holds, for the index to keep; nil when it could not be read, or
        ///   names attendees in lines that do not read (read again every time, so that it is
        ///   reported every time).
        mutating func add(_ file: URL, pair: Pair, root: URL, addresses: [String]) -> InvitationFacts.Held? {
            guard let data = try? Data(contentsOf: file) else { return nil }
            let calendar: Component
            do {
                guard let parsed = try ICalendarParser().parse(data).calendar else { return InvitationFacts.Held() }
                calendar = parsed
            } catch let error as ICalendarSyntaxError {
                // A meeting in it would be left out without a word: the file and line are named.
                if data.range(of: Data("ATTENDEE".utf8)) != nil {
                    unreadable.append((file.path, error.line, error.reason))
                    return nil
                }
                return InvitationFacts.Held()
            } catch { return InvitationFacts.Held() }
            // An attendee line a hand edit broke (`ATTENDEE;PARTSTAT=NEEDS-ACTION mailto:…`, a
            // space for the colon) reads as no address: named, never passed over in silence.
            if let broken = BrokenCalendarUser.first(in: calendar.components) {
                unreadable.append((file.path, broken.line, broken.reason))
                return nil
            }
            let resolver = TimeZoneResolver(calendar: calendar)
            var held = InvitationFacts.Held(unclaimed: Invitations.unclaimed(in: calendar, addresses: addresses))
            held.invitations = Invitations.awaiting(in: calendar, addresses: addresses).map { invitation in
                InvitationFacts.Stored(
                    invitation: invitation,
                    start: invitation.startValue.map { Invitations.shown($0, resolver: resolver) },
                    occurrence: invitation.occurrenceStart.map { Invitations.shown($0, resolver: resolver).text })
            }
            add(held, path: file.path, pair: pair, root: root)
            return held
        }

        /// Adds what the file at `path` of `pair` (whose local folder is `root`) holds, as read
        /// now or when the index kept it (its path made only when it holds an invitation).
        mutating func add(_ held: InvitationFacts.Held, path: @autoclosure () -> String, pair: Pair, root: URL) {
            addUnclaimed(held.unclaimed.count) { held.unclaimed[$0] }
            guard !held.invitations.isEmpty else { return }
            let path = path()
            // The folder and its name cut from the path as text: Foundation's URL methods cost
            // tens of thousands of instructions a call, and a calendar can hold thousands of
            // invitations.
            let slash = UInt8(ascii: "/")
            let folder = path.utf8.lastIndex(of: slash).map { String(path[..<$0]) } ?? "."
            let name = folder.utf8.lastIndex(of: slash).map { String(folder[folder.index(after: $0)...]) } ?? folder
            let account =
                pair.isAccount
                && URL(fileURLWithPath: folder).standardizedFileURL.path != root.standardizedFileURL.path
            let file = URL(fileURLWithPath: path, isDirectory: false)
            for one in held.invitations {
                found.append(
                    Found(
                        invitation: one.invitation, file: file, calendar: name, inAccountCalendar: account,
                        start: one.start, occurrence: one.occurrence))
            }
        }

        /// Counts `count` unclaimed UIDs, keeping the first few (`uid(i)` the i-th of them).
        mutating func addUnclaimed(_ count: Int, _ uid: (Int) -> String) {
            for i in 0..<min(count, Self.unclaimedKept - unclaimed.count) { unclaimed.append(uid(i)) }
            unclaimedCount += count
        }

        /// Adds another scan's findings, after this one's.
        mutating func add(_ other: PairScan) {
            found += other.found
            addUnclaimed(other.unclaimedCount) { other.unclaimed[$0] }
            unreadable += other.unreadable
        }
    }

    /// Reads the item files of `pair`'s local side (a vdir, an account's calendars, or its
    /// single file) for the invitations awaiting the person at `addresses`. A file that cannot
    /// be read is passed over.
    ///
    /// With an index of invitations kept in `cache` (``ListingIndex/Kind/invitations``, its
    /// fingerprint carrying the addresses), a file the index knows unchanged is not read: what
    /// it holds for these addresses is taken from the index (``InvitationFacts``). Every other
    /// file is read as without it, and one read for being new or changed is recorded with what
    /// it holds, or to be read every time when it could not be read or names attendees in
    /// lines that do not read (so that it is reported every time).
    public static func scan(_ pair: Pair, addresses: [String], cache: ListingCache? = nil) -> PairScan {
        let root = pair.local.url
        let cache = cache.map {
            var c = $0.of(.invitations)
            c.fingerprint = c.fingerprint.adding(
                [InvitationFacts.version] + Set(addresses.map(CalendarUser.normalized)).sorted())
            return c
        }
        let listing: ListedFiles
        if case .singleFile(let url) = pair.local {
            listing = .single(url, cache: cache)
        } else if pair.isAccount {
            listing = .local(folder: root, cache: cache)
        } else {
            // A vdir read as a sync scans it (its item files, by name), not as `list --local`
            // reads a folder that may hold calendars: a tenth of the work for each name.
            listing = ListedFiles.vdir(root.standardizedFileURL.path, cache: cache).listing
        }
        // How much the index kept of each file it passes over, what it kept whole; nil for a
        // file to read.
        let index = listing.index
        let passed: [InvitationFacts.Summary?] = (0..<listing.count).map { i in
            index?.withFactsIfPassable(of: i, InvitationFacts.summary) ?? nil
        }
        // The others are read and parsed on every core (each alone: a series costs more than
        // a single event), then taken in listing order, as the index records them.
        let reading = passed.indices.filter { passed[$0] == nil }
        var files = reading.map(listing.url(of:)).mappedOnEveryCore(minimum: 2, eachAlone: true) { file in
            var one = PairScan()
            let held = one.add(file, pair: pair, root: root, addresses: addresses)
            return (scan: one, held: held)
        }.makeIterator()
        var scan = PairScan()
        for i in 0..<listing.count {
            if let kept = passed[i], let index {
                // What the index kept is made strings only for an invitation, or for an unclaimed
                // meeting while fewer than a note names are kept.
                if kept.invitations > 0 || (kept.unclaimed > 0 && scan.unclaimed.count < PairScan.unclaimedKept),
                    case .some(.some(let held)) = index.withFacts(of: i, InvitationFacts.decode)
                {
                    scan.add(held, path: listing.path(of: i), pair: pair, root: root)
                } else {
                    scan.unclaimedCount += kept.unclaimed
                }
                continue
            }
            let (one, held) = files.next()!
            scan.read += 1
            scan.add(one)
            guard let index, !index.isFresh(i) else { continue }
            if let held {
                index.record(i, spans: [], facts: InvitationFacts.encode(held))
            } else {
                index.record(i, spans: nil)
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
