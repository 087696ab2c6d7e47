/// TEXT escaping (RFC 5545 §3.3.11): backslash, semicolon, comma and newline.
public enum TextValue {
    /// Decodes `\\`, `\;`, `\,`, `\n`/`\N`. An unknown escape such as `\:` (which some producers
    /// write) keeps the character after the backslash.
    public static func unescape(_ raw: some StringProtocol) -> String {
        guard raw.contains("\\") else { return String(raw) }
        var out = ""
        out.reserveCapacity(raw.utf8.count)
        var escaping = false
        for c in raw {
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
        return out
    }

    /// Encodes a string as TEXT: `\` `;` `,` and newlines are escaped; CR before LF is dropped.
    public static func escape(_ text: some StringProtocol) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for c in text {
            switch c {
            case "\\": out.append("\\\\")
            case ";": out.append("\\;")
            case ",": out.append("\\,")
            case "\n", "\r\n": out.append("\\n")
            case "\r": out.append("\\n")
            default: out.append(c)
            }
        }
        return out
    }

    /// Splits a multi-valued TEXT (CATEGORIES, RESOURCES) on unescaped commas and unescapes each.
    public static func splitList(_ raw: some StringProtocol) -> [String] {
        var items: [String] = []
        var current = ""
        var escaping = false
        for c in raw {
            if escaping { current.append("\\"); current.append(c); escaping = false }
            else if c == "\\" { escaping = true }
            else if c == "," { items.append(unescape(current)); current = "" }
            else { current.append(c) }
        }
        if escaping { current.append("\\") }
        items.append(unescape(current))
        return items
    }

    /// Joins values into a multi-valued TEXT.
    public static func joinList(_ items: [String]) -> String {
        items.map { escape($0) }.joined(separator: ",")
    }
}
