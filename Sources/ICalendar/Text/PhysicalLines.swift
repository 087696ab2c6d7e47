/// Splitting text at line feeds so that CRLF text splits too.
///
/// Swift's `Character` view joins `"\r\n"` into one character, so `split(separator: "\n")`
/// and `components(separatedBy: "\n")` leave a CRLF file as one line. These helpers split by
/// Unicode scalar, which every text that can come from an editor, a server or a password file
/// must use.
extension StringProtocol {
    /// The lines between line feeds, split by scalar. A line keeps the carriage return that
    /// stood before its line feed, so joining them with `"\n"` gives the text back unchanged.
    public var physicalLines: [Substring] {
        String(self).unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { Substring($0) }
    }

    /// The text up to its first line break (LF, CRLF or a lone CR), without the break.
    public var firstPhysicalLine: Substring {
        let text = Substring(self)
        guard let end = text.unicodeScalars.firstIndex(where: { $0 == "\n" || $0 == "\r" }) else { return text }
        return Substring(text.unicodeScalars[..<end])
    }
}

extension Substring {
    /// The line without a carriage return at its end.
    public var droppingCarriageReturn: Substring {
        unicodeScalars.last == "\r" ? Substring(unicodeScalars.dropLast()) : self
    }
}
