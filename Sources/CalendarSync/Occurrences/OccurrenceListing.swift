import Failures
import Foundation
import ICalendar
import Recurrence
import VDir

/// The occurrences of a set of .ics files in a window, ready to print: shared by `expand`
/// (files named on the command line) and `list` (a pair's vdir).
public struct OccurrenceListing {
    /// One occurrence, and the file it came from.
    public struct Entry {
        /// The occurrence.
        public var occurrence: Occurrence
        /// Index into `sources`.
        public var source: Int
    }

    /// The occurrences, sorted by start, then UID, then end.
    public var entries: [Entry] = []
    /// The resolver, href and calendar of each file with occurrences in `entries`.
    public var sources: [(resolver: TimeZoneResolver, href: String?, calendar: String?)] = []
    /// Files that could not be read or parsed, with the reason (reported on stderr).
    public var problems: [(file: String, message: String)] = []
    /// What was listed only in part, with the reason: an RRULE that cannot be read, a
    /// misspelled END read past (reported on stderr as warnings; the rest of the file is listed).
    public var warnings: [(file: String, message: String)] = []
    /// What the listing index did, per root, for `-v`.
    public var indexNotes: [String] = []
    /// The person's calendar addresses, normalised (``CalendarUser/normalized(_:)``), to
    /// show their own answer to the meetings they attend; empty: not known.
    public var ownAddresses: Set<String> = []

    /// The person's PARTSTAT on `event` (NEEDS-ACTION when their ATTENDEE has none, as RFC
    /// 5545 says); nil when not among its attendees, or when the event is not a meeting.
    public func ownAnswer(_ event: Component) -> String? {
        guard !ownAddresses.isEmpty, event["ORGANIZER"] != nil,
            let own = OwnPart.attendee(event, addresses: ownAddresses),
            BrokenCalendarUser.isAddress(event.properties[own.index].value)
        else { return nil }
        // A broken line (a space for the colon) is named among the warnings, not shown as an answer.
        return own.answer
    }

    /// A sentence for each RRULE of `expansion` no reader can take, naming its event's UID,
    /// the value and why: its series is listed without it.
    static func unreadableRules(in expansion: CalendarExpansion) -> [String] {
        expansion.series.flatMap { series in
            series.unreadableRules.map { value in
                var reason = "unreadable"
                let tzid = series.master?["DTSTART"]?.dateTime?.tzid
                do { _ = try RecurrenceRule(parsing: value, tzid: tzid) } catch { reason = CauseChain.text(of: error) }
                let uid = series.master?["UID"]?.text ?? "an event without a UID"
                return "\(uid): \(reason) (RRULE:\(value)); only its other occurrences (DTSTART, RDATE) are listed"
            }
        }
    }

    /// A sentence for a misspelled END read past: the line, what it closes, and that the
    /// file stays refused where it must be sound.
    static func readPast(_ error: ICalendarSyntaxError) -> String {
        "\(error.line): \(error.reason) (read as its END; calgw lint and sync refuse the file until the line is fixed)"
    }

    /// Expands every file over [from, to), reading floating times and dates in `zone`, or in
    /// the zone a calendar declares (`DeclaredCalendarZone`) for its floating times.
    /// - Parameter calendars: the calendar each file belongs to (an account pair's folder
    ///   name), shown as a column and a `calendar` key; empty for none.
    public init(
        files: [URL], from: Int64, to: Int64, zone: any ZoneRules, hrefs: Bool, includeCancelled: Bool = false,
        calendars: [URL: String] = [:]
    ) {
        let window = ExpansionWindow(from: from, to: to, zone: zone, includeCancelled: includeCancelled)
        let paths = files.map(\.path)
        Self.expandInOrder(paths.count, at: { paths[$0] }, in: window) { k, file in
            add(file, href: hrefs ? files[k].lastPathComponent : nil, calendar: calendars[files[k]])
        }
        sortEntries()
    }

    /// Where and how files are expanded.
    struct ExpansionWindow: Sendable {
        var from: Int64
        var to: Int64
        /// The zone floating times and dates are read in.
        var zone: any ZoneRules
        var includeCancelled: Bool
    }

    /// One file read, parsed and expanded over a window: what ``add(_:href:calendar:)`` takes.
    struct ExpandedFile: Sendable {
        var path: String
        /// Nil when the file could not be read or parsed (`problem` says why).
        var expansion: CalendarExpansion?
        var occurrences: [Occurrence] = []
        var problem: String?
        /// Where its occurrences can be, when asked for and the file was read.
        var reach: OccurrenceReach?
        /// The misspelled ENDs read past and a meeting's line that holds no address, in words (warnings).
        var readPast: [String] = []
    }

