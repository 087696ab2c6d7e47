/// TEXT escaping (RFC 5545 §3.3.11): backslash, semicolon, comma and newline.
public enum TextValue {
    /// Decodes `\\`, `\;`, `\,`, `\n`/`\N`. An unknown escape such as `\:` (which some producers
    /// write) keeps the character after the backslash.
    public static func unescape(_ raw: some StringProtocol) -> String {
        let backslash = UInt8(ascii: "\\")
        // Over the text's own bytes when it has them in one piece: most text has no escape.
        guard raw.utf8.withContiguousStorageIfAvailable({ $0.contains(backslash) }) ?? raw.utf8.contains(backslash)
        else { return String(raw) }
        // By scalar, not by Character: a combining mark after `\` or `,` joins it into one
        // Character that no longer matches the delimiter (so do the three functions below).
        var out = String.UnicodeScalarView()
        var escaping = false
        for c in raw.unicodeScalars {
            if escaping {
                switch c {
                case "n", "N": out.append("\n")
                default: out.append(c)
                }
                escaping = false
            } else if c == "\\" {
                escaping = true
            } else {
                out.append(c)
            }
        }
        if escaping { out.append("\\") }
        return String(out)
    }

    /// Encodes a string as TEXT: `\` `;` `,` and newlines are escaped; CR before LF is dropped.
    public static func escape(_ text: some StringProtocol) -> String {
        var out = String.UnicodeScalarView()
        var afterCR = false
        for c in text.unicodeScalars {
            defer { afterCR = c == "\r" }
            switch c {
            case "\\": out.append(contentsOf: "\\\\".unicodeScalars)
            case ";": out.append(contentsOf: "\\;".unicodeScalars)
            case ",": out.append(contentsOf: "\\,".unicodeScalars)
            case "\r": out.append(contentsOf: "\\n".unicodeScalars)
            case "\n": if !afterCR { out.append(contentsOf: "\\n".unicodeScalars) }  // CRLF is one newline
            default: out.append(c)
            }
        }
        return String(out)
    }

    /// Splits a multi-valued TEXT (CATEGORIES, RESOURCES) on unescaped commas and unescapes each.
    public static func splitList(_ raw: some StringProtocol) -> [String] {
        var items: [String] = []
        var current = String.UnicodeScalarView()
        var escaping = false
        for c in raw.unicodeScalars {
            if escaping {
                current.append("\\"); current.append(c); escaping = false
            } else if c == "\\" {
                escaping = true
            } else if c == "," {
                items.append(unescape(String(current))); current = String.UnicodeScalarView()
            } else {
                current.append(c)
            }
        }
        if escaping { current.append("\\") }
        items.append(unescape(String(current)))
        return items
    }

    /// Joins values into a multi-valued TEXT.
    public static func joinList(_ items: [String]) -> String {
        items.map { escape($0) }.joined(separator: ",")
    }
}
