/// 128 bits standing for a string, kept in place of it where a run must remember every item it
/// has seen (the hrefs of a streamed answer, the keys a first pull took): a string per item
/// would make memory grow with the calendar (the href of a UUID-named event costs 128 bytes of
/// heap; its digest 16, held inline).
///
/// The two halves are the string's hash (`Hasher`, keyed at random per process) after two
/// different salts, so digests follow `String`'s equality: strings that are canonically
/// equivalent have one digest, as they are one key. Two strings that differ share a digest
/// with a chance of about n² / 2¹²⁹ among n strings: 10⁻²⁷ for a million. A digest means
/// nothing outside the process that made it.
struct StringDigest: Hashable, Sendable {
    private let high: Int
    private let low: Int

    init(_ string: String) {
        high = Self.hash(string, salt: 0x6869_6768)
        low = Self.hash(string, salt: 0x6c6f_77)
    }

    /// One word fed to a set's or dictionary's hasher: each is a keyed hash already, and equal
    /// digests have equal words. (Both words cost a set's insert a third more.)
    func hash(into hasher: inout Hasher) { hasher.combine(high) }

    private static func hash(_ string: String, salt: UInt32) -> Int {
        var hasher = Hasher()
        hasher.combine(salt)
        hasher.combine(string)
        return hasher.finalize()
    }
}
