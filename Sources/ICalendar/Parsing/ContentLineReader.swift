import Foundation

/// Reads one unfolded content line: `name *(";" param) ":" value` (RFC 5545 §3.1).
enum ContentLineReader {
    struct Result {
        var property: Property
        var hadLowercase = false
        var usedLatin1 = false
        var warnings: [ParseWarning] = []
    }

    /// Reads `line`; with `readsPlainParameters` false, every parameter the full way (which
    /// tests compare the plain way with).
    static func read(_ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, readsPlainParameters: Bool = true) throws
        -> Result
    {
        let n = line.count
        var i = 0
        var lower = false
        var latin1 = false
        var warnings: [ParseWarning] = []

        // Name: up to ';' or ':'.
        while i < n && line[i] != UInt8(ascii: ";") && line[i] != UInt8(ascii: ":") { i += 1 }
        guard i < n else {
            throw ICalendarSyntaxError(line: lineNumber, reason: "content line has no ':' (\(preview(line)))")
        }
        let name = upperName(UnsafeBufferPointer(rebasing: line[0..<i]), &lower)
        guard !name.isEmpty else {
            throw ICalendarSyntaxError(line: lineNumber, reason: "content line has no property name (\(preview(line)))")
        }
        if !isValidName(UnsafeBufferPointer(rebasing: line[0..<i])) {
            warnings.append(
                ParseWarning(
                    line: lineNumber, message: "property name '\(name)' has characters RFC 5545 does not allow"))
        }

        // Parameters: plain ones straight into their text, any others one by one.
        var parameters: [Parameter] = []
        var plainText: String?
        if readsPlainParameters, i < n && line[i] == UInt8(ascii: ";"),
            let plain = PlainParameters.read(line, from: i, sawLower: &lower)
        {
            plainText = plain.text
            i = plain.end
        }
        while i < n && line[i] == UInt8(ascii: ";") {
            i += 1
            let nameStart = i
            while i < n && line[i] != UInt8(ascii: "=") && line[i] != UInt8(ascii: ";") && line[i] != UInt8(ascii: ":")
            { i += 1 }
            guard i < n else {
                throw ICalendarSyntaxError(
                    line: lineNumber, reason: "content line has no ':' after its parameters (\(preview(line)))")
            }
            let paramName = upperName(UnsafeBufferPointer(rebasing: line[nameStart..<i]), &lower)
            if paramName.isEmpty && line[i] != UInt8(ascii: "=") {
                // An empty parameter (`DTSTART;;VALUE=…`): kept, so the line is written back as it was.
                warnings.append(ParseWarning(line: lineNumber, message: "\(name) has an empty parameter"))
                parameters.append(Parameter(name: "", values: []))
                continue
            }
            var values: [String] = []
            if line[i] == UInt8(ascii: "=") {
                i += 1
                while true {
                    if i < n && line[i] == UInt8(ascii: "\"") {
                        let valueStart = i + 1
                        var j = valueStart
                        while j < n && line[j] != UInt8(ascii: "\"") { j += 1 }
                        guard j < n else {
                            throw ICalendarSyntaxError(
                                line: lineNumber, reason: "parameter \(paramName) has an unclosed quote")
                        }
                        values.append(
                            decodeParameterValue(UnsafeBufferPointer(rebasing: line[valueStart..<j]), &latin1))
                        i = j + 1
                    } else {
                        let valueStart = i
                        var unescaped: [UInt8]? = nil
                        while i < n && line[i] != UInt8(ascii: ",") && line[i] != UInt8(ascii: ";")
                            && line[i] != UInt8(ascii: ":")
                        {
                            // Outlook-style `\;` `\,` `\:` in an unquoted value: the producer meant the character.
                            if line[i] == UInt8(ascii: "\\"), i + 1 < n,
                                line[i + 1] == UInt8(ascii: ";") || line[i + 1] == UInt8(ascii: ",")
                                    || line[i + 1] == UInt8(ascii: ":")
                            {
                                if unescaped == nil { unescaped = Array(line[valueStart..<i]) }
                                unescaped!.append(line[i + 1])
                                i += 2
                                continue
                            }
                            unescaped?.append(line[i])
                            i += 1
                        }
                        if let unescaped {
                            warnings.append(
                                ParseWarning(
                                    line: lineNumber,
                                    message: "parameter \(paramName) escapes with a backslash; it should be quoted"))
                            values.append(unescaped.withUnsafeBufferPointer { decodeParameterValue($0, &latin1) })
                        } else {
                            values.append(
                                decodeParameterValue(UnsafeBufferPointer(rebasing: line[valueStart..<i]), &latin1))
                        }
                    }
                    if i < n && line[i] == UInt8(ascii: ",") { i += 1; continue }
                    break
                }
            } else {
                warnings.append(
                    ParseWarning(line: lineNumber, message: "parameter \(paramName) of \(name) has no value"))
                values.append("")
            }
            guard i < n else {
                throw ICalendarSyntaxError(
                    line: lineNumber, reason: "content line has no ':' after its parameters (\(preview(line)))")
            }
            if line[i] != UInt8(ascii: ";") && line[i] != UInt8(ascii: ":") {
                // Text after a closing quote: keep it as part of the value (as producers meant).
                let junkStart = i
                while i < n && line[i] != UInt8(ascii: ";") && line[i] != UInt8(ascii: ":") { i += 1 }
                guard i < n else {
                    throw ICalendarSyntaxError(
                        line: lineNumber, reason: "content line has no ':' after its parameters (\(preview(line)))")
                }
                values[values.count - 1] += decode(UnsafeBufferPointer(rebasing: line[junkStart..<i]), &latin1)
                warnings.append(
                    ParseWarning(line: lineNumber, message: "parameter \(paramName) has text after its closing quote"))
            }
            parameters.append(Parameter(name: paramName, values: values))
        }
        // Value: everything after the ':'.
        let value = decode(UnsafeBufferPointer(rebasing: line[(i + 1)..<n]), &latin1)
        var property = Property(
            uppercasedName: name, parameterText: plainText ?? ParameterText.encode(parameters), value: value)
        property.line = lineNumber
        return Result(property: property, hadLowercase: lower, usedLatin1: latin1, warnings: warnings)
    }

