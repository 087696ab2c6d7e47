import Crypto
import Foundation

/// Splits an iCalendar feed, as its bytes arrive, into one calendar object per UID: a
/// subscription's items.
///
/// The feed is read line by line and never held whole: each top-level component is kept as
/// the lines it was written with (line ends made CRLF), grouped with the other components of
/// its UID (a recurring event and its overrides), and each group becomes one VCALENDAR with
/// the feed's VERSION, PRODID and CALSCALE, the VTIMEZONEs its components use, and the
/// components in feed order. VTODO, VJOURNAL, VFREEBUSY and unknown components are items like
/// VEVENTs; nothing the feed holds is dropped except calendar-level properties such as METHOD
/// and X-WR-CALNAME, which describe the feed, not an event.
///
/// A component without a UID (some feeds have none) is given `calgw-` and 32 hex digits of a
/// SHA-256 of its lines without DTSTAMP (which exporters restamp on every download), so the same
/// event gets the same UID, and file, on every download. Two such components alike but for
/// DTSTAMP are one event listed twice; the second is dropped.
///
/// What is not iCalendar is refused with a ``SubscriptionError`` naming the line: a feed that
/// does not start with `BEGIN:VCALENDAR` (an HTML login page), a body that ends inside a
/// component (cut short), END lines that do not match, a line without a colon, and any line
/// longer than `maxLineLength` bytes once unfolded.
struct FeedSplitter {
    /// The longest line accepted, unfolded, in bytes.
    let maxLineLength: Int

    init(maxLineLength: Int) {
        self.maxLineLength = maxLineLength
    }

    /// One item of the feed: its UID (given or derived), its calendar object, and a digest of
    /// it that leaves DTSTAMP out (hex), so an item the publisher only restamped keeps its
    /// version and is neither read nor written again.
    struct Item {
        var uid: String
        var data: Data
        var digest: String
    }

    private struct Group {
        var uid: String
        var components: [Data] = []
        var timeZones: [String] = []
        var digest = SHA256()
    }

    private struct OpenComponent {
        var name: String
        var data = Data()
        /// Where the BEGIN line ends in `data`: a derived UID goes there.
        var afterBegin = 0
        var uid: String?
        var tzid: String?
        var timeZones: [String] = []
        var hasher = SHA256()
    }

    private var pending: [UInt8] = []
    private var logical: [UInt8] = []
    private var physical: [[UInt8]] = []
    private var lineNumber = 0
    private var logicalLine = 0
    private var sawContent = false
    private var stack: [String] = []
    /// VCALENDARs ended so far.
    private var calendars = 0
    private var open: OpenComponent?
    private var header: [String: Data] = [:]
    private var timeZones: [String: Data] = [:]
    private var groups: [Group] = []
    private var groupIndex: [String: Int] = [:]

    static let headerProperties = ["VERSION", "PRODID", "CALSCALE"]

    /// Reads the next bytes of the feed.
    /// - Throws: ``SubscriptionError`` when a line is too long or the structure is wrong.
    mutating func consume(_ bytes: UnsafeRawBufferPointer) throws {
        var start = 0
        let count = bytes.count
        while start < count {
            guard let newline = bytes[start..<count].firstIndex(of: 0x0A) else {
                pending.append(contentsOf: bytes[start..<count])
                if pending.count > maxLineLength { throw lineTooLong(lineNumber + 1) }
                return
            }
            if pending.isEmpty {
                try physicalLine(Array(bytes[start..<newline]))
            } else {
                pending.append(contentsOf: bytes[start..<newline])
                if pending.count > maxLineLength { throw lineTooLong(lineNumber + 1) }
                let line = pending
                pending = []
                try physicalLine(line)
            }
            start = newline + 1
        }
    }

