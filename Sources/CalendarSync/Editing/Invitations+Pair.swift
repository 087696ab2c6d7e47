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
    }

    /// Reads every item file of `pair`'s local side (a vdir, an account's calendars, or its
    /// single file) for the invitations awaiting the person at `addresses`. A file that cannot
    /// be read is passed over.
    public static func scan(_ pair: Pair, addresses: [String]) -> PairScan {
        let root = pair.local.url
        let files: [URL]
        if case .singleFile(let url) = pair.local {
            files = [url]
        } else {
            files = ListedFiles.local(folder: root).urls
        }
        var scan = PairScan()
        for file in files {
            guard let data = try? Data(contentsOf: file) else { continue }
            let calendar: Component
            do {
                guard let parsed = try ICalendarParser().parse(data).calendar else { continue }
                calendar = parsed
            } catch let error as ICalendarSyntaxError {
                // A meeting in it would be left out without a word: the file and line are named.
                if data.range(of: Data("ATTENDEE".utf8)) != nil {
                    scan.unreadable.append((file.path, error.line, error.reason))
                }
                continue
            } catch { continue }
            // An attendee line a hand edit broke (`ATTENDEE;PARTSTAT=NEEDS-ACTION mailto:…`, a
            // space for the colon) reads as no address: named, never passed over in silence.
            if let broken = BrokenCalendarUser.first(in: calendar.components) {
                scan.unreadable.append((file.path, broken.line, broken.reason))
                continue
            }
            let folder = file.deletingLastPathComponent()
            let account = pair.isAccount && folder.standardizedFileURL.path != root.standardizedFileURL.path
            let resolver = TimeZoneResolver(calendar: calendar)
            scan.unclaimed += unclaimed(in: calendar, addresses: addresses)
            for invitation in awaiting(in: calendar, addresses: addresses) {
                scan.found.append(
                    Found(
                        invitation: invitation, file: file, calendar: folder.lastPathComponent,
                        inAccountCalendar: account, start: invitation.startValue.map { shown($0, resolver: resolver) },
                        occurrence: invitation.occurrenceStart.map { shown($0, resolver: resolver).text }))
            }
        }
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
