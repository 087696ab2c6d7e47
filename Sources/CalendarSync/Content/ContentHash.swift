import Crypto
import Foundation
import ICalendar

/// A SHA-256 of an item's normalised content: two versions with the same hash mean the same
/// thing, even when a server rewrote what was uploaded.
///
/// What does not count: PRODID and DTSTAMP (servers and clients restamp them), line folding
/// and line endings, the order of properties within a component and of sibling components,
/// and TEXT escaping variants, and the time zones the upload form completes: a VCALENDAR is
/// hashed as `TimeZoneCompletion` completes it, so a file that names `Europe/Berlin` (or
/// `W. Europe Standard Time`) without a VTIMEZONE hashes as its server copy, which has the
/// IANA name and a generated VTIMEZONE. An item that does not parse is hashed over its raw bytes
/// (prefixed `raw:`), so it is still carried and compared, just byte for byte.
public struct ContentHash: Hashable, Sendable, Codable, CustomStringConvertible {
    public var value: String
    public init(_ value: String) { self.value = value }
    public var description: String { value }

    /// Properties that servers and clients rewrite without a change in meaning.
    static let volatile: Set<String> = ["PRODID", "DTSTAMP"]

    /// The hash of `data`.
    public static func of(_ data: Data) -> ContentHash {
        of(data, parsed: try? ICalendarParser().parse(data))
    }

    /// The hash of `data`, reusing a parse already made (nil: the data did not parse).
    public static func of(_ data: Data, parsed: ParsedCalendar?) -> ContentHash {
        guard let parsed, !parsed.components.isEmpty else {
            return ContentHash("raw:" + hex(SHA256.hash(data: data)))
        }
        var hasher = SHA256()
        let canonical = Canonicalizer()
        let lines = parsed.components.map { component -> String in
            var c = canonical.canonicalize(component)
            if c.name == "VCALENDAR" { TimeZoneCompletion.complete(&c) }
            return normalisedLines(c)
        }
        for var line in lines.sorted() {
            line.append("\n")
            line.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        }
        return ContentHash(hex(hasher.finalize()))
    }

    /// A component as sorted lines: its properties (minus the volatile ones) then each child
    /// as one nested block, so order does not matter but structure does.
    static func normalisedLines(_ component: Component) -> String {
        // Built by appending into strings of their final size, not by interpolating and
        // joining (which showed in a first pull's profile); the text is the same.
        var lines: [String] = []
        lines.reserveCapacity(component.properties.count)
        var size = 0
        for property in component.properties where !volatile.contains(property.name) {
            let parameters = property.parameterText
            var line = property.name
            line.reserveCapacity(line.utf8.count + parameters.utf8.count + property.value.utf8.count + 2)
            if !parameters.isEmpty {
                line += ";"
                line += parameters
            }
            line += ":"
            line += property.value
            size += line.utf8.count + 1
            lines.append(line)
        }
        lines.sort()
        let children = component.components.map(normalisedLines).sorted()
        var text = "BEGIN:" + component.name + "\n"
        text.reserveCapacity(text.utf8.count + size + 1 + children.reduce(0) { $0 + $1.utf8.count } + component.name.utf8.count + 5)
        for (i, line) in lines.enumerated() {
            if i > 0 { text += "\n" }
            text += line
        }
        text += "\n"
        for child in children { text += child }
        text += "END:" + component.name + "\n"
        return text
    }

    static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
