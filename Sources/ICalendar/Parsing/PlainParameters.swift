/// Parameters written plainly, read straight into their canonical text (what
/// `ParameterText.encode` makes of them) without a `Parameter`, a `String` per value or an
/// array per parameter: a first pull parses every item, and most of its parameters are plain
/// (`TZID=Europe/Berlin`, `VALUE=DATE`, `CN="Ada Lovelace";PARTSTAT=ACCEPTED;RSVP=TRUE`).
///
/// Plain: each parameter a name of letters, digits and `-` with `=` and one or more values;
/// values of ASCII without `^`, unquoted ones without `\` or `"` either; no text after a closing
/// quote; no parameter whose values are always quoted (``ParameterQuoting/alwaysQuoted``).
/// Anything else is read by `ContentLineReader`'s full reading, which warns about what it mends.
enum PlainParameters {
    /// The canonical text of the parameters from `start` (a `;`) to the `:` before the value,
    /// with the index of that `:`; nil when they are not plain. `sawLower` is set when a name
    /// has a lower-case letter.
    static func read(_ line: UnsafeBufferPointer<UInt8>, from start: Int, sawLower: inout Bool)
        -> (text: String, end: Int)?
    {
        guard let shape = measure(line, from: start) else { return nil }
        let text = String(unsafeUninitializedCapacity: shape.size) {
            canonical(line, from: start, into: $0)?.count ?? 0
        }
        if shape.lower { sawLower = true }
        return (text, shape.end)
    }

