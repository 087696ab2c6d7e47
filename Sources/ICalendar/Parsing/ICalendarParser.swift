import Foundation

/// Parses iCalendar text (RFC 5545 §3.1, RFC 6868) into a lossless component tree.
///
/// Works on UTF-8 bytes and makes `String`s only for names and values. Tolerates what real
/// files contain — LF-only endings, a byte-order mark, lower-case names, blank lines, a missing
/// final line end, Latin-1 bytes, folding with tabs — and reports it as warnings. Refuses only
/// broken structure: unbalanced BEGIN/END, a content line with no colon, nesting deeper than
/// `maximumDepth` (a reader that shows what it can may read past a misspelled END:
/// `readsPastMisspelledEnds`).
public struct ICalendarParser: Sendable {
    /// How deep components may nest; real calendars use 3 or 4 levels.
    public var maximumDepth = 100

    /// Whether an END naming no open component (a misspelling: `END:VTOOD` closing a VTODO)
    /// closes the innermost one, as python's icalendar and so recurring-ical-events read it,
    /// instead of refusing the file. Each such END is recorded in
    /// ``ParsedCalendar/readPast`` with the error a strict parse gives. An END naming a
    /// component further out (an inner END missing) is still refused.
    ///
    /// Off by default: sync, lint and the edit commands must not take a damaged file for a
    /// sound one. `expand` and `list` turn it on to show the events a damaged file holds.
    public var readsPastMisspelledEnds = false

    /// A parser allowing the default nesting depth.
    /// - Parameter readsPastMisspelledEnds: see ``readsPastMisspelledEnds``.
    public init(readsPastMisspelledEnds: Bool = false) {
        self.readsPastMisspelledEnds = readsPastMisspelledEnds
    }

    /// Parses `data`.
    /// - Throws: `ICalendarSyntaxError` with the line and the reason.
    public func parse(_ data: Data) throws -> ParsedCalendar {
        try data.withUnsafeBytes { raw in
            try parse(UnsafeBufferPointer(start: raw.bindMemory(to: UInt8.self).baseAddress, count: raw.count))
        }
    }

    /// Parses a string.
    public func parse(_ text: String) throws -> ParsedCalendar {
        var text = text
        return try text.withUTF8 { try parse($0) }
    }

    /// Parses raw bytes.
    public func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws -> ParsedCalendar {
        var builder = TreeBuilder(maximumDepth: maximumDepth, readsPastMisspelledEnds: readsPastMisspelledEnds)
        var lines = LineAssembler()
        let consume = { (line: UnsafeBufferPointer<UInt8>, number: Int) throws in
            try builder.consume(line: line, lineNumber: number)
        }
        try lines.feed(bytes, emit: consume)
        try lines.finish(emit: consume)
        return try builder.finish(lastLine: lines.linesSeen)
    }

    /// Parses a file, reading it in chunks so that it is never in memory whole beside its tree.
    /// The chunks are read into one buffer with `read`: `FileHandle` makes a new `Data` for
    /// each, mapped and unmapped by `malloc` when large, which costs every core a flush of its
    /// address cache when files are parsed on all of them at once (`calgw fmt` of a folder).
    /// - Throws: `ICalendarSyntaxError`, or the error of reading the file.
    public func parse(contentsOf url: URL, chunkSize: Int = 1 << 16) throws -> ParsedCalendar {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var builder = TreeBuilder(maximumDepth: maximumDepth, readsPastMisspelledEnds: readsPastMisspelledEnds)
        var lines = LineAssembler()
        let consume = { (line: UnsafeBufferPointer<UInt8>, number: Int) throws in
            try builder.consume(line: line, lineNumber: number)
        }
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(chunkSize, 1))
        defer { buffer.deallocate() }
        while true {
            let count = read(handle.fileDescriptor, buffer.baseAddress, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw CocoaError(.fileReadUnknown, userInfo: [NSURLErrorKey: url]) }
            if count == 0 { break }
            try lines.feed(UnsafeBufferPointer(rebasing: buffer[..<count]), emit: consume)
        }
        try lines.finish(emit: consume)
        return try builder.finish(lastLine: lines.linesSeen)
    }
}

/// Turns logical content lines into a component tree.
struct TreeBuilder {
    let maximumDepth: Int
    var stack: [Component] = []
    /// Properties of each open component, gathered here and moved into an array of exactly
    /// the right size at END, so the tree carries no growth slack.
    var pending: [[Property]] = []
    var roots: [Component] = []
    var warnings: [ParseWarning] = []
    var warnedLowercase = false
    var warnedLatin1 = false
    let readsPastMisspelledEnds: Bool
    /// The misspelled ENDs read past, as the errors a strict parse gives.
    var readPast: [ICalendarSyntaxError] = []

    init(maximumDepth: Int, readsPastMisspelledEnds: Bool = false) {
        self.maximumDepth = maximumDepth
        self.readsPastMisspelledEnds = readsPastMisspelledEnds
    }