    /// Upper-cases an ASCII name without going through Unicode case mapping.
    static func upperName(_ bytes: UnsafeBufferPointer<UInt8>, _ sawLower: inout Bool) -> String {
        var needs = false
        for b in bytes where b >= 0x61 && b <= 0x7A { needs = true; break }
        if !needs {
            var dummy = false
            return decode(bytes, &dummy)
        }
        sawLower = true
        return String(unsafeUninitializedCapacity: bytes.count) { buffer in
            for (i, b) in bytes.enumerated() { buffer[i] = b >= 0x61 && b <= 0x7A ? b - 0x20 : b }
            return bytes.count
        }
    }

    static func isValidName(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { b in
            (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D
        }
    }

    /// UTF-8 when valid, else Latin-1 (every byte one scalar), so no byte is ever lost.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ usedLatin1: inout Bool) -> String {
        // Decoding repairs ill-formed UTF-8 (with U+FFFD), so the text is the bytes exactly when
        // they were well-formed. `String(validating:as:)` says the same, but is generic over the
        // encoding and the sequence and was a twentieth of a first pull's time.
        var s = String(decoding: bytes, as: UTF8.self)
        let wellFormed = s.withUTF8 { text in
            text.count == bytes.count
                && (text.count == 0 || memcmp(text.baseAddress!, bytes.baseAddress!, text.count) == 0)
        }
        if wellFormed { return s }
        usedLatin1 = true
        s = ""
        s.unicodeScalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
        return s
    }

    /// A parameter value with RFC 6868 caret escapes resolved (`^n`, `^^`, `^'`).
    static func decodeParameterValue(_ bytes: UnsafeBufferPointer<UInt8>, _ usedLatin1: inout Bool) -> String {
        let s = decode(bytes, &usedLatin1)
        guard bytes.contains(UInt8(ascii: "^")) else { return s }
        // By scalar, not by Character: a combining mark after `^` would join it into one
        // Character that is no longer a caret.
        var out = String.UnicodeScalarView()
        var caret = false
        for c in s.unicodeScalars {
            if caret {
                switch c {
                case "n": out.append("\n")
                case "^": out.append("^")
                case "'": out.append("\"")
                default: out.append("^"); out.append(c)
                }
                caret = false
            } else if c == "^" {
                caret = true
            } else {
                out.append(c)
            }
        }
        if caret { out.append("^") }
        return String(out)
    }

    static func preview(_ line: UnsafeBufferPointer<UInt8>) -> String {
        var dummy = false
        let s = decode(UnsafeBufferPointer(rebasing: line[0..<min(line.count, 40)]), &dummy)
        return "'" + printable(s) + (line.count > 40 ? "…" : "") + "'"
    }
}
