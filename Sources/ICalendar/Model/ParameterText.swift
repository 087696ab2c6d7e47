/// Parameters kept as their canonical text (`;TZID=Europe/Berlin;CN="Doe, Jane"`), which is
/// what the serializer writes, so a property costs one short string instead of an array of
/// arrays. Equal parameters always have equal text: values are quoted only where RFC 5545
/// requires and caret-escaped per RFC 6868, names are upper case.
enum ParameterText {
    static func encode(_ parameters: [Parameter]) -> String {
        guard !parameters.isEmpty else { return "" }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        append(parameters, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func append(_ parameters: [Parameter], into bytes: inout [UInt8]) {
        for param in parameters {
            bytes.append(UInt8(ascii: ";"))
            if param.name.isEmpty && param.values.isEmpty { continue }  // an empty parameter, as read
            bytes.append(contentsOf: param.name.utf8)
            bytes.append(UInt8(ascii: "="))
            let quoteAlways = ParameterQuoting.alwaysQuoted.contains(param.name)
            for (k, v) in param.values.enumerated() {
                if k > 0 { bytes.append(UInt8(ascii: ",")) }
                ParameterQuoting.append(v, quoteAlways: quoteAlways, into: &bytes)
            }
        }
    }

    /// Decodes text written by `encode`.
    static func decode(_ text: String) -> [Parameter] {
        guard !text.isEmpty else { return [] }
        var result: [Parameter] = []
        var utf8 = Array(text.utf8)[...]
        while utf8.first == UInt8(ascii: ";") {
            utf8 = utf8.dropFirst()
            guard let eq = utf8.firstIndex(where: { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: ";") }),
                utf8[eq] == UInt8(ascii: "=")
            else {
                // An empty parameter (`;;`), or a trailing one.
                if utf8.first == UInt8(ascii: ";") || utf8.isEmpty { result.append(Parameter(name: "", values: [])) }
                continue
            }
            let name = String(decoding: utf8[utf8.startIndex..<eq], as: UTF8.self)
            utf8 = utf8[(eq + 1)...]
            var values: [String] = []
            while true {
                var raw: ArraySlice<UInt8>
                if utf8.first == UInt8(ascii: "\"") {
                    let body = utf8.dropFirst()
                    let close = body.firstIndex(of: UInt8(ascii: "\"")) ?? body.endIndex
                    raw = body[body.startIndex..<close]
                    utf8 = close < body.endIndex ? body[(close + 1)...] : body[close...]
                } else {
                    let end = utf8.firstIndex { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ";") } ?? utf8.endIndex
                    raw = utf8[utf8.startIndex..<end]
                    utf8 = utf8[end...]
                }
                values.append(uncaret(raw))
                if utf8.first == UInt8(ascii: ",") { utf8 = utf8.dropFirst(); continue }
                break
            }
            result.append(Parameter(name: name, values: values))
        }
        return result
    }

    /// The first value of one parameter (`name` in upper case): `values(of:in:).first`, without
    /// the array for a text that is that one parameter (a TZID looked up for each date).
    static func firstValue(of name: String, in text: String) -> String? {
        guard !text.isEmpty, text.utf8.count > name.utf8.count else { return nil }
        if let only = onlyPlainValue(of: name, in: text) { return only }
        return values(of: name, in: text).first
    }

    /// The values of one parameter, without decoding the others.
    static func values(of name: String, in text: String) -> [String] {
        guard !text.isEmpty, text.utf8.count > name.utf8.count else { return [] }
        // A text that is that one parameter (a TZID, a VALUE) first: it needs no search, nor
        // the search's `;NAME=` made as a string, which was most of a TZID lookup.
        if let only = onlyPlainValue(of: name, in: text) { return [only] }
        // Each parameter is written `;NAME=`: a text without that has none of the name's values
        // (nor is decoded, which a TZID lookup over an attendee's parameters did). A quoted
        // value holding those bytes is read by the full decode.
        if !name.isEmpty, !text.containsUTF8(";" + name + "=") { return [] }
        return decode(text).filter { $0.name == name }.flatMap(\.values)
    }

    /// The value of a text that is one parameter, `;NAME=value`, whose value is unquoted and
    /// has no `,` or `^` (`;TZID=Europe/Berlin`, `;VALUE=DATE`): the value as written, which is
    /// what decoding gives. Nil for any other text.
    private static func onlyPlainValue(of name: String, in text: String) -> String? {
        var text = text
        var name = name
        return text.withUTF8 { bytes -> String? in
            name.withUTF8 { name -> String? in
                let valueStart = name.count + 2
                guard bytes.count >= valueStart, bytes[0] == UInt8(ascii: ";"),
                    bytes[valueStart - 1] == UInt8(ascii: "="),
                    UnsafeBufferPointer(rebasing: bytes[1..<(valueStart - 1)]).elementsEqual(name)
                else { return nil }
                let value = UnsafeBufferPointer(rebasing: bytes[valueStart...])
                guard
                    !value.contains(where: {
                        $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"")
                            || $0 == UInt8(ascii: "^")
                    })
                else { return nil }
                return String(decoding: value, as: UTF8.self)
            }
        }
    }

    static func uncaret(_ raw: ArraySlice<UInt8>) -> String {
        guard raw.contains(UInt8(ascii: "^")) else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var caret = false
        for b in raw {
            if caret {
                switch b {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "^"): out.append(UInt8(ascii: "^"))
                case UInt8(ascii: "'"): out.append(UInt8(ascii: "\""))
                default: out.append(UInt8(ascii: "^")); out.append(b)
                }
                caret = false
            } else if b == UInt8(ascii: "^") {
                caret = true
            } else {
                out.append(b)
            }
        }
        if caret { out.append(UInt8(ascii: "^")) }
        return String(decoding: out, as: UTF8.self)
    }
}