    mutating func consume(line: UnsafeBufferPointer<UInt8>, lineNumber: Int) throws {
        let (line, dropped) = LineShape.droppingLeadingWhitespace(line)
        if dropped {
            // A continuation line with nothing before it: read it as a line of its own.
            if line.isEmpty { return }
            warnings.append(
                ParseWarning(line: lineNumber, message: "line starts with white space but follows no content line"))
        }
        var parsed = try ContentLineReader.read(line, lineNumber: lineNumber)
        if parsed.hadLowercase && !warnedLowercase {
            warnedLowercase = true
            warnings.append(ParseWarning(line: lineNumber, message: "lower-case names (read as upper case)"))
        }
        if parsed.usedLatin1 && !warnedLatin1 {
            warnedLatin1 = true
            warnings.append(ParseWarning(line: lineNumber, message: "bytes that are not UTF-8 (read as Latin-1)"))
        }
        if !parsed.warnings.isEmpty { warnings.append(contentsOf: parsed.warnings) }
        switch parsed.property.name {
        case "BEGIN":
            guard stack.count < maximumDepth else {
                throw ICalendarSyntaxError(
                    line: lineNumber, reason: "components nest deeper than \(maximumDepth) levels")
            }
            let name = parsed.property.value.trimmingCharacters(in: " ").asciiUppercased
            guard !name.isEmpty else {
                throw ICalendarSyntaxError(line: lineNumber, reason: "BEGIN without a component name")
            }
            guard LineShape.isComponentName(name) else {
                throw ICalendarSyntaxError(line: lineNumber, reason: "BEGIN:\(printable(name)) is not a component name")
            }
            var component = Component(name: name)
            component.line = lineNumber
            stack.append(component)
            if pending.count < stack.count {
                // Room for an event's properties from the start, not grown line by line.
                var properties: [Property] = []
                properties.reserveCapacity(32)
                pending.append(properties)
            }
        case "END":
            let name = parsed.property.value.trimmingCharacters(in: " ").asciiUppercased
            guard var open = stack.popLast() else {
                throw ICalendarSyntaxError(line: lineNumber, reason: "END:\(name) without a matching BEGIN")
            }
            let depth = stack.count
            open.properties = Self.takeAll(&pending[depth])
            if open.name != name {
                let error = ICalendarSyntaxError(
                    line: lineNumber, reason: "END:\(name) closes BEGIN:\(open.name) of line \(open.line)")
                // A misspelled END (naming nothing open) closes the innermost component when
                // asked; one naming a component further out means an END is missing.
                guard readsPastMisspelledEnds, !stack.contains(where: { $0.name == name }) else { throw error }
                readPast.append(error)
            }
            if stack.isEmpty {
                roots.append(open)
            } else {
                stack[stack.count - 1].components.append(open)
            }
        default:
            parsed.property.line = lineNumber
            if stack.isEmpty {
                // A property after the last END:VCALENDAR (some exporters append comments):
                // kept in that calendar rather than lost. Before any BEGIN it is broken structure.
                guard !roots.isEmpty else {
                    throw ICalendarSyntaxError(
                        line: lineNumber, reason: "\(parsed.property.name) comes before any BEGIN")
                }
                warnings.append(
                    ParseWarning(
                        line: lineNumber,
                        message: "\(parsed.property.name) after END:\(roots[roots.count - 1].name) (kept inside it)"))
                roots[roots.count - 1].properties.append(parsed.property)
            } else {
                pending[stack.count - 1].append(parsed.property)
            }
        }
    }

    /// The properties of `properties`, in an array of their exact size, leaving it empty with
    /// its room: they are moved, not copied. A copy retained each property's three strings and
    /// emptying the array released them again, for every line of every item.
    static func takeAll(_ properties: inout [Property]) -> [Property] {
        let count = properties.count
        guard count > 0 else { return [] }
        let taken = [Property](unsafeUninitializedCapacity: count) { buffer, initialized in
            properties.withUnsafeMutableBufferPointer { source in
                buffer.baseAddress!.moveInitialize(from: source.baseAddress!, count: count)
                // Empty strings in their place, which emptying the array has nothing to release of.
                source.baseAddress!.initialize(
                    repeating: Property(uppercasedName: "", parameterText: "", value: ""), count: count)
            }
            initialized = count
        }
        properties.removeAll(keepingCapacity: true)
        return taken
    }

    /// The parsed tree; refuses a file whose components are left open at the end.
    func finish(lastLine: Int) throws -> ParsedCalendar {
        if let open = stack.last {
            throw ICalendarSyntaxError(
                line: open.line,
                reason: "BEGIN:\(open.name) has no END:\(open.name) (the file ends at line \(lastLine))")
        }
        return ParsedCalendar(components: roots, warnings: warnings, readPast: readPast)
    }
}

/// Control characters shown as escapes, so an error message never carries raw NULs or ESCs.
func printable(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
        if scalar.value < 0x20 || scalar.value == 0x7F {
            out += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
            out.unicodeScalars.append(scalar)
        }
    }
    return out
}
