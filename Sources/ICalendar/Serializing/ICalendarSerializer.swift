import Foundation

/// Writes a component tree as iCalendar text in canonical form: CRLF line ends, lines folded at
/// 75 octets (never inside a UTF-8 sequence), parameter values quoted where RFC 5545 requires and
/// caret-escaped per RFC 6868.
///
/// The serializer does not reorder or rewrite anything: a file already in canonical form comes
/// out byte for byte as it went in.
public struct ICalendarSerializer: Sendable {
    /// The longest a physical line may be, in octets, without its CRLF.
    public static let lineLimit = 75

    /// A serializer; it holds no settings.
    public init() {}

    /// The components as UTF-8 bytes.
    public func serialize(_ components: [Component]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(components.reduce(0) { $0 + $1.estimatedSize })
        var line: [UInt8] = []
        line.reserveCapacity(256)
        for c in components { write(c, into: &out, scratch: &line, afterEachProperty: { _ in }) }
        return out
    }

    /// Writes the components in chunks of about `chunkSize` bytes to `sink`, so a large
    /// calendar is never in memory twice (as a tree and as text).
    public func serialize(
        _ components: [Component], chunkSize: Int = 1 << 20,
        to sink: (UnsafeBufferPointer<UInt8>) throws -> Void
    ) rethrows {
        var out: [UInt8] = []
        // Room for a chunk, or for the whole when smaller: a megabyte reserved for a small file
        // was mapped and unmapped each time (a flush of every core's address cache).
        out.reserveCapacity(min(chunkSize, components.reduce(0) { $0 + $1.estimatedSize }) + 4096)
        var line: [UInt8] = []
        line.reserveCapacity(256)
        for c in components {
            try write(c, into: &out, scratch: &line) { buffer in
                if buffer.count >= chunkSize {
                    try buffer.withUnsafeBufferPointer(sink)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
        }
        if !out.isEmpty { try out.withUnsafeBufferPointer(sink) }
    }

    /// One component as UTF-8 bytes.
    public func serialize(_ component: Component) -> [UInt8] { serialize([component]) }

    /// One component as a `String`.
    public func string(_ component: Component) -> String {
        String(decoding: serialize(component), as: UTF8.self)
    }

    /// The components as `Data`.
    public func data(_ components: [Component]) -> Data { Data(serialize(components)) }

    private func write(
        _ component: Component, into out: inout [UInt8], scratch line: inout [UInt8],
        afterEachProperty drain: (inout [UInt8]) throws -> Void = { _ in }
    ) rethrows {
        // Iterative, so a deep tree cannot overflow the stack.
        var stack: [(Component, Int)] = [(component, -1)]
        while let (c, n) = stack.popLast() {
            var next = n
            if next == -1 {
                line.removeAll(keepingCapacity: true)
                line.append(contentsOf: "BEGIN:".utf8)
                line.append(contentsOf: c.name.utf8)
                fold(line, into: &out)
                for p in c.properties {
                    writeProperty(p, into: &out, scratch: &line)
                    try drain(&out)
                }
                next = 0
            }
            if next < c.components.count {
                let child = c.components[next]
                stack.append((c, next + 1))
                stack.append((child, -1))
                continue
            }
            line.removeAll(keepingCapacity: true)
            line.append(contentsOf: "END:".utf8)
            line.append(contentsOf: c.name.utf8)
            fold(line, into: &out)
        }
    }

    private func writeProperty(_ p: Property, into out: inout [UInt8], scratch line: inout [UInt8]) {
        line.removeAll(keepingCapacity: true)
        line.append(contentsOf: p.name.utf8)
        line.append(contentsOf: p.parameterText.utf8)
        line.append(UInt8(ascii: ":"))
        line.append(contentsOf: p.value.utf8)
        fold(line, into: &out)
    }

    /// Appends `line` folded at 75 octets, each physical line ended by CRLF.
    func fold(_ line: [UInt8], into out: inout [UInt8]) {
        let limit = Self.lineLimit
        if line.count <= limit {
            out.append(contentsOf: line)
            out.append(0x0D); out.append(0x0A)
            return
        }
        var start = 0
        var room = limit
        while start < line.count {
            var end = min(start + room, line.count)
            // Never cut inside a UTF-8 sequence: back up over continuation bytes.
            if end < line.count {
                while end > start && (line[end] & 0xC0) == 0x80 { end -= 1 }
                if end == start { end = min(start + room, line.count) }
            }
            if start > 0 { out.append(0x20) }
            out.append(contentsOf: line[start..<end])
            out.append(0x0D); out.append(0x0A)
            start = end
            room = limit - 1
        }
    }
}

/// When parameter values need quotes, and RFC 6868 caret escaping.
enum ParameterQuoting {
    /// Parameters whose values RFC 5545 defines as quoted URIs / CAL-ADDRESSes.
    static let alwaysQuoted: Set<String> = ["ALTREP", "DELEGATED-FROM", "DELEGATED-TO", "DIR", "MEMBER", "SENT-BY"]

    static func append(_ value: String, quoteAlways: Bool, into line: inout [UInt8]) {
        var needsQuotes = quoteAlways
        var needsCaret = false
        for b in value.utf8 {
            switch b {
            // A backslash is quoted too: unquoted, `\;` would be read back as Outlook's escape.
            case UInt8(ascii: ":"), UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: "\\"): needsQuotes = true
            case UInt8(ascii: "^"), UInt8(ascii: "\""), 0x0A: needsCaret = true
            default: break
            }
        }
        if needsQuotes { line.append(UInt8(ascii: "\"")) }
        if needsCaret {
            for b in value.utf8 {
                switch b {
                case UInt8(ascii: "^"): line.append(contentsOf: "^^".utf8)
                case UInt8(ascii: "\""): line.append(contentsOf: "^'".utf8)
                case 0x0A: line.append(contentsOf: "^n".utf8)
                default: line.append(b)
                }
            }
        } else {
            line.append(contentsOf: value.utf8)
        }
        if needsQuotes { line.append(UInt8(ascii: "\"")) }
    }
}

extension Component {
    /// A rough size of the serialized tree, to reserve output capacity.
    var estimatedSize: Int {
        var n = 32 + name.utf8.count * 2
        for p in properties { n += p.name.utf8.count + p.parameterText.utf8.count + p.value.utf8.count + 8 }
        for c in components { n += c.estimatedSize }
        return n
    }
}
