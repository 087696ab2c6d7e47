import CChecksum
import Foundation

extension ListingIndex {
    /// Why a stored index is not used.
    struct Unusable: Error, CustomStringConvertible {
        var description: String
    }

    /// Takes the stored index `data`: its header checked and its checksum verified (its
    /// entries are read as they are matched, each within bounds).
    /// - Throws: ``Unusable`` saying what is wrong.
    func load(_ data: IndexBytes) throws {
        var reader = Reader(data: data.raw)
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
        let headerEnd = reader.offset
        guard payloadLength == UInt64(data.count - reader.offset) else { throw Unusable(description: "cut short") }
        let sum = Self.checksum(UnsafeRawBufferPointer(rebasing: data.raw[reader.offset...]))
        guard sum == checksum else { throw Unusable(description: "checksum") }
        for _ in 0..<Int(try reader.uint32()) {
            let folder = try ScannedFolder.read(from: &reader)
            storedFolders[folder.key] = folder
        }
        buffer = data
        payload = reader.offset..<data.count
        storedCount = count
        identity = Array(UnsafeRawBufferPointer(rebasing: data.raw[..<headerEnd]))
    }

    /// One stored entry, read in place.
    struct EntryView {
        var key: Range<Int>
        var stamp: FileStamp
        var flags: Flags
        /// Where its spans start, 16 bytes each.
        var spans: Int
        var spanCount: Int
        /// Where its facts are (empty without).
        var facts: Range<Int>
        /// Where the next entry starts.
        var end: Int
    }

