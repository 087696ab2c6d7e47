import Foundation

/// Reads a whole `.ics` file into its parts without building a tree: the VCALENDAR's own
/// property lines, each VTIMEZONE by TZID, and every other top-level component (VEVENT,
/// VTODO, VJOURNAL, VFREEBUSY, X- components alike) as the exact bytes it has in the file.
///
/// One pass over the bytes, a line at a time, so a file of 10,000 events is read in the time
/// its bytes take to scan: nothing is parsed beyond what splitting needs (the names of BEGIN
/// and END lines, a component's UID and RECURRENCE-ID, the TZID parameters it uses). Keeping
/// the bytes as written means a rewrite changes only the items that changed, and an item's
/// etag (a hash of its bytes) is the same on every read.
///
/// The structure is checked as strictly as the parser checks it: a BEGIN without its END, an
/// END that does not match, a line with no `:`, or content outside `BEGIN:VCALENDAR` is a
/// ``SingleFileError`` naming the line, and nothing of the file is used.
struct SingleFileSplitter {
    /// The path named in errors.
    var path: String

    /// One top-level component of the VCALENDAR.
    struct Part: Sendable {
        /// Upper-cased component name (`VEVENT`, `VTODO`, `VTIMEZONE`, …).
        var name: String
        /// The component's bytes, from its BEGIN line through its END line's line end.
        var bytes: Data
        /// The 1-based line of its BEGIN in the file (0 for a component not read from one).
        var line: Int
        /// Its UID, nil when it has none.
        var uid: String?
        /// Its RECURRENCE-ID value (an override), nil for a master.
        var recurrenceID: String?
        /// For a VTIMEZONE: its TZID.
        var tzid: String?
        /// The TZIDs its properties (and its sub-components') refer to.
        var usedZones: Set<String>
    }

    /// What a file holds.
    struct Contents: Sendable {
        /// The VCALENDAR's own property lines (VERSION, PRODID, X-WR-CALNAME, …), as written.
        var header = Data()
        /// Every component but the VCALENDAR itself, in file order.
        var parts: [Part] = []
    }

