import Foundation

extension ListingIndex {
    /// Why a stored index is not used.
    struct Unusable: Error, CustomStringConvertible {
        var description: String
    }

    /// Takes the stored index `data`: its header checked and its checksum verified (its
    /// entries are read as they are matched, each within bounds).
    /// - Throws: ``Unusable`` saying what is wrong.
    func load(_ data: [UInt8]) throws {
        var reader = Reader(data: data)
        guard try reader.bytes(Self.magic.count).elementsEqual(Self.magic) else {
            throw Unusable(description: "not an index")
        }
        guard try reader.uint32() == Self.formatVersion else { throw Unusable(description: "another format") }
        guard try reader.bytes(fingerprint.digest.count).elementsEqual(fingerprint.digest) else {
            throw Unusable(description: "another calgw or other time-zone data")
        }
        let rootLength = Int(try reader.uint32())
        guard try reader.bytes(rootLength).elementsEqual(listing.root.utf8) else {
            throw Unusable(description: "another root")
        }
        let count = Int(try reader.uint32())
        let payloadLength = try reader.uint64()
        let checksum = try reader.uint64()
        guard payloadLength == UInt64(data.count - reader.offset) else { throw Unusable(description: "cut short") }
        let sum = data.withUnsafeBytes { Self.checksum(UnsafeRawBufferPointer(rebasing: $0[reader.offset...])) }
        guard sum == checksum else { throw Unusable(description: "checksum") }
        for _ in 0..<Int(try reader.uint32()) {
            let folder = try ScannedFolder.read(from: &reader)
            storedFolders[folder.key] = folder
        }
        buffer = data
        payload = reader.offset..<data.count
        storedCount = count
    }

    /// One stored entry, read in place.
    struct EntryView {
        var key: Range<Int>
        var stamp: FileStamp
        var flags: Flags
        /// Where its spans start, 16 bytes each.
        var spans: Int
        var spanCount: Int
        /// Where the next entry starts.
        var end: Int
    }

