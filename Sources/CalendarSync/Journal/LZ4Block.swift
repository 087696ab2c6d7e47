import CLZ4
import Foundation

/// A pack of merge bases as an LZ4 block (``StoredBase/Form/lz4``): the length of what it
/// holds, four bytes little-endian, then the block. A block does not say how long its content
/// is, and reading one needs a buffer of that size.
enum LZ4Block {
    /// `source` as the bytes of ``StoredBase/Form/lz4`` (the form's byte first), or nil when
    /// it is too large for a block or compressing does not make it smaller.
    static func compressed(_ source: UnsafeRawBufferPointer) -> Data? {
        guard !source.isEmpty, source.count <= Int(LZ4_MAX_INPUT_SIZE) else { return nil }
        let header = 5
        let bound = Int(LZ4_compressBound(Int32(source.count)))
        // Uninitialised: a `Data` of the bound's size would be zeroed first, for nothing.
        let target = UnsafeMutableRawBufferPointer.allocate(byteCount: header + bound, alignment: 16)
        defer { target.deallocate() }
        let state = UnsafeMutableRawPointer.allocate(byteCount: Int(LZ4_sizeofState()), alignment: 16)
        defer { state.deallocate() }
        let written = LZ4_compress_fast_extState(
            state, source.baseAddress!.assumingMemoryBound(to: CChar.self),
            (target.baseAddress! + header).assumingMemoryBound(to: CChar.self), Int32(source.count), Int32(bound), 1)
        guard written > 0, Int(written) + header - 1 < source.count else { return nil }
        target[0] = StoredBase.Form.lz4.rawValue
        let length = UInt32(source.count).littleEndian
        withUnsafeBytes(of: length) {
            target.baseAddress!.advanced(by: 1).copyMemory(from: $0.baseAddress!, byteCount: 4)
        }
        return Data(bytes: target.baseAddress!, count: header + Int(written))
    }

    /// What a stored block (the bytes after the form's) holds, or nil when it is cut short,
    /// damaged, or does not hold the length it says.
    ///
    /// A block holds at most 255 times its own size (a match's length is written a byte of 255
    /// at a time): a damaged length past that is refused before its buffer is allocated.
    static func decompressed(_ stored: UnsafeRawBufferPointer) -> Data? {
        guard stored.count > 4, let start = stored.baseAddress else { return nil }
        let length = Int(UInt32(littleEndian: stored.loadUnaligned(as: UInt32.self)))
        guard length <= Int(LZ4_MAX_INPUT_SIZE), length <= (stored.count - 4) * 255 else { return nil }
        var out = Data(count: length)
        let read = out.withUnsafeMutableBytes { target in
            LZ4_decompress_safe(
                (start + 4).assumingMemoryBound(to: CChar.self),
                target.baseAddress?.assumingMemoryBound(to: CChar.self),
                Int32(stored.count - 4), Int32(length))
        }
        return Int(read) == length ? out : nil
    }
}
