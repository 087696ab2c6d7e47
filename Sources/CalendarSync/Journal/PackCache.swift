import Foundation

extension Journal {
    /// The packs of merge bases a journal read (``BasePack``), kept by their ids within a budget
    /// of bytes, the least recently read dropped first: a run that reads many bases (a mass
    /// deletion's check reads every deleted item's) reads each pack once, not once a base. A
    /// pack's bytes never change: its id is never given again (`AUTOINCREMENT`).
    struct PackCache {
        /// The most bytes of bases kept: 16 MiB, about 128 packs of events.
        static let budget = 16 << 20

        private var packs: [Int64: (bases: Data, lastRead: Int)] = [:]
        private var bytes = 0
        private var reads = 0

        /// The bases of pack `id` when kept.
        mutating func bases(of id: Int64) -> Data? {
            guard let kept = packs[id] else { return nil }
            reads += 1
            packs[id]?.lastRead = reads
            return kept.bases
        }

        /// Keeps the bases of pack `id`, dropping the least recently read until they fit.
        mutating func keep(_ bases: Data, of id: Int64) {
            while bytes + bases.count > Self.budget,
                let oldest = packs.min(by: { $0.value.lastRead < $1.value.lastRead })
            {
                bytes -= oldest.value.bases.count
                packs[oldest.key] = nil
            }
            reads += 1
            bytes += bases.count
            packs[id] = (bases, reads)
        }
    }
}
