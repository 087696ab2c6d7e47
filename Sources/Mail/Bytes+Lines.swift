/// The byte values the mail reader looks for.
extension UInt8 {
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let colon = UInt8(ascii: ":")
    static let hyphen = UInt8(ascii: "-")
    static let equals = UInt8(ascii: "=")
}

extension ArraySlice<UInt8> {
    /// The line starting at `start`: its content without the line end (CRLF or a bare LF), and
    /// where the next line starts.
    func line(at start: Index) -> (content: ArraySlice<UInt8>, next: Index) {
        guard let lineFeed = self[start...].firstIndex(of: .lineFeed) else {
            return (self[start...], endIndex)
        }
        var end = lineFeed
        if end > start && self[end - 1] == .carriageReturn { end -= 1 }
        return (self[start..<end], lineFeed + 1)
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and line ends.
    func trimmingWhitespace() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }

    /// The text split at `separator`, except where it stands inside double quotes.
    func splitOutsideQuotes(separator: Character) -> [Substring] {
        var pieces: [Substring] = []
        var start = startIndex
        var inQuotes = false
        var escaped = false
        var index = startIndex
        while index < endIndex {
            let character = self[index]
            if escaped {
                escaped = false
            } else if character == "\\" && inQuotes {
                escaped = true
            } else if character == "\"" {
                inQuotes.toggle()
            } else if character == separator && !inQuotes {
                pieces.append(Substring(self[start..<index]))
                start = self.index(after: index)
            }
            index = self.index(after: index)
        }
        pieces.append(Substring(self[start..<endIndex]))
        return pieces
    }

    /// The text without surrounding double quotes and with its backslash escapes undone, or the
    /// text itself when it is not quoted.
    func unquoted() -> String {
        guard count >= 2, first == "\"", last == "\"" else { return String(self) }
        var result = ""
        var escaped = false
        for character in dropFirst().dropLast() {
            if escaped {
                result.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}
