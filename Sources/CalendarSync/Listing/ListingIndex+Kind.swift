import Crypto
import Foundation

extension ListingIndex {
    /// What an index is kept for, and so what its entries' spans and facts say. Each kind is
    /// a file of its own (in its folder of the cache), kept by the commands that read through
    /// it, under the same rules of freshness as `list`'s: an entry serves only while its
    /// file's stamp is the one it was read at, and not within the racy margin.
    public struct Kind: Hashable, Sendable {
        /// The folder of the cache its indexes go in.
        public let folder: String

        /// `list`'s: spans where occurrences can be (`OccurrenceReach`).
        public static let list = Kind(folder: "list")
        /// `alarms`': spans where alarms can go off (`CalendarAlarms.reach()`); none for a
        /// file without alarms.
        public static let alarms = Kind(folder: "alarms")
        /// The `event` commands': each file's UIDs as facts (``UIDFacts``), no spans.
        public static let uids = Kind(folder: "uids")
        /// `invitations`': what a file holds for the person's addresses (the addresses are in
        /// the fingerprint) as facts (``InvitationFacts``), no spans.
        public static let invitations = Kind(folder: "invitations")
    }

    /// `body` of the facts kept of the file at `index`, when the file can be passed over
    /// whatever it is asked (fresh, and not to be read every time); nil when it must be read.
    /// For the kinds whose entries say only "read it or not", and whose facts say the rest.
    /// (One read of the entry: asked whether it can be passed over, then for its facts, an
    /// entry was read twice, 9 M instructions over 100,000 files.)
    public func withFactsIfPassable<T>(of index: Int, _ body: (UnsafeRawBufferPointer) -> T) -> T? {
        let start = fresh[index]
        guard start >= 0 else { return nil }
        let bytes = buffer.raw
        // Read when matched: within the buffer.
        let entry = Self.entry(at: start, in: bytes)!
        guard !entry.flags.contains(.always) else { return nil }
        return body(UnsafeRawBufferPointer(rebasing: bytes[entry.facts]))
    }

    /// `body` of the facts kept of the file at `index` when it was last read, if its entry is
    /// fresh (empty when none were kept), read where they are stored; nil when it is not fresh.
    func withFacts<T>(of index: Int, _ body: (UnsafeRawBufferPointer) -> T) -> T? {
        let start = fresh[index]
        guard start >= 0 else { return nil }
        let bytes = buffer.raw
        return body(UnsafeRawBufferPointer(rebasing: bytes[Self.entry(at: start, in: bytes)!.facts]))
    }
}

extension ZoneDataFingerprint {
    /// This fingerprint and `words` together: an index kept for some words (the person's
    /// addresses, for `invitations`) is started again when they change.
    public func adding(_ words: [String]) -> ZoneDataFingerprint {
        var data = Data(digest)
        for word in words { data += Data((word + "\n").utf8) }
        return ZoneDataFingerprint(digest: Array(SHA256.hash(data: data)))
    }
}