    /// The size of the canonical text of the parameters from `start` (a `;`), the index of the
    /// `:` after them, and whether a name has a lower-case letter; nil when they are not plain.
    static func measure(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> (size: Int, end: Int, lower: Bool)? {
        let n = line.count
        var i = start
        var size = 0
        var lower = false
        while i < n && line[i] == UInt8(ascii: ";") {
            i += 1
            let nameStart = i
            while i < n && isNameByte(line[i]) {
                if line[i] >= 0x61 { lower = true }
                i += 1
            }
            guard i > nameStart, i < n, line[i] == UInt8(ascii: "="),
                !isAlwaysQuoted(UnsafeBufferPointer(rebasing: line[nameStart..<i]))
            else { return nil }
            size += 2 + i - nameStart
            i += 1
            while true {
                if i < n && line[i] == UInt8(ascii: "\"") {
                    let valueStart = i + 1
                    guard let (close, quoted) = quotedValue(line, from: valueStart) else { return nil }
                    size += close - valueStart + (quoted ? 2 : 0)
                    i = close + 1
                } else {
                    let valueStart = i
                    while i < n && line[i] != UInt8(ascii: ",") && line[i] != UInt8(ascii: ";")
                        && line[i] != UInt8(ascii: ":")
                    {
                        let b = line[i]
                        guard b < 0x80, b != UInt8(ascii: "^"), b != UInt8(ascii: "\\"), b != UInt8(ascii: "\"") else {
                            return nil
                        }
                        i += 1
                    }
                    size += i - valueStart
                }
                if i < n && line[i] == UInt8(ascii: ",") {
                    size += 1
                    i += 1
                    continue
                }
                break
            }
            guard i < n, line[i] == UInt8(ascii: ";") || line[i] == UInt8(ascii: ":") else { return nil }
        }
        guard i < n, line[i] == UInt8(ascii: ":"), i > start else { return nil }
        return (size, i, lower)
    }

    /// Whether the four bytes at `at` are `TZID` in either case.
    private static func isTZID(_ line: UnsafeBufferPointer<UInt8>, at: Int) -> Bool {
        (line[at] | 0x20) == UInt8(ascii: "t") && (line[at + 1] | 0x20) == UInt8(ascii: "z")
            && (line[at + 2] | 0x20) == UInt8(ascii: "i") && (line[at + 3] | 0x20) == UInt8(ascii: "d")
    }

    /// Writes the canonical text of the parameters from `start` (a `;`) into `out`, which has
    /// room for it (the rest of the line, or the size ``measure(_:from:)`` gives: the text is
    /// never longer than what it is made of), and gives how many bytes it wrote, the index of
    /// the `:` after them, whether a name has a lower-case letter and whether one is TZID; nil
    /// when they are not plain (what was written is then of no use). The two agree: a first
    /// pull reads every item's parameters this way, where measuring and then writing read them
    /// twice.
    static func canonical(
        _ line: UnsafeBufferPointer<UInt8>, from start: Int, into out: UnsafeMutableBufferPointer<UInt8>
    )
        -> (count: Int, end: Int, lower: Bool, zoned: Bool)?
    {
        let n = line.count
        var i = start, o = 0
        var lower = false, zoned = false
        @inline(__always) func put(_ b: UInt8) {
            out[o] = b
            o += 1
        }
        while i < n && line[i] == UInt8(ascii: ";") {
            put(UInt8(ascii: ";"))
            i += 1
            let nameStart = i
            while i < n && isNameByte(line[i]) {
                // Upper-cased: a name byte from 0x61 is a lower-case letter.
                if line[i] >= 0x61 {
                    lower = true
                    put(line[i] - 0x20)
                } else {
                    put(line[i])
                }
                i += 1
            }
            guard i > nameStart, i < n, line[i] == UInt8(ascii: "="),
                !isAlwaysQuoted(UnsafeBufferPointer(rebasing: line[nameStart..<i]))
            else { return nil }
            if i - nameStart == 4, isTZID(line, at: nameStart) { zoned = true }
            put(UInt8(ascii: "="))
            i += 1
            while true {
                if i < n && line[i] == UInt8(ascii: "\"") {
                    guard let (close, quoted) = quotedValue(line, from: i + 1) else { return nil }
                    if quoted { put(UInt8(ascii: "\"")) }
                    for j in (i + 1)..<close { put(line[j]) }
                    if quoted { put(UInt8(ascii: "\"")) }
                    i = close + 1
                } else {
                    while i < n && line[i] != UInt8(ascii: ",") && line[i] != UInt8(ascii: ";")
                        && line[i] != UInt8(ascii: ":")
                    {
                        let b = line[i]
                        guard b < 0x80, b != UInt8(ascii: "^"), b != UInt8(ascii: "\\"), b != UInt8(ascii: "\"") else {
                            return nil
                        }
                        put(b)
                        i += 1
                    }
                }
                if i < n && line[i] == UInt8(ascii: ",") {
                    put(UInt8(ascii: ","))
                    i += 1
                    continue
                }
                break
            }
            guard i < n, line[i] == UInt8(ascii: ";") || line[i] == UInt8(ascii: ":") else { return nil }
        }
        guard i < n, line[i] == UInt8(ascii: ":"), i > start else { return nil }
        return (o, i, lower, zoned)
    }

    /// The closing quote of a quoted value starting at `start`, and whether its canonical text
    /// keeps the quotes (it holds `:` `;` `,` or `\`); nil when it does not close or holds a
    /// byte that is not plain.
    private static func quotedValue(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> (Int, Bool)? {
        var j = start
        var quoted = false
        while j < line.count && line[j] != UInt8(ascii: "\"") {
            switch line[j] {
            case UInt8(ascii: ":"), UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: "\\"): quoted = true
            case UInt8(ascii: "^"), 0x80...: return nil
            default: break
            }
            j += 1
        }
        return j < line.count ? (j, quoted) : nil
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D
    }

    /// Whether the name (either case) is one whose values are always quoted: a string is made
    /// of it only when its first letter is one of theirs.
    private static func isAlwaysQuoted(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = name.first else { return false }
        switch first | 0x20 {
        case UInt8(ascii: "a"), UInt8(ascii: "d"), UInt8(ascii: "m"), UInt8(ascii: "s"):
            var lower = false
            return ParameterQuoting.alwaysQuoted.contains(ContentLineReader.upperName(name, &lower))
        default: return false
        }
    }
}
