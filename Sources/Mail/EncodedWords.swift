/// RFC 2047 encoded words (`=?utf-8?Q?Caf=C3=A9?=`, `=?iso-8859-1?B?...?=`), the way non-ASCII
/// text travels in Subject and in the names of From, To and Cc.
enum EncodedWords {
    /// `text` with its encoded words decoded. Whitespace between two adjacent encoded words is
    /// dropped (RFC 2047 §6.2); an encoded word in an unknown charset or encoding is left as
    /// written, so that the header still says something.
    static func decode(_ text: String) -> String {
        guard text.contains("=?") else { return text }
        var result = ""
        var pendingSpace = ""
        var lastWasEncoded = false
        var rest = Substring(text)
        while !rest.isEmpty {
            if let (decoded, after) = encodedWord(at: rest) {
                if !lastWasEncoded { result += pendingSpace }
                result += decoded
                pendingSpace = ""
                lastWasEncoded = true
                rest = after
                continue
            }
            let character = rest.removeFirst()
            if character == " " || character == "\t" {
                pendingSpace.append(character)
                continue
            }
            result += pendingSpace
            pendingSpace = ""
            result.append(character)
            lastWasEncoded = false
        }
        return result + pendingSpace
    }

    /// The encoded word at the start of `text` decoded, and the text after it; nil when `text`
    /// does not start with one that can be decoded.
    private static func encodedWord(at text: Substring) -> (String, Substring)? {
        guard text.hasPrefix("=?") else { return nil }
        let body = text.dropFirst(2)
        guard let firstMark = body.firstIndex(of: "?") else { return nil }
        let afterCharset = body[body.index(after: firstMark)...]
        guard let secondMark = afterCharset.firstIndex(of: "?") else { return nil }
        let encodedText = afterCharset[afterCharset.index(after: secondMark)...]
        guard let end = encodedText.range(of: "?=") else { return nil }
        var charsetName = String(body[..<firstMark])
        // An RFC 2231 language after the charset (`utf-8*en`) is dropped.
        if let star = charsetName.firstIndex(of: "*") { charsetName = String(charsetName[..<star]) }
        let encoding = afterCharset[..<secondMark].lowercased()
        let payload = Array(encodedText[..<end.lowerBound].utf8)
        guard let charset = try? Charset(name: charsetName) else { return nil }
        let bytes: [UInt8]
        switch encoding {
        case "b":
            guard let decoded = try? TransferEncoding.base64.decode(payload[...]) else { return nil }
            bytes = decoded
        case "q":
            let underscoresAsSpaces = payload.map { $0 == UInt8(ascii: "_") ? UInt8.space : $0 }
            bytes = try! TransferEncoding.quotedPrintable.decode(underscoresAsSpaces[...])
        default:
            return nil
        }
        return (charset.decode(bytes), encodedText[end.upperBound...])
    }
}
