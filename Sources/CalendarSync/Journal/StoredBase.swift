import CZstd
import Foundation

/// A merge base as the journal stores it: compressed alone (or with the others of a first
/// pull's batch, ``BasePack``), against a dictionary of the text every iCalendar object repeats.
///
/// The base is the largest part of an item's row (an event with its VTIMEZONE is about a
/// kilobyte) and is read only for a three-way merge, so it is kept small rather than ready.
/// Each base a later run writes is compressed by itself, so one can be read, written or
/// dropped without the others; without a dictionary a kilobyte has too little of itself to
/// repeat, the first `BEGIN:VEVENT` or `TZOFFSETFROM` costs its letters, and building entropy
/// tables for so little is most of the work. With ``StoredBaseDictionary`` (text and tables) the varied
/// benchmark corpus's events go from 1,049 to 343 bytes, the conformance corpora's real-world
/// files from 1,188 to 262, for about 40,000 instructions a kilobyte.
///
/// The form: a first byte that says how the rest is kept. `0` the bytes as they are (when
/// compressing would not make them smaller), `1` a Zstandard frame made with dictionary 1,
/// `2` a member of a pack of bases compressed together (``BasePack``: where it is in the
/// pack; the pack is the row's `basePack`), `3` a Zstandard frame made without a dictionary
/// (the first packs: their bases repeat each other far more than the dictionary can, and
/// matching against it cost a quarter of a pack's compression), `4` an LZ4 block after the
/// base's length (packs since: ``StoredBase/packTogether(_:)``). A dictionary, once shipped,
/// never changes: a better one would be another form, and both read. An empty base (an item
/// that never had one) stays empty.
enum StoredBase {
    /// How the bytes after the first are kept.
    enum Form: UInt8 {
        case plain = 0
        case zstdDictionary1 = 1
        case packMember = 2
        case zstd = 3
        case lz4 = 4
    }

    /// The compression level: Zstandard's fastest full level, the one the dictionary's tables
    /// were made for.
    private static let level: CInt = 1

    /// `base` as it is stored.
    static func pack(_ base: Data) -> Data {
        guard !base.isEmpty else { return base }
        return base.withUnsafeBytes { source in
            compressed(source) ?? plain(source)
        }
    }

    /// The bases of a pack (``BasePack``), one after another, as they are stored: an LZ4 block.
    ///
    /// A first pull packs every item's base, so this is on the path of every event it fetches.
    /// Over the varied benchmark corpus's events in packs of 128, Zstandard's fastest level
    /// kept 13.9 % of the bytes for about 15.9 instructions a byte (its negative levels and a
    /// smaller table barely cheaper: its entropy stage is most of it); LZ4 keeps 20.1 % for
    /// 4.8. An event costs a third of what it did and keeps 66 to 96 bytes more; a pack is
    /// read whole only when one of its bases is needed (a merge, a mass deletion's check), and
    /// LZ4 reads it back faster too.
    static func packTogether(_ bases: Data) -> Data {
        guard !bases.isEmpty else { return bases }
        return bases.withUnsafeBytes { source in
            LZ4Block.compressed(source) ?? compressed(source, withDictionary: false) ?? plain(source)
        }
    }

    /// The base a stored value holds; nil when it is not a form ``pack(_:)`` or
    /// ``packTogether(_:)`` writes.
    static func unpack(_ stored: Data) -> Data? {
        guard let first = stored.first else { return stored }
        switch Form(rawValue: first) {
        case .plain: return stored.dropFirst().withUnsafeBytes { Data($0) }
        case .zstdDictionary1: return stored.dropFirst().withUnsafeBytes { decompress($0, withDictionary: true) }
        case .zstd: return stored.dropFirst().withUnsafeBytes { decompress($0, withDictionary: false) }
        case .lz4: return stored.dropFirst().withUnsafeBytes { LZ4Block.decompressed($0) }
        case .packMember, nil: return nil
        }
    }

    /// `base` (not empty) stored as it would be alone (or, without the dictionary, as a pack
    /// is), or nil when compressing it does not make it smaller.
    static func compressed(_ base: UnsafeRawBufferPointer, withDictionary: Bool = true) -> Data? {
        compressor.lock.withLock { compressor.pack(base, withDictionary: withDictionary) }
    }

