/// The bounds a mail is read within, so that a hostile message costs bounded memory and time.
///
/// Each bound, once passed, ends the reading with a ``MailError`` that names it. The defaults
/// hold every invitation seen in practice (the largest, with inline images, stay under a few
/// megabytes) with room to spare.
public struct MailLimits: Sendable, Equatable {
    /// The largest message read, in bytes. Default 25 MiB, the size most mail providers accept.
    public var maximumSize: Int
    /// The most MIME parts, counted over the whole tree (multiparts included). Default 500.
    public var maximumParts: Int
    /// How deep multiparts (and attached messages) may nest. Default 20; real mail nests 3 or 4.
    public var maximumDepth: Int
    /// The longest physical header line, in bytes. Default 64 KiB: RFC 5322 allows 998 octets,
    /// but real mail folds badly, and To lines of big meetings run long.
    public var maximumHeaderLineLength: Int
    /// The most fields in one header block. Default 1,000.
    public var maximumHeaderFields: Int

    /// Limits with the defaults, or the bounds given.
    public init(
        maximumSize: Int = 25 * 1024 * 1024, maximumParts: Int = 500, maximumDepth: Int = 20,
        maximumHeaderLineLength: Int = 64 * 1024, maximumHeaderFields: Int = 1000
    ) {
        self.maximumSize = maximumSize
        self.maximumParts = maximumParts
        self.maximumDepth = maximumDepth
        self.maximumHeaderLineLength = maximumHeaderLineLength
        self.maximumHeaderFields = maximumHeaderFields
    }
}
