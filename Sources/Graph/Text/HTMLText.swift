import Foundation

/// The text a person reads in an HTML body, for DESCRIPTION (which is plain text).
///
/// Not an HTML parser: enough for what Outlook and Graph write (a `<head>` with styles, `<p>`,
/// `<div>`, `<br>`, lists, tables, character references). Block ends become line ends (table
/// cells are parted by a space), runs of white space one space, and at most one blank line is
/// kept between paragraphs.
enum HTMLText {
    /// The readable text of `html`, trimmed.
    static func plainText(_ html: String) -> String {
        var out = ""
        var scalars = Substring(html).unicodeScalars[...]
        var skipping: String?  // inside <head>, <style>, <script>: skip until its end tag
        func newline() {
            while out.last == " " { out.removeLast() }
            out.append("\n")
        }
        while let c = scalars.first {
            if c == "<" {
                guard let close = scalars.firstIndex(of: ">") else { break }
                let tag = String(String.UnicodeScalarView(scalars[scalars.index(after: scalars.startIndex)..<close]))
                scalars = scalars[scalars.index(after: close)...]
                let isEnd = tag.hasPrefix("/")
                let name = String(
                    tag.drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber || $0 == "!" }
                ).lowercased()
                if let open = skipping {
                    if isEnd && name == open { skipping = nil }
                    continue
                }
                if !isEnd && ["head", "style", "script", "title"].contains(name) && !tag.hasSuffix("/") {
                    skipping = name
                    continue
                }
                if name == "br" || (isEnd && blockEnds.contains(name)) || (!isEnd && ["p", "div", "tr"].contains(name))
                {
                    if name == "br" || !(out.isEmpty || out.hasSuffix("\n")) { newline() }
                }
                if !isEnd && name == "li" { out.append("- ") }
                if isEnd && (name == "td" || name == "th") { append(" ", to: &out) }
                continue
            }
            scalars = scalars.dropFirst()
            if skipping != nil { continue }
            if c == "&" {
                var entity = ""
                var rest = scalars
                while let e = rest.first, e != ";", entity.unicodeScalars.count < 10 {
                    entity.unicodeScalars.append(e)
                    rest = rest.dropFirst()
                }
                if rest.first == ";", let decoded = decode(entity) {
                    scalars = rest.dropFirst()
                    append(decoded, to: &out)
                    continue
                }
                out.append("&")
                continue
            }
            append(String(c), to: &out)
        }
        // Trim each line, keep at most one blank line in a row, trim the whole.
        var lines: [String] = []
        for line in out.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty && (lines.last?.isEmpty ?? true) { continue }
            lines.append(trimmed)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    /// Tags whose end closes a line.
    private static let blockEnds: Set<String> = [
        "p", "div", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol",
    ]

    /// Appends text, folding HTML white space (space, tab, CR, LF) into single spaces; a
    /// no-break space stays a space.
    private static func append(_ text: String, to out: inout String) {
        for c in text.unicodeScalars {
            if c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{A0}" {
                if !(out.isEmpty || out.hasSuffix(" ") || out.hasSuffix("\n")) { out.append(" ") }
            } else {
                out.unicodeScalars.append(c)
            }
        }
    }

    private static func decode(_ entity: String) -> String? {
        switch entity.lowercased() {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos", "#39": return "'"
        case "nbsp": return " "
        default: break
        }
        var digits = Substring(entity)
        guard digits.first == "#" else { return nil }
        digits = digits.dropFirst()
        let hex = digits.first == "x" || digits.first == "X"
        if hex { digits = digits.dropFirst() }
        guard let n = UInt32(digits, radix: hex ? 16 : 10), let scalar = Unicode.Scalar(n) else { return nil }
        return String(Character(scalar))
    }
}
