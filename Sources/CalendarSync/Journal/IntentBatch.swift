import Foundation

/// The intents of one batch as the journal stores them: one row for the batch, its intents
/// packed in the row's `members` column.
///
/// A first pull of 100,000 items wrote an intent row per item, marked each done and pruned
/// each at the end: about a third of what its journal cost, and as much as the SQLite work of
/// its item rows. A batch's intents are recorded together and settled together, so one row
/// holds them: its state says whether the whole batch is settled, and recovery after an
/// interruption looks at each member, as it looks at a single intent.
///
/// The row's own columns describe its first member, so a person reading the journal sees
/// what the batch began with. The packing: a count, then for each intent its operation and
/// side (one byte each) and its key, href, etag and hash, each a length and UTF-8 bytes
/// (length `UInt32.max` for none). Lengths are little-endian 32-bit words. An intent with a
/// ``Intent/source`` has its side in capitals (`L`, `R`), and the source's href, etag and hash
/// follow its hash (the hash as none when it is the intent's own, as for every plain copy);
/// rows written before sources were recorded read as intents without one.
enum IntentBatch {
    /// The intents packed for the `members` column (their ids are not stored: they share the row's).
    static func pack(_ intents: [Intent]) -> Data {
        // Gathered in a buffer written through its pointer and made a `Data` once: appending to
        // a `Data` byte by byte, then to an array a word at a time, showed in a first pull's profile.
        var out = ByteBuffer(capacity: intents.count * 160)
        appendWord(UInt32(intents.count), to: &out)
        for intent in intents {
            out.append(code(of: intent.operation))
            let side = intent.side == .local ? UInt8(ascii: "l") : UInt8(ascii: "r")
            out.append(intent.source == nil ? side : side - 0x20)
            appendText(intent.key.value, to: &out)
            appendText(intent.href?.value, to: &out)
            appendText(intent.ifMatch?.value, to: &out)
            appendText(intent.newHash, to: &out)
            if let source = intent.source {
                appendText(source.href.value, to: &out)
                appendText(source.etag.value, to: &out)
                appendText(source.hash == intent.newHash ? nil : source.hash, to: &out)
            }
        }
        return Data(out.contents)
    }

    /// How many intents a packed `members` value holds; nil when it is too short to say.
    static func count(of packed: Data) -> Int? {
        var reader = Reader(packed)
        return reader.word().map(Int.init)
    }

    /// The intents of a packed `members` value, each with the row's `id`; nil when the value
    /// is not one `pack` wrote (cut short, an unknown operation, text that is not UTF-8).
    static func unpack(_ packed: Data, id: Int64) -> [Intent]? {
        var reader = Reader(packed)
        guard let count = reader.word(), Int(count) <= packed.count else { return nil }
        var intents: [Intent] = []
        intents.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let op = reader.byte().flatMap(operation(coded:)),
                let sideCode = reader.byte(), let side = side(coded: sideCode),
                case .some(.some(let key)) = reader.text(),
                let href = reader.text(), let ifMatch = reader.text(), let hash = reader.text()
            else { return nil }
            var source: SideRecord?
            if side.hasSource {
                guard case .some(.some(let sourceHref)) = reader.text(),
                    case .some(.some(let sourceEtag)) = reader.text(),
                    let sourceHash = reader.text(), let sourceHash = sourceHash ?? hash
                else { return nil }
                source = SideRecord(
                    href: ItemHref(sourceHref), etag: ItemETag(sourceEtag), hash: ContentHash(sourceHash))
            }
            intents.append(
                Intent(
                    id: id, key: ItemKey(key), operation: op, side: side.side,
                    href: href.map { ItemHref($0) }, ifMatch: ifMatch.map { ItemETag($0) },
                    newHash: hash.map(ContentHash.init), source: source))
        }
        return reader.isAtEnd ? intents : nil
    }

    private static func code(of operation: Intent.Operation) -> UInt8 {
        switch operation {
        case .create: UInt8(ascii: "c")
        case .update: UInt8(ascii: "u")
        case .delete: UInt8(ascii: "d")
        }
    }

    private static func operation(coded code: UInt8) -> Intent.Operation? {
        switch code {
        case UInt8(ascii: "c"): .create
        case UInt8(ascii: "u"): .update
        case UInt8(ascii: "d"): .delete
        default: nil
        }
    }

    /// The side a side byte names, and whether a source follows (capitals).
    private static func side(coded code: UInt8) -> (side: Side, hasSource: Bool)? {
        switch code {
        case UInt8(ascii: "l"): (.local, false)
        case UInt8(ascii: "r"): (.remote, false)
        case UInt8(ascii: "L"): (.local, true)
        case UInt8(ascii: "R"): (.remote, true)
        default: nil
        }
    }

    private static let none = UInt32.max

    private static func appendWord(_ word: UInt32, to out: inout ByteBuffer) {
        withUnsafeBytes(of: word.littleEndian) { out.append($0.assumingMemoryBound(to: UInt8.self)) }
    }

    private static func appendText(_ hash: ContentHash?, to out: inout ByteBuffer) {
        guard let hash else { appendWord(none, to: &out); return }
        hash.withText { appendText($0, to: &out) }
    }

    private static func appendText(_ text: String?, to out: inout ByteBuffer) {
        guard var text else { appendWord(none, to: &out); return }
        text.withUTF8 { appendText($0, to: &out) }
    }

    /// A length and the bytes.
    private static func appendText(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout ByteBuffer) {
        appendWord(UInt32(bytes.count), to: &out)
        out.append(bytes)
    }

    /// Reads a packed value front to back, in place; each read is nil past its end.
    private struct Reader {
        let bytes: Data
        /// Where the next read starts, in `bytes`' own indices.
        var offset: Int
        init(_ data: Data) {
            bytes = data
            offset = data.startIndex
        }

        var isAtEnd: Bool { offset == bytes.endIndex }

        mutating func byte() -> UInt8? {
            guard offset < bytes.endIndex else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func word() -> UInt32? {
            guard bytes.endIndex - offset >= 4 else { return nil }
            defer { offset += 4 }
            return (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
        }

        /// A text: .some(nil) for none, nil when the value is cut short or not UTF-8.
        mutating func text() -> String?? {
            guard let length = word() else { return nil }
            if length == IntentBatch.none { return .some(nil) }
            guard bytes.endIndex - offset >= Int(length) else { return nil }
            defer { offset += Int(length) }
            return String(validating: bytes[offset..<offset + Int(length)], as: UTF8.self).map { .some($0) }
        }
    }
}