    /// The entry starting at `start` in `bytes` (the buffer), nil when it would run past the end.
    static func entry(at start: Int, in bytes: UnsafeRawBufferPointer) -> EntryView? {
        func word<T: FixedWidthInteger>(_ at: Int, _: T.Type) -> T {
            T(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: T.self))
        }
        guard start >= 0, start <= bytes.count - 4 else { return nil }
        let keyLength = Int(word(start, UInt32.self))
        let key = start + 4
        let fixed = key + keyLength
        // The stamp's five numbers, the flags and the span count.
        guard keyLength <= bytes.count, fixed <= bytes.count - 45 else { return nil }
        let spanCount = Int(word(fixed + 41, UInt32.self))
        let spans = fixed + 45
        guard spanCount <= (bytes.count - spans) / 16 else { return nil }
        return EntryView(
            key: key..<fixed,
            stamp: FileStamp(
                device: word(fixed, UInt64.self), inode: word(fixed + 8, UInt64.self),
                size: word(fixed + 16, Int64.self),
                modified: word(fixed + 24, Int64.self), changed: word(fixed + 32, Int64.self)),
            flags: Flags(rawValue: bytes[fixed + 40]), spans: spans, spanCount: spanCount, end: spans + spanCount * 16)
    }

    /// Pairs each listed file with the stored entry of the same key, and keeps it when it is
    /// fresh (same stamp, not racy). Files come in the order their entries were written, so
    /// each is first compared with the entry after the last one matched; the entries are read
    /// into a dictionary of keys only when that fails.
    /// - Throws: ``Unusable`` for an entry past the end of the index.
    func match() throws {
        try buffer.withUnsafeBytes { bytes in
            let payloadEnd = payload.upperBound
            let payloadBytes = UnsafeRawBufferPointer(rebasing: bytes[..<payloadEnd])
            var byKey: [String: Int]? = nil
            var next = payload.lowerBound
            var matched = 0
            storedInOrder = true
            for i in 0..<listing.count {
                var found: EntryView? = nil
                if next < payloadEnd {
                    guard let e = Self.entry(at: next, in: payloadBytes) else { throw Unusable(description: "damaged") }
                    if keyEquals(e, i, in: bytes) { found = e }
                }
                if found == nil {
                    storedInOrder = false
                    if byKey == nil { byKey = try keys(in: payloadBytes) }
                    let key = listing.relativeFolder(of: i) + listing.name(of: i)
                    found = byKey![key].flatMap { Self.entry(at: $0, in: payloadBytes) }
                }
                guard let e = found else { continue }
                matched += 1
                next = e.end
                if let stamp = listing.stamps[i], stamp == e.stamp, !e.flags.contains(.racy) {
                    fresh[i] = e.key.lowerBound - 4
                    freshCount += 1
                }
            }
            if next != payloadEnd || matched != storedCount { storedInOrder = false }
        }
    }

    /// Every stored entry's start, by key.
    func keys(in bytes: UnsafeRawBufferPointer) throws -> [String: Int] {
        var keys: [String: Int] = [:]
        keys.reserveCapacity(storedCount)
        var at = payload.lowerBound
        for _ in 0..<storedCount {
            guard let e = Self.entry(at: at, in: bytes) else { throw Unusable(description: "damaged") }
            keys[String(decoding: UnsafeRawBufferPointer(rebasing: bytes[e.key]), as: UTF8.self)] = at
            at = e.end
        }
        return keys
    }

    /// Whether the key of `entry` is the key of the listed file at `index`.
    func keyEquals(_ entry: EntryView, _ index: Int, in bytes: UnsafeRawBufferPointer) -> Bool {
        var relative = listing.relativeFolder(of: index)
        return relative.withUTF8 { r in
            listing.withName(of: index) { n in
                guard r.count + n.count == entry.key.count else { return false }
                let base = bytes.baseAddress! + entry.key.lowerBound
                return (r.isEmpty || memcmp(base, r.baseAddress!, r.count) == 0)
                    && (n.isEmpty || memcmp(base + r.count, n.baseAddress!, n.count) == 0)
            }
        }
    }

    /// The index to write: the header, the folders the listing read (or took from the index),
    /// then each listed file's entry (recorded in this run, or the fresh stored one), in
    /// listing order.
    func encoded() -> [UInt8] {
        var payload: [UInt8] = []
        payload.reserveCapacity(buffer.count + recorded.values.reduce(0) { $0 + $1.count })
        Self.append(UInt32(listing.scanned.count), to: &payload)
        for folder in listing.scanned { folder.append(to: &payload) }
        var count = 0
        buffer.withUnsafeBytes { bytes in
            for i in 0..<listing.count {
                if let entry = recorded[i] {
                    payload += entry
                } else if fresh[i] >= 0, let e = Self.entry(at: fresh[i], in: bytes) {
                    payload += UnsafeRawBufferPointer(rebasing: bytes[fresh[i]..<e.end])
                } else {
                    continue
                }
                count += 1
            }
        }
        var out: [UInt8] = Self.magic
        out.reserveCapacity(payload.count + 128 + listing.root.utf8.count)
        Self.append(Self.formatVersion, to: &out)
        out += fingerprint.digest
        Self.append(UInt32(listing.root.utf8.count), to: &out)
        out += Array(listing.root.utf8)
        Self.append(UInt32(count), to: &out)
        Self.append(UInt64(payload.count), to: &out)
        Self.append(payload.withUnsafeBytes { Self.checksum($0) }, to: &out)
        out += payload
        return out
    }

    /// Appends one entry in the stored form.
    static func appendEntry(
        key: [UInt8], stamp: FileStamp, flags: Flags, spans: [ClosedRange<Int64>], to out: inout [UInt8]
    ) {
        append(UInt32(key.count), to: &out)
        out += key
        append(stamp.device, to: &out)
        append(stamp.inode, to: &out)
        append(UInt64(bitPattern: stamp.size), to: &out)
        append(UInt64(bitPattern: stamp.modified), to: &out)
        append(UInt64(bitPattern: stamp.changed), to: &out)
        out.append(flags.rawValue)
        append(UInt32(spans.count), to: &out)
        for s in spans {
            append(UInt64(bitPattern: s.lowerBound), to: &out)
            append(UInt64(bitPattern: s.upperBound), to: &out)
        }
    }

    static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out += $0 }
    }

    /// A 64-bit hash of the bytes, eight at a time: it catches a damaged file, not an attacker.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var i = 0
        while i + 8 <= bytes.count {
            h =
                (h ^ UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
                &* 0xFF51_AFD7_ED55_8CCD
            h ^= h >> 29
            i += 8
        }
        while i < bytes.count {
            h = (h ^ UInt64(bytes[i])) &* 0x0000_0100_0000_01B3
            i += 1
        }
        return h ^ (h >> 32)
    }

    /// Writes `bytes` to a new file at `path` (mode 0600); false on any failure.
    static func write(_ bytes: [UInt8], to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        var done = 0
        let ok = bytes.withUnsafeBytes { raw in
            while done < raw.count {
                let n = Foundation.write(fd, raw.baseAddress! + done, raw.count - done)
                if n <= 0 { return false }
                done += n
            }
            return true
        }
        close(fd)
        if !ok { unlink(path) }
        return ok
    }

    /// Reads the stored form, throwing ``Unusable`` past its end.
    struct Reader {
        let data: [UInt8]
        var offset = 0

        mutating func skip(_ n: Int) throws {
            guard n >= 0, n <= data.count - offset else { throw Unusable(description: "cut short") }
            offset += n
        }

        mutating func bytes(_ n: Int) throws -> ArraySlice<UInt8> {
            let start = offset
            try skip(n)
            return data[start..<offset]
        }

        mutating func uint8() throws -> UInt8 {
            try skip(1)
            return data[offset - 1]
        }

        mutating func uint32() throws -> UInt32 {
            try skip(4)
            return data.withUnsafeBytes {
                UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset - 4, as: UInt32.self))
            }
        }

        mutating func uint64() throws -> UInt64 {
            try skip(8)
            return data.withUnsafeBytes {
                UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: offset - 8, as: UInt64.self))
            }
        }
    }
}
