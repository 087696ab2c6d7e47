/// Small facts about a line's shape that the parser and `lint`'s structure checks share.
enum LineShape {
    /// `line` without the spaces and tabs it starts with: a continuation line with no content
    /// line before it is read as a line of its own.
    /// - Returns: the rest, and whether anything was dropped.
    static func droppingLeadingWhitespace(_ line: UnsafeBufferPointer<UInt8>) -> (
        rest: UnsafeBufferPointer<UInt8>, dropped: Bool
    ) {
        guard let base = line.baseAddress, line.count > 0 && (line[0] == 0x20 || line[0] == 0x09) else {
            return (line, false)
        }
        var k = 0
        while k < line.count && (line[k] == 0x20 || line[k] == 0x09) { k += 1 }
        return (UnsafeBufferPointer(start: base + k, count: line.count - k), true)
    }

    /// True when `name` (upper-cased) may name a component: letters, digits, `-` and `_`
    /// (RFC 5545 §3.1: iana-token and x-name).
    static func isComponentName(_ name: String) -> Bool {
        name.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x5F }
    }
}
