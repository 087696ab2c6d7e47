import Foundation
import ICalendar

extension FreeTime {
    /// What `calgw free` finds, as `--json` gives it: each person's busy intervals (the
    /// person's own under `me`), the slots free for all, and the people who could not be asked.
    public struct Report: Encodable {
        public struct Stretch: Encodable {
            public var start: String
            public var end: String
            public var kind: String?
        }

        public struct Unknown: Encodable {
            public var address: String
            public var reason: String
        }

        public var busy: [String: [Stretch]]
        public var free: [Stretch]
        public var unknown: [Unknown]
        /// The lines `free` prints.
        public var lines: [String] = []

        private enum CodingKeys: String, CodingKey { case busy, free, unknown }
    }

    /// Finds the free slots: the person's busy time from `listing`, and that of `people`
    /// asked through the servers of `pairs` (each person of the first that answers for them).
    public func find(listing: OccurrenceListing, people: [String], pairs: [Pair]) async -> Report {
        var busy: [String: [Interval]] = ["me": Self.busy(in: listing)]
        var unknown: [String: String] = [:]
        // Each person once, in the order given: a person named twice is asked once.
        var seen: Set<String> = []
        var left = people.map(CalendarUser.normalized).filter { seen.insert($0).inserted }
        for pair in pairs where !left.isEmpty {
            guard let directory = try? pair.directory() else { continue }
            for (person, answer) in await directory.freeBusy(of: left, from: from, to: to) {
                switch answer {
                case .success(let intervals): busy[person] = intervals
                case .failure(let failure):
                    unknown[person] = unknown[person].map { "\($0); \(failure.reason)" } ?? failure.reason
                }
            }
            left = left.filter { busy[$0] == nil }
        }
        for person in left where unknown[person] == nil { unknown[person] = "no pair's server can be asked" }
        unknown = unknown.filter { busy[$0.key] == nil }
        let slots = free(Array(busy.values))
        func stretch(_ i: Interval, kind: Bool) -> Report.Stretch {
            Report.Stretch(start: text(max(i.start, from)), end: text(min(i.end, to)), kind: kind ? i.kind : nil)
        }
        var report = Report(
            busy: busy.mapValues { $0.filter { $0.end > from && $0.start < to }.map { stretch($0, kind: true) } },
            free: slots.map { stretch($0, kind: false) },
            unknown: unknown.keys.sorted().map { Report.Unknown(address: $0, reason: unknown[$0]!) })
        report.lines =
            (slots.isEmpty ? ["no free time of \(duration / 60) minutes for everyone"] : slots.map(line))
            + report.unknown.map { "not asked: \($0.address): \($0.reason)" }
        return report
    }
}
