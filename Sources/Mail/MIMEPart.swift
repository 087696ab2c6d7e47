/// One node of a message's MIME tree (RFC 2045, RFC 2046): its header block, its body as
/// written (still transfer-encoded), and, for a multipart or an attached message, its children.
struct MIMEPart: Sendable {
    var headers: MailHeaders
    /// The Content-Type; `text/plain` when the header is missing (RFC 2045 §5.2).
    var contentType: HeaderParameters
    /// The body, from after the header block's empty line to the part's end.
    var body: ArraySlice<UInt8>
    /// The parts of a multipart, or the one message of a `message/rfc822`, in order.
    var children: [MIMEPart]

    /// The tree of `bytes`, read within `limits`.
    /// - Throws: ``MailError`` when the tree has too many parts or nests too deep, when a
    ///   multipart has no boundary or ends before its closing one, or when a header is too long.
    static func parse(_ bytes: ArraySlice<UInt8>, limits: MailLimits) throws -> MIMEPart {
        var count = 0
        return try parse(bytes, depth: 0, count: &count, limits: limits)
    }

    /// Every part of the tree, depth first, in the order they appear in the message.
    func walk(_ visit: (MIMEPart) throws -> Void) rethrows {
        try visit(self)
        for child in children { try child.walk(visit) }
    }

    private static func parse(_ bytes: ArraySlice<UInt8>, depth: Int, count: inout Int, limits: MailLimits) throws
        -> MIMEPart
    {
        count += 1
        if count > limits.maximumParts {
            throw MailError(.tooManyParts, "the message has more than \(limits.maximumParts) MIME parts")
        }
        if depth > limits.maximumDepth {
            throw MailError(.nestedTooDeep, "the message's parts nest more than \(limits.maximumDepth) deep")
        }
        let (headers, bodyStart) = try MailHeaders.parse(bytes, limits: limits)
        let contentType = HeaderParameters(headers.value("Content-Type") ?? "text/plain")
        var part = MIMEPart(headers: headers, contentType: contentType, body: bytes[bodyStart...], children: [])
        if contentType.value.hasPrefix("multipart/") {
            guard let boundary = contentType.parameters["boundary"], !boundary.isEmpty else {
                throw MailError(.missingBoundary, "a \(contentType.value) part names no boundary")
            }
            let (bodies, closed) = try split(part.body, boundary: boundary, type: contentType.value)
            for body in bodies {
                part.children.append(try parse(body, depth: depth + 1, count: &count, limits: limits))
            }
            // Without its closing delimiter, a multipart may have been cut short, and its last part
            // with it: refused, unless that last part is a multipart that closed (or was itself
            // accepted so), where nothing can be missing. Some senders write exactly that, the
            // outer multipart/mixed left open after a closed multipart/alternative.
            if !closed && part.children.last?.contentType.value.hasPrefix("multipart/") != true {
                throw MailError(
                    .truncatedMultipart,
                    "a \(contentType.value) part ends without its closing boundary \"--\(boundary)--\": the message is cut short"
                )
            }
        } else if contentType.value == "message/rfc822",
            (try? TransferEncoding(header: headers.value("Content-Transfer-Encoding"))) == .identity
        {
            part.children.append(try parse(part.body, depth: depth + 1, count: &count, limits: limits))
        }
        return part
    }

    /// The bodies of a multipart's parts: the bytes between its delimiter lines (RFC 2046
    /// §5.1.1), each without the line break that belongs to the delimiter after it, and whether
    /// the closing delimiter came. The preamble before the first delimiter and the epilogue after
    /// the closing one are dropped; without a closing delimiter, the last part runs to the end.
    /// - Throws: ``MailError`` when the boundary never appears.
    private static func split(_ body: ArraySlice<UInt8>, boundary: String, type: String) throws -> (
        [ArraySlice<UInt8>], closed: Bool
    ) {
        let delimiter = Array("--\(boundary)".utf8)
        var parts: [ArraySlice<UInt8>] = []
        var partStart: Int?
        var index = body.startIndex
        while index < body.endIndex {
            let lineStart = index
            let line = body.line(at: index)
            index = line.next
            guard line.content.starts(with: delimiter) else { continue }
            var rest = line.content.dropFirst(delimiter.count)
            while let last = rest.last, last == .space || last == .tab { rest = rest.dropLast() }
            let closes = rest.elementsEqual([.hyphen, .hyphen])
            guard rest.isEmpty || closes else { continue }
            if let start = partStart {
                var end = lineStart
                if end > start && body[end - 1] == .lineFeed { end -= 1 }
                if end > start && body[end - 1] == .carriageReturn { end -= 1 }
                parts.append(body[start..<end])
            }
            if closes { return (parts, true) }
            partStart = index
        }
        guard let start = partStart else {
            throw MailError(.missingBoundary, "a \(type) part's boundary \"\(boundary)\" never appears in it")
        }
        parts.append(body[start...])
        return (parts, false)
    }
}