    /// Splits `data`, a whole file (or one calendar object).
    /// - Throws: ``SingleFileError`` with code `.invalid` at the first structural problem.
    func split(_ data: Data) throws -> Contents {
        var contents = Contents()
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var scanner = Scanner(bytes: bytes, path: path)
            try scanner.run(into: &contents, data: data)
        }
        return contents
    }

    /// The state of one pass.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        let path: String
        /// Open components, outermost first, each with its BEGIN line.
        var stack: [(name: String, line: Int)] = []
        var seenCalendar = false
        /// How many VCALENDARs began so far.
        var calendars = 0
        /// The component at depth 2 being read.
        var current: Part?
        var currentStart = 0

        init(bytes: UnsafeBufferPointer<UInt8>, path: String) {
            self.bytes = bytes
            self.path = path
        }

        func fail(_ line: Int, _ problem: String) -> SingleFileError {
            SingleFileError(
                .invalid, "\(path):\(line): \(problem)",
                recovery:
                    "fix that line (calgw lint \(path) shows every problem); until then nothing is synced either way")
        }

        mutating func run(into contents: inout Contents, data: Data) throws {
            var lineNumber = 0
            var logical: [UInt8] = []
            var logicalStart = 0, logicalLine = 0
            var position = 0
            let count = bytes.count
            if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
            var havePending = false
            while position < count {
                let lineStart = position
                var end = position
                while end < count, bytes[end] != 0x0A { end += 1 }
                let next = end < count ? end + 1 : end
                var contentEnd = end
                if contentEnd > lineStart, bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
                lineNumber += 1
                position = next
                let first = contentEnd > lineStart ? bytes[lineStart] : nil
                if first == 0x20 || first == 0x09 {
                    guard havePending else { throw fail(lineNumber, "a folded line continues nothing") }
                    logical.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[(lineStart + 1)..<contentEnd]))
                    continue
                }
                if havePending {
                    try handle(
                        logical, start: logicalStart, end: lineStart, line: logicalLine, into: &contents, data: data)
                    havePending = false
                }
                if contentEnd == lineStart { continue }  // a blank line
                logical.removeAll(keepingCapacity: true)
                logical.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[lineStart..<contentEnd]))
                logicalStart = lineStart
                logicalLine = lineNumber
                havePending = true
            }
            if havePending {
                try handle(logical, start: logicalStart, end: count, line: logicalLine, into: &contents, data: data)
            }
            if let open = stack.last {
                throw fail(open.line, "BEGIN:\(open.name) is never closed (the file ends at line \(lineNumber))")
            }
            if !seenCalendar { throw fail(max(lineNumber, 1), "no BEGIN:VCALENDAR in the file") }
        }

        /// One unfolded line: `start..<end` are its bytes in the file, with its line end and folds.
        mutating func handle(
            _ line: [UInt8], start: Int, end: Int, line number: Int, into contents: inout Contents, data: Data
        ) throws {
            guard let colon = Self.valueColon(line) else { throw fail(number, "a line without ':'") }
            let nameEnd = line[..<colon].firstIndex(of: UInt8(ascii: ";")) ?? colon
            let name = String(decoding: line[..<nameEnd], as: UTF8.self).uppercased()
            if name == "BEGIN" || name == "END" {
                let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: .whitespaces)
                    .uppercased()
                guard !value.isEmpty else { throw fail(number, "\(name): without a component name") }
                if name == "BEGIN" {
                    if stack.isEmpty {
                        guard value == "VCALENDAR" else { throw fail(number, "BEGIN:\(value) outside BEGIN:VCALENDAR") }
                        seenCalendar = true
                        calendars += 1
                    } else if stack.count == 1 {
                        current = Part(
                            name: value, bytes: Data(), line: number, uid: nil, recurrenceID: nil, tzid: nil,
                            usedZones: [])
                        currentStart = start
                    }
                    stack.append((value, number))
                    guard stack.count <= 100 else { throw fail(number, "components nested deeper than 100 levels") }
                } else {
                    guard let open = stack.last else { throw fail(number, "END:\(value) without a BEGIN") }
                    guard open.name == value else {
                        throw fail(number, "END:\(value) does not match BEGIN:\(open.name) at line \(open.line)")
                    }
                    stack.removeLast()
                    if stack.count == 1, var part = current {
                        part.bytes = data.subdata(in: data.startIndex + currentStart..<data.startIndex + end)
                        if let last = part.bytes.last, last != 0x0A { part.bytes.append(contentsOf: [0x0D, 0x0A]) }
                        contents.parts.append(part)
                        current = nil
                    }
                }
                return
            }
            switch stack.count {
            case 0:
                throw fail(number, "\(name) outside BEGIN:VCALENDAR")
            case 1:
                // Two calendars in one file (`cat a.ics b.ics`): the first one's lines stand for both.
                guard calendars == 1 else { return }
                var bytes = data.subdata(in: data.startIndex + start..<data.startIndex + end)
                if let last = bytes.last, last != 0x0A { bytes.append(contentsOf: [0x0D, 0x0A]) }
                contents.header.append(bytes)
            default:
                guard current != nil else { return }
                if stack.count == 2, name == "UID" {
                    current!.uid = String(decoding: line[(colon + 1)...], as: UTF8.self)
                } else if stack.count == 2, name == "RECURRENCE-ID" {
                    current!.recurrenceID = String(decoding: line[(colon + 1)...], as: UTF8.self)
                } else if stack.count == 2, name == "TZID", current!.name == "VTIMEZONE" {
                    current!.tzid = String(decoding: line[(colon + 1)...], as: UTF8.self)
                }
                if nameEnd < colon, let zone = Self.tzidParameter(line[nameEnd..<colon]) {
                    current!.usedZones.insert(zone)
                }
            }
        }

        /// The index of the `:` that starts the value: the first one outside a quoted parameter value.
        static func valueColon(_ line: [UInt8]) -> Int? {
            var quoted = false
            for (i, b) in line.enumerated() {
                if b == UInt8(ascii: "\"") { quoted.toggle() } else if b == UInt8(ascii: ":"), !quoted { return i }
            }
            return nil
        }

        /// The value of a `TZID=` parameter among `;`-separated parameters, quotes removed.
        static func tzidParameter(_ parameters: ArraySlice<UInt8>) -> String? {
            var quoted = false
            var start = parameters.startIndex
            var i = parameters.startIndex
            func check(_ range: Range<Int>) -> String? {
                let p = parameters[range]
                guard p.count > 5 else { return nil }
                let key = String(decoding: p.prefix(5), as: UTF8.self).uppercased()
                guard key == "TZID=" else { return nil }
                var value = String(decoding: p.dropFirst(5), as: UTF8.self)
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                    value = String(value.dropFirst().dropLast())
                }
                return value
            }
            while i < parameters.endIndex {
                let b = parameters[i]
                if b == UInt8(ascii: "\"") {
                    quoted.toggle()
                } else if b == UInt8(ascii: ";"), !quoted {
                    if let found = check(start..<i) { return found }
                    start = i + 1
                }
                i += 1
            }
            return check(start..<i)
        }
    }
}
