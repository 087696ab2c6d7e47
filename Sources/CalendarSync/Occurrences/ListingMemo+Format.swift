import Foundation

extension ListingMemo {
    /// The memo's bytes: magic, format version, the request's digest, the indexes' digest, the
    /// number of occurrences, the problems and warnings (each a file and a message), the
    /// output, then a checksum of all that (``ListingIndex/checksum(_:)``). Numbers are
    /// little-endian; a text is its UTF-8 length (four bytes) and its bytes.
    static func encode(_ said: Said, request: [UInt8], indexes: [UInt8]) -> [UInt8] {
        var bytes = magic
        ListingIndex.append(formatVersion, to: &bytes)
        bytes += request
        bytes += indexes
        ListingIndex.append(UInt64(said.occurrences), to: &bytes)
        for reports in [said.problems, said.warnings] {
            ListingIndex.append(UInt32(reports.count), to: &bytes)
            for report in reports {
                for text in [report.file, report.message] {
                    ListingIndex.append(UInt32(text.utf8.count), to: &bytes)
                    bytes += text.utf8
                }
            }
        }
        ListingIndex.append(UInt64(said.output.count), to: &bytes)
        bytes += said.output
        let sum = bytes.withUnsafeBytes { ListingIndex.checksum($0) }
        ListingIndex.append(sum, to: &bytes)
        return bytes
    }

    /// What the memo `bytes` say, when they are whole, of this format, and were kept for
    /// `request` under `indexes`; nil otherwise.
    static func decode(_ bytes: [UInt8], request: [UInt8], indexes: [UInt8]) -> Said? {
        bytes.withUnsafeBytes { raw -> Said? in
            guard raw.count >= 8 else { return nil }
            let body = UnsafeRawBufferPointer(rebasing: raw[..<(raw.count - 8)])
            let sum = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self))
            guard ListingIndex.checksum(body) == sum else { return nil }
            var reader = ListingIndex.Reader(data: body)
            do {
                guard try reader.bytes(magic.count).elementsEqual(magic), try reader.uint32() == formatVersion,
                    try reader.bytes(request.count).elementsEqual(request),
                    try reader.bytes(indexes.count).elementsEqual(indexes)
                else { return nil }
                let occurrences = Int(try reader.uint64())
                var lists: [[Report]] = []
                for _ in 0..<2 {
                    var reports: [Report] = []
                    for _ in 0..<Int(try reader.uint32()) {
                        let file = try text(&reader), message = try text(&reader)
                        reports.append(Report(file: file, message: message))
                    }
                    lists.append(reports)
                }
                let output = Array(try reader.bytes(Int(try reader.uint64())))
                guard reader.offset == body.count else { return nil }
                return Said(problems: lists[0], warnings: lists[1], occurrences: occurrences, output: output)
            } catch {
                return nil
            }
        }
    }

    /// A text as ``encode(_:request:indexes:)`` writes it.
    private static func text(_ reader: inout ListingIndex.Reader) throws -> String {
        String(decoding: try reader.bytes(Int(try reader.uint32())), as: UTF8.self)
    }
}