    /// Ends the feed and returns its items, in the order their UIDs first appeared.
    /// - Throws: ``SubscriptionError`` for an empty feed, one that is not iCalendar, or one
    ///   cut short inside a component.
    mutating func finish() throws -> [Item] {
        if !pending.isEmpty {
            let line = pending
            pending = []
            try physicalLine(line)
        }
        try flushLogical()
        guard sawContent else {
            throw SubscriptionError(
                .unusableFeed, "the feed is empty",
                recovery: "check the URL; calgw keeps the events it has until the feed has some again")
        }
        if let open = stack.last {
            throw SubscriptionError(
                .unusableFeed,
                "the feed ends inside BEGIN:\(open) (after line \(lineNumber)): the download was cut short",
                recovery: "try again later; nothing was changed")
        }
        var head = Data("BEGIN:VCALENDAR\r\n".utf8)
        head.append(header["VERSION"] ?? Data("VERSION:2.0\r\n".utf8))
        head.append(header["PRODID"] ?? Data("PRODID:-//calgw//subscription//EN\r\n".utf8))
        if let scale = header["CALSCALE"] { head.append(scale) }
        return groups.map { group in
            var data = head
            var digest = group.digest
            for tzid in group.timeZones {
                if let zone = timeZones[tzid] { data.append(zone); digest.update(data: zone) }
            }
            digest.update(data: head)
            for component in group.components { data.append(component) }
            data.append(Data("END:VCALENDAR\r\n".utf8))
            return Item(uid: group.uid, data: data, digest: ContentHash.hex(digest.finalize()))
        }
    }

    private func lineTooLong(_ line: Int) -> SubscriptionError {
        SubscriptionError(
            .unusableFeed, "line \(line) of the feed is longer than \(maxLineLength) bytes",
            recovery: "this is not a calendar feed calgw can read; raise max_line_length if the feed is right")
    }

    private mutating func physicalLine(_ raw: [UInt8]) throws {
        lineNumber += 1
        if raw.count > maxLineLength + 1 { throw lineTooLong(lineNumber) }
        var line = raw
        if line.last == 0x0D { line.removeLast() }
        if lineNumber == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        if let first = line.first, first == 0x20 || first == 0x09, !physical.isEmpty {
            logical.append(contentsOf: line.dropFirst())
            physical.append(line)
            if logical.count > maxLineLength { throw lineTooLong(logicalLine) }
            return
        }
        try flushLogical()
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
        logical = line
        physical = [line]
        logicalLine = lineNumber
    }

    private mutating func flushLogical() throws {
        guard !physical.isEmpty else { return }
        defer { physical = []; logical = [] }
        try contentLine()
    }

    /// The name of the current line (before `;` or `:`), upper-cased, and where its value starts.
    private func nameAndValueStart() -> (String, Int?) {
        var end = logical.count
        for (i, b) in logical.enumerated() where b == 0x3A || b == 0x3B { end = i; break }
        let name = String(decoding: logical[..<end], as: UTF8.self).uppercased()
        var quoted = false
        for i in end..<logical.count {
            if logical[i] == 0x22 { quoted.toggle() } else if logical[i] == 0x3A && !quoted { return (name, i + 1) }
        }
        return (name, nil)
    }