    static func plain(_ source: UnsafeRawBufferPointer) -> Data {
        var out = Data(capacity: source.count + 1)
        out.append(Form.plain.rawValue)
        out.append(contentsOf: source)
        return out
    }

    private static func decompress(_ frame: UnsafeRawBufferPointer, withDictionary: Bool) -> Data? {
        guard let start = frame.baseAddress else { return nil }
        let size = ZSTD_getFrameContentSize(start, frame.count)
        // Both of zstd's "unknown" and "error" answers are near UInt64.max; a base is far below.
        guard size < UInt64(Int32.max) else { return nil }
        var out = Data(count: Int(size))
        let written = out.withUnsafeMutableBytes { target in
            decompressor.lock.withLock {
                decompressor.unpack(start, frame.count, into: target, withDictionary: withDictionary)
            }
        }
        guard let written, written == Int(size) else { return nil }
        return out
    }

    /// One compression context and the prepared dictionary, used under a lock (the journal
    /// writes on one queue, so it is never waited for).
    private static let compressor = Compressor()
    private static let decompressor = Decompressor()

    /// A context is not to be used by two threads at once; the lock sees to it.
    private final class Compressor: @unchecked Sendable {
        let lock = NSLock()
        let context: OpaquePointer = ZSTD_createCCtx()!
        let dictionary: OpaquePointer = StoredBaseDictionary.bytes.withUnsafeBytes {
            ZSTD_createCDict($0.baseAddress, $0.count, StoredBase.level)!
        }

        /// Where a frame is written before it is copied out at its size: a `Data` of the
        /// bound's size was zeroed first (a pack's 130 KB, a thousand instructions an event).
        /// Kept between calls up to ``keptScratch`` bytes.
        private var scratch = UnsafeMutableRawBufferPointer(start: nil, count: 0)
        private static let keptScratch = 2 << 20

        /// The packed form of `source`, or nil when compressing does not make it smaller.
        func pack(_ source: UnsafeRawBufferPointer, withDictionary: Bool) -> Data? {
            let bound = ZSTD_compressBound(source.count)
            if scratch.count < bound + 1 {
                scratch.deallocate()
                scratch = .allocate(byteCount: bound + 1, alignment: 16)
            }
            defer {
                if scratch.count > Self.keptScratch {
                    scratch.deallocate()
                    scratch = UnsafeMutableRawBufferPointer(start: nil, count: 0)
                }
            }
            scratch[0] = (withDictionary ? Form.zstdDictionary1 : Form.zstd).rawValue
            let target = scratch.baseAddress! + 1
            let result =
                withDictionary
                ? ZSTD_compress_usingCDict(context, target, bound, source.baseAddress, source.count, dictionary)
                : ZSTD_compressCCtx(context, target, bound, source.baseAddress, source.count, StoredBase.level)
            guard ZSTD_isError(result) == 0, result < source.count else { return nil }
            return Data(bytes: scratch.baseAddress!, count: result + 1)
        }

        deinit {
            scratch.deallocate()
            ZSTD_freeCDict(dictionary)
            ZSTD_freeCCtx(context)
        }
    }

    private final class Decompressor: @unchecked Sendable {
        let lock = NSLock()
        let context: OpaquePointer = ZSTD_createDCtx()!
        let dictionary: OpaquePointer = StoredBaseDictionary.bytes.withUnsafeBytes {
            ZSTD_createDDict($0.baseAddress, $0.count)!
        }

        /// Decompresses a frame into `target`; the bytes written, or nil when zstd refuses it.
        func unpack(
            _ frame: UnsafeRawPointer, _ count: Int, into target: UnsafeMutableRawBufferPointer, withDictionary: Bool
        ) -> Int? {
            let result =
                withDictionary
                ? ZSTD_decompress_usingDDict(context, target.baseAddress, target.count, frame, count, dictionary)
                : ZSTD_decompressDCtx(context, target.baseAddress, target.count, frame, count)
            return ZSTD_isError(result) != 0 ? nil : result
        }

        deinit {
            ZSTD_freeDDict(dictionary)
            ZSTD_freeDCtx(context)
        }
    }
}