    /// The entry starting at `start` in `bytes` (the buffer), nil when it would run past the end.
    /// (Inlined: it is read for every listed file, and again for each file a command asks of;
    /// called, it returned the entry through memory in 75 instructions.)
    @inline(__always)
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
        let flags = Flags(rawValue: bytes[fixed + 40])
        var end = spans + spanCount * 16
        var facts = end..<end
        if flags.contains(.facts) {
            guard end <= bytes.count - 4 else { return nil }
            let length = Int(word(end, UInt32.self))
            guard length <= bytes.count - end - 4 else { return nil }
            facts = end + 4..<end + 4 + length
            end = facts.upperBound
        }
        return EntryView(
            key: key..<fixed,
            stamp: FileStamp(
                device: word(fixed, UInt64.self), inode: word(fixed + 8, UInt64.self),
                size: word(fixed + 16, Int64.self),
                modified: word(fixed + 24, Int64.self), changed: word(fixed + 32, Int64.self)),
            flags: flags, spans: spans, spanCount: spanCount, facts: facts, end: end)
    }

    /// Pairs each listed file with the stored entry of the same key, and keeps it when it is
    /// fresh (same stamp, not racy). Files come in the order their entries were written, so
    /// each is first compared with the entry after the last one matched; the entries are read
    /// into a dictionary of keys only when that fails. The loop runs once per listed file of
    /// every reading command, so it reads the listing through buffers taken once and keeps
    /// its findings in locals (at 100,000 files, 18.5 M instructions where it took 28.5 M
    /// through the arrays, the index's own properties and the entry's reading called).
    /// - Throws: ``Unusable`` for an entry past the end of the index.
    func match() throws {
        let listing = self.listing
        let relatives = RelativeKeys(listing.folders)
        var found = [Int](repeating: -1, count: listing.count)
        var foundCount = 0
        var inOrder = true
        try buffer.withUnsafeBytes { bytes in
            let payloadEnd = payload.upperBound
            let payloadBytes = UnsafeRawBufferPointer(rebasing: bytes[..<payloadEnd])
            var byKey: [String: Int]? = nil
            var next = payload.lowerBound
            var matched = 0
            try listing.nameBytes.withUnsafeBufferPointer { names in
                try listing.entries.withUnsafeBufferPointer { entries in
                    try listing.stamps.withUnsafeBufferPointer { stamps in
                        try found.withUnsafeMutableBufferPointer { found in
                            for i in 0..<entries.count {
                                var e: EntryView? = nil
                                if next < payloadEnd {
                                    guard let stored = Self.entry(at: next, in: payloadBytes) else {
                                        throw Unusable(description: "damaged")
                                    }
                                    if relatives.keyEquals(stored, entries[i], names: names, in: bytes) { e = stored }
                                }
                                if e == nil {
                                    inOrder = false
                                    if byKey == nil { byKey = try keys(in: payloadBytes) }
                                    let key = listing.relativeFolder(of: i) + listing.name(of: i)
                                    e = byKey![key].flatMap { Self.entry(at: $0, in: payloadBytes) }
                                }
                                guard let e else { continue }
                                matched += 1
                                next = e.end
                                if let stamp = stamps[i], stamp == e.stamp, !e.flags.contains(.racy) {
                                    found[i] = e.key.lowerBound - 4
                                    foundCount += 1
                                }
                            }
                        }
                    }
                }
            }
            if next != payloadEnd || matched != storedCount { inOrder = false }
        }
        fresh = found
        freshCount = foundCount
        storedInOrder = inOrder
    }

    /// The listing's folders' keys as bytes, one after another: what an entry's key starts with.
    struct RelativeKeys {
        private var bytes: [UInt8] = []
        private var ranges: [Range<Int>] = []

        init(_ folders: [ListedFiles.Folder]) {
            for folder in folders {
                let start = bytes.count
                bytes += folder.relative.utf8
                ranges.append(start..<bytes.count)
            }
        }

        /// Whether the key of `entry` (in `index`, the buffer) is the key of the listed file
        /// `file`: its folder's key and its name (in `names`, the listing's name bytes).
        @inline(__always)
        func keyEquals(
            _ entry: EntryView, _ file: ListedFiles.Entry, names: UnsafeBufferPointer<UInt8>,
            in index: UnsafeRawBufferPointer
        ) -> Bool {
            let r = ranges[Int(file.folder)]
            let nameLength = Int(file.nameLength)
            guard r.count + nameLength == entry.key.count else { return false }
            let base = index.baseAddress! + entry.key.lowerBound
            return bytes.withUnsafeBufferPointer { folder in
                (r.isEmpty || memcmp(base, folder.baseAddress! + r.lowerBound, r.count) == 0)
                    && (nameLength == 0
                        || memcmp(base + r.count, names.baseAddress! + Int(file.nameStart), nameLength) == 0)
            }
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

    /// Writes the index to a new file at `path` (mode 0600): the header, the folders the listing
    /// read (or took from the index), then each listed file's fresh stored entry, in listing
    /// order (an index to which files were recorded is written as they are: ``EntryStream``).
    /// The entries go out through a buffer, their checksum taken on the way and written into
    /// the header last, so the index is never whole in memory a second time.
    /// - Returns: the header written; nil on any failure (the file is then removed).
    func write(to path: String) -> [UInt8]? {
        let folders = folderBytes()
        return buffer.withUnsafeBytes { stored in
            // Each listed file's fresh stored entry, as bytes of the stored index.
            func entry(_ i: Int) -> UnsafeRawBufferPointer? {
                guard fresh[i] >= 0, let e = Self.entry(at: fresh[i], in: stored) else { return nil }
                return UnsafeRawBufferPointer(rebasing: stored[fresh[i]..<e.end])
            }
            var count = 0, length = folders.count
            for i in 0..<listing.count {
                guard let e = entry(i) else { continue }
                count += 1
                length += e.count
            }
            let head = header(count: count, length: length, checksum: 0)
            guard var out = IndexFileWriter(path: path) else { return nil }
            var checksum = Checksum()
            out.add(head)
            folders.withUnsafeBytes {
                checksum.add($0)
                out.add($0)
            }
            // Entries that follow one another in the stored index go out as one run of bytes.
            var run = 0..<0
            func flush() {
                guard !run.isEmpty else { return }
                let bytes = UnsafeRawBufferPointer(rebasing: stored[run])
                checksum.add(bytes)
                out.add(bytes)
            }
            for i in 0..<listing.count {
                guard let e = entry(i) else { continue }
                let range = fresh[i]..<(fresh[i] + e.count)
                if run.upperBound != range.lowerBound {
                    flush()
                    run = range.lowerBound..<range.lowerBound
                }
                run = run.lowerBound..<range.upperBound
            }
            flush()
            var sum: [UInt8] = []
            Self.append(checksum.value, to: &sum)
            guard out.finish(writing: sum, at: head.count - sum.count) else { return nil }
            return header(count: count, length: length, checksum: checksum.value)
        }
    }

    /// The header of an index of `count` entries whose folders and entries take `length`
    /// bytes: always as long, whatever the numbers (the checksum is its last eight bytes).
    func header(count: Int, length: Int, checksum: UInt64) -> [UInt8] {
        var header: [UInt8] = Self.magic
        Self.append(Self.formatVersion, to: &header)
        header += fingerprint.digest
        Self.append(UInt32(listing.root.utf8.count), to: &header)
        header += Array(listing.root.utf8)
        Self.append(UInt32(count), to: &header)
        Self.append(UInt64(length), to: &header)
        Self.append(checksum, to: &header)
        return header
    }

    /// The folders the listing read (or took from the index), in the stored form: made at
    /// their size at once (grown by doubling, a 1,000,000-file folder's names took three
    /// times their size for a moment).
    func folderBytes() -> [UInt8] {
        var folders: [UInt8] = []
        folders.reserveCapacity(listing.scanned.reduce(4) { $0 + $1.storedLength })
        Self.append(UInt32(listing.scanned.count), to: &folders)
        for folder in listing.scanned { folder.append(to: &folders) }
        return folders
    }

    /// Appends one entry in the stored form.
    static func appendEntry(
        key: [UInt8], stamp: FileStamp, flags: Flags, spans: [ClosedRange<Int64>], facts: [UInt8] = [],
        to out: inout [UInt8]
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
        if flags.contains(.facts) {
            append(UInt32(facts.count), to: &out)
            out += facts
        }
    }

    static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out += $0 }
    }

    /// A 64-bit checksum of the bytes: CRC-32C in four lanes, 32 bytes at a time (eight to a
    /// lane), with the processor's CRC32 instruction where it has one (`CChecksum`), the lanes
    /// and the bytes of a last partial block mixed into 64 bits with the length, last, so that
    /// it can be taken as the bytes go out. It catches a damaged file, not an attacker. (Four
    /// lanes of multiplications, before: 17 M instructions over a 14 MB index, read at every
    /// command; a single chain of them had taken 3 ms.)
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var checksum = Checksum()
        checksum.add(bytes)
        return checksum.value
    }

    /// ``checksum(_:)`` taken over bytes given piece by piece: the same value as over them whole.
    struct Checksum {
        private var lanes: (UInt32, UInt32, UInt32, UInt32) = (0xFFFF_FFFF, 0x9E37_79B9, 0x7F4A_7C15, 0xC2B2_AE3D)
        /// How many bytes were given.
        private var length = 0
        /// The bytes of a block not yet complete (fewer than 32).
        private var pending: [UInt8] = []

        private static func mix(_ h: UInt64, _ w: UInt64) -> UInt64 {
            let m = (h ^ w) &* 0xFF51_AFD7_ED55_8CCD
            return m ^ (m >> 29)
        }

        /// `count` blocks of 32 bytes from `at`, a word to each lane.
        private mutating func blocks(_ bytes: UnsafeRawBufferPointer, at: Int, count: Int) {
            guard count > 0, let base = bytes.baseAddress else { return }
            withUnsafeMutableBytes(of: &lanes) { raw in
                cchecksum_lanes(raw.baseAddress!.assumingMemoryBound(to: UInt32.self), base + at, count)
            }
        }

        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            length += bytes.count
            var i = 0
            if !pending.isEmpty {
                i = min(32 - pending.count, bytes.count)
                pending += bytes[..<i]
                guard pending.count == 32 else { return }
                pending.withUnsafeBytes { blocks($0, at: 0, count: 1) }
                pending = []
            }
            let whole = (bytes.count - i) / 32
            blocks(bytes, at: i, count: whole)
            i += 32 * whole
            pending += bytes[i...]
        }

        /// The checksum of every byte given.
        var value: UInt64 {
            var h = Self.mix(
                UInt64(lanes.0) | UInt64(lanes.1) << 32, UInt64(lanes.2) | UInt64(lanes.3) << 32)
            for byte in pending { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            h = Self.mix(h, UInt64(length))
            return h ^ (h >> 32)
        }
    }

    /// A new file (mode 0600) written through a buffer of 1 MiB; on any failure it is removed.
    struct IndexFileWriter {
        private let path: String
        private let fd: Int32
        private var buffer: [UInt8] = []
        private var failed = false
        /// The sum of what was added since ``beginChecksum()``.
        private var checksum: Checksum?

        init?(path: String) {
            fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return nil }
            self.path = path
            buffer.reserveCapacity(1 << 20)
        }

        mutating func add(_ bytes: [UInt8]) { bytes.withUnsafeBytes { add($0) } }

        /// From now on, the bytes added are summed for ``finish(header:)``.
        mutating func beginChecksum() { checksum = Checksum() }

        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            written += bytes.count
            checksum?.add(bytes)
            if buffer.count + bytes.count > 1 << 20 { flush() }
            if bytes.count > 1 << 20 {
                failed = failed || !Self.write(fd, bytes)
            } else {
                buffer += bytes
            }
        }

        private mutating func flush() {
            failed = failed || !buffer.withUnsafeBytes { Self.write(fd, $0) }
            buffer.removeAll(keepingCapacity: true)
        }

        /// Writes what is buffered, then `bytes` at `offset`, and closes the file.
        /// - Returns: whether everything was written; the file is removed when not.
        mutating func finish(writing bytes: [UInt8], at offset: Int) -> Bool {
            flush()
            let written = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress!, $0.count, off_t(offset)) }
            let ok = !failed && written == bytes.count
            close(fd)
            if !ok { unlink(path) }
            return ok
        }

        /// Closes and removes the file, unfinished.
        func abandon() {
            close(fd)
            unlink(path)
        }

        /// How many bytes went to the file or its buffer so far.
        private(set) var written = 0

        /// Writes what is buffered, then `header(checksum)` at the start of the file, the
        /// checksum that of every byte added since ``beginChecksum()``, and closes the file.
        /// - Returns: whether everything was written; the file is removed when not.
        mutating func finish(header: (UInt64) -> [UInt8]) -> Bool {
            finish(writing: header(checksum?.value ?? 0), at: 0)
        }

        private static func write(_ fd: Int32, _ raw: UnsafeRawBufferPointer) -> Bool {
            var done = 0
            while done < raw.count {
                let n = Foundation.write(fd, raw.baseAddress! + done, raw.count - done)
                if n <= 0 { return false }
                done += n
            }
            return true
        }
    }

    /// Reads the stored form, throwing ``Unusable`` past its end (within bytes that live
    /// while it reads).
    struct Reader {
        let data: UnsafeRawBufferPointer
        var offset = 0

        mutating func skip(_ n: Int) throws {
            guard n >= 0, n <= data.count - offset else { throw Unusable(description: "cut short") }
            offset += n
        }

        mutating func bytes(_ n: Int) throws -> UnsafeRawBufferPointer {
            let start = offset
            try skip(n)
            return UnsafeRawBufferPointer(rebasing: data[start..<offset])
        }

        mutating func uint8() throws -> UInt8 {
            try skip(1)
            return data[offset - 1]
        }

        mutating func uint32() throws -> UInt32 {
            try skip(4)
            return UInt32(littleEndian: data.loadUnaligned(fromByteOffset: offset - 4, as: UInt32.self))
        }

        mutating func uint64() throws -> UInt64 {
            try skip(8)
            return UInt64(littleEndian: data.loadUnaligned(fromByteOffset: offset - 8, as: UInt64.self))
        }
    }
}