    private mutating func contentLine() throws {
        let first = !sawContent
        sawContent = true
        let (name, valueStart) = nameAndValueStart()
        guard let valueStart else {
            if first, logical.first == 0x3C {
                throw SubscriptionError(
                    .unusableFeed,
                    "the feed is a web page, not iCalendar (it starts with \"\(String(decoding: logical.prefix(40), as: UTF8.self))\")",
                    recovery: "the URL may need a login or may have moved; open it in a browser")
            }
            throw SubscriptionError(
                .unusableFeed, "line \(logicalLine) of the feed is not iCalendar: it has no colon",
                recovery: first
                    ? "check the URL: it should serve a .ics file" : "tell the feed's publisher; nothing was changed")
        }
        let value = String(decoding: logical[valueStart...], as: UTF8.self)
        if stack.isEmpty {
            // Properties after END:VCALENDAR are read past, as the parser does.
            if calendars > 0, name != "BEGIN" { return }
            guard name == "BEGIN", value.uppercased() == "VCALENDAR" else {
                let shown = name == "BEGIN" || name == "END" ? "\(name):\(value)" : name
                throw SubscriptionError(
                    .unusableFeed,
                    "the feed is not iCalendar: line \(logicalLine) is \(shown) where BEGIN:VCALENDAR should be",
                    recovery: "check the URL: it should serve a .ics file")
            }
            stack.append("VCALENDAR")
            return
        }
        if stack.count == 1 {
            switch name {
            case "BEGIN":
                stack.append(value.uppercased())
                open = OpenComponent(name: value.uppercased())
                open!.hasher.update(data: logical)
                append(to: &open!)
                open!.afterBegin = open!.data.count
            case "END":
                guard value.uppercased() == "VCALENDAR" else { throw mismatch(value) }
                stack.removeLast()
                calendars += 1
            default:
                if Self.headerProperties.contains(name), header[name] == nil {
                    var line = Data()
                    for p in physical { line.append(contentsOf: p); line.append(contentsOf: [0x0D, 0x0A]) }
                    header[name] = line
                }
            }
            return
        }
        guard var component = open else { return }
        append(to: &component)
        let topLevel = stack.count == 2
        switch name {
        case "BEGIN":
            stack.append(value.uppercased())
        case "END":
            guard value.uppercased() == stack.last else { throw mismatch(value) }
            stack.removeLast()
        case "UID" where topLevel:
            component.uid = value.trimmingCharacters(in: .whitespaces)
        case "TZID" where topLevel && component.name == "VTIMEZONE":
            component.tzid = value
        default:
            if let tzid = tzidParameter(valueStart: valueStart), !component.timeZones.contains(tzid) {
                component.timeZones.append(tzid)
            }
        }
        if name != "DTSTAMP" { component.hasher.update(data: logical); component.hasher.update(data: [0x0A]) }
        if stack.count == 1 {
            open = nil
            close(component)
        } else {
            open = component
        }
    }

    private func mismatch(_ value: String) -> SubscriptionError {
        SubscriptionError(
            .unusableFeed, "line \(logicalLine) of the feed is END:\(value) where END:\(stack.last ?? "") should be",
            recovery: "the feed is not valid iCalendar; tell its publisher. Nothing was changed")
    }

    private func append(to component: inout OpenComponent) {
        for p in physical {
            component.data.append(contentsOf: p)
            component.data.append(contentsOf: [0x0D, 0x0A])
        }
    }

    /// The TZID parameter's value of the current line, if it has one.
    private func tzidParameter(valueStart: Int) -> String? {
        let params = String(decoding: logical[..<(valueStart - 1)], as: UTF8.self)
        guard let range = params.range(of: ";TZID=", options: .caseInsensitive) else { return nil }
        var rest = params[range.upperBound...]
        if rest.hasPrefix("\"") {
            rest = rest.dropFirst()
            return String(rest.prefix { $0 != "\"" })
        }
        return String(rest.prefix { $0 != ";" && $0 != ":" })
    }

    private mutating func close(_ component: OpenComponent) {
        if component.name == "VTIMEZONE" {
            if let tzid = component.tzid, timeZones[tzid] == nil { timeZones[tzid] = component.data }
            return
        }
        var data = component.data
        let uid: String
        let digest = Data(component.hasher.finalize())
        if let given = component.uid, !given.isEmpty {
            uid = given
        } else {
            uid = "calgw-" + ContentHash.hex(digest).prefix(32)
            if groupIndex[uid] != nil { return }
            data.insert(contentsOf: Data("UID:\(uid)\r\n".utf8), at: data.startIndex + component.afterBegin)
        }
        let index: Int
        if let found = groupIndex[uid] {
            index = found
        } else {
            index = groups.count
            groupIndex[uid] = index
            groups.append(Group(uid: uid))
        }
        groups[index].components.append(data)
        groups[index].digest.update(data: digest)
        for tzid in component.timeZones where !groups[index].timeZones.contains(tzid) {
            groups[index].timeZones.append(tzid)
        }
    }
}
