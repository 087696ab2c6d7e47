import Foundation

/// What a server's error page says, in one line, for messages: the reason a plain HTTP
/// answer gives. (WebDAV's `DAV:error` bodies are read by the CalDAV module, which falls back
/// to this.)
public enum ServerText {
    /// The first line of an error page that says something: markup dropped (an HTML page's
    /// title and headings end lines), white space collapsed, lines without three letters
    /// skipped. A server's page may be a whole stack trace (DAViCal's PHP errors); its first
    /// line says what failed, and the client logs the rest at `-v` (see
    /// `CalDAVClient.failure(_:method:url:)`).
    public static func firstMeaningfulLine(of body: Data) -> String? {
        var text = String(decoding: body.prefix(8000), as: UTF8.self)
        text = text.replacingOccurrences(
            of: "</?(title|h[1-6]|p|br|div|pre|li|tr|body|head)\\b[^>]*>", with: "\n",
            options: [.regularExpression, .caseInsensitive])
        text = text.replacingOccurrences(of: "<[^>]+>", with: " ", options: .regularExpression)
        for line in text.split(whereSeparator: \.isNewline) {
            let plain = line.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
            if plain.filter(\.isLetter).count >= 3 { return String(plain.prefix(300)) }
        }
        return nil
    }
}