    /// Reads, parses and expands the file at `path` over `window`; with `reach`, also says
    /// where its occurrences can be. A path, not a URL: Foundation checks a URL's text each
    /// time its path is asked for, a sixth of a small file's expansion.
    static func expand(_ path: String, in window: ExpansionWindow, reach: Bool = false) -> ExpandedFile {
        var bytes: [UInt8]
        if let read = WholeFile.read(path) {
            bytes = read
        } else {
            do {
                bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path, isDirectory: false)))
            } catch {
                // In a few words ("no such file"), not Foundation's error record.
                return ExpandedFile(path: path, problem: ReadFailure.words(error, path: path))
            }
        }
        let parsed: ParsedCalendar
        do {
            // A misspelled END (END:VTOOD) is read past, as other readers do: the events the
            // file holds are listed, and the line is named.
            parsed = try bytes.withUnsafeBufferPointer { try ICalendarParser(readsPastMisspelledEnds: true).parse($0) }
        } catch {
            return ExpandedFile(path: path, problem: "\(error)")
        }
        // Floating times of a calendar that names its zone (X-WR-TIMEZONE) are read in it;
        // the file itself is left as it is.
        let expansion = CalendarExpansion(components: parsed.components.map(DeclaredCalendarZone.applied(to:)))
        return ExpandedFile(
            path: path, expansion: expansion,
            occurrences: expansion.occurrences(
                from: window.from, to: window.to, floatingZone: window.zone, includeCancelled: window.includeCancelled),
            reach: reach ? expansion.reach() : nil,
            readPast: parsed.readPast.map(Self.readPast)
                + (BrokenCalendarUser.first(in: parsed.components).map { ["\($0.line): \($0.reason)"] } ?? []))
    }

    /// Adds what expanding one file found: its occurrences, and its problem or warnings.
    mutating func add(_ file: ExpandedFile, href: String?, calendar: String?) {
        if let problem = file.problem { problems.append((file.path, problem)) }
        guard let expansion = file.expansion else { return }
        warnings += file.readPast.map { (file.path, $0) }
        warnings += Self.unreadableRules(in: expansion).map { (file.path, $0) }
        // A source only for a file with occurrences to show: a first listing reads every file,
        // and a source each (its resolver and name) took 100 MB of a 1,000,000-file listing.
        guard !file.occurrences.isEmpty else { return }
        let source = sources.count
        sources.append((expansion.resolver, href, calendar))
        // A series out of proportion (an invitation recurring every second) is listed only in part.
        if file.occurrences.count > Self.occurrencesPerFile {
            let uid = file.occurrences.first?.uid ?? "?"
            warnings.append(
                (
                    file.path,
                    "\(uid): \(file.occurrences.count) occurrences in the window; the first \(Self.occurrencesPerFile) are listed"
                ))
        }
        for o in file.occurrences.prefix(Self.occurrencesPerFile) {
            entries.append(Entry(occurrence: o, source: source))
        }
    }

    /// The most occurrences one file adds to a listing (a year of an event every hour is 8,760).
    static let occurrencesPerFile = 10_000

    /// Files expanded a batch at a time on every core, handed to `body` one by one in order.
    static let batchSize = 256

    /// Expands `count` files (the path of each index given by `file`) on every core and hands
    /// each result to `body` (with its index) in order; a batch at a time, so that a listing
    /// of 100,000 files never holds more than a batch of them, nor their 100,000 paths.
    /// - Parameter reach: whether the file at an index needs its reach.
    static func expandInOrder(
        _ count: Int, at file: (Int) -> String, in window: ExpansionWindow, reach: (Int) -> Bool = { _ in false },
        body: (Int, ExpandedFile) -> Void
    ) {
        var start = 0
        while start < count {
            let end = min(start + batchSize, count)
            let batch = (start..<end).map { (path: file($0), reach: reach($0)) }
            let expanded = batch.mappedOnEveryCore(minimum: 2, eachAlone: true) { file in
                expand(file.path, in: window, reach: file.reach)
            }
            for (k, file) in expanded.enumerated() { body(start + k, file) }
            start = end
        }
    }

    /// Sorts the occurrences by start, then UID, then end.
    mutating func sortEntries() {
        entries.sort { a, b in
            let x = a.occurrence, y = b.occurrence
            if x.startInstant != y.startInstant { return x.startInstant < y.startInstant }
            if x.uid != y.uid { return x.uid < y.uid }
            return x.endInstant < y.endInstant
        }
    }

    /// The JSON array of CLI.md.
    public func records() -> [OccurrenceRecord] {
        entries.map {
            var record = OccurrenceRecord(
                $0.occurrence, resolver: sources[$0.source].resolver, href: sources[$0.source].href)
            record.calendar = sources[$0.source].calendar
            record.ownParticipationStatus = ownAnswer($0.occurrence.component)
            return record
        }
    }

    /// A time of day as the tables and reminders show it: `09:05`.
    public static func hm(_ l: LocalDateTime) -> String {
        let (h, m) = (l.time.hour, l.time.minute)
        guard (0..<100).contains(h), (0..<100).contains(m) else {
            return (h < 10 ? "0" : "") + String(h) + ":" + (m < 10 ? "0" : "") + String(m)
        }
        // Five digits and a colon written in place: a string of one piece, made thousands of times a table.
        return String(unsafeUninitializedCapacity: 5) { b in
            (b[0], b[1], b[2], b[3], b[4]) = (
                0x30 + UInt8(h / 10), 0x30 + UInt8(h % 10), 0x3A, 0x30 + UInt8(m / 10), 0x30 + UInt8(m % 10)
            )
            return 5
        }
    }
}
