import Foundation

/// Turns a stream of bytes, fed in chunks of any size, into logical content lines: line ends
/// (CRLF or LF) removed, folded continuations (a line starting with a space or tab) joined,
/// blank lines skipped, a leading byte-order mark dropped. Each line comes with the number of
/// the physical line it started on.
struct LineAssembler {
    /// The logical line being gathered.
    private var pending: [UInt8] = []
    private var pendingLine = 0
    private var hasPending = false
    /// A physical line cut by the end of the previous chunk.
    private var carry: [UInt8] = []
    private var physicalLine = 0

    /// The number of physical lines seen so far.
    var linesSeen: Int { physicalLine }

    init() {
        pending.reserveCapacity(256)
    }

    /// Feeds the next chunk; `emit` receives every logical line completed by it.
    mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, emit: (UnsafeBufferPointer<UInt8>, Int) throws -> Void)
        rethrows
    {
        guard let base = chunk.baseAddress, chunk.count > 0 else { return }
        var i = 0
        let n = chunk.count
        if !carry.isEmpty {
            // Complete the cut line first.
            guard let nl = memchr(base + i, 0x0A, n - i) else {
                carry.append(contentsOf: UnsafeBufferPointer(start: base + i, count: n - i))
                return
            }
            let end = base.distance(to: nl.assumingMemoryBound(to: UInt8.self))
            carry.append(contentsOf: UnsafeBufferPointer(start: base + i, count: end - i))
            let line = carry
            carry.removeAll(keepingCapacity: true)
            try line.withUnsafeBufferPointer { try physical($0, emit: emit) }
            i = end + 1
        }
        while i < n {
            guard let nl = memchr(base + i, 0x0A, n - i) else {
                carry.append(contentsOf: UnsafeBufferPointer(start: base + i, count: n - i))
                return
            }
            let end = base.distance(to: nl.assumingMemoryBound(to: UInt8.self))
            try physical(UnsafeBufferPointer(start: base + i, count: end - i), emit: emit)
            i = end + 1
        }
    }

    /// Ends the stream: the last line, even without a final line end.
    mutating func finish(emit: (UnsafeBufferPointer<UInt8>, Int) throws -> Void) rethrows {
        if !carry.isEmpty {
            let line = carry
            carry.removeAll()
            try line.withUnsafeBufferPointer { try physical($0, emit: emit) }
        }
        try flush(emit: emit)
    }

    private mutating func physical(
        _ raw: UnsafeBufferPointer<UInt8>, emit: (UnsafeBufferPointer<UInt8>, Int) throws -> Void
    ) rethrows {
        physicalLine += 1
        var raw = raw
        if physicalLine == 1, raw.count >= 3, raw[0] == 0xEF, raw[1] == 0xBB, raw[2] == 0xBF {
            raw = UnsafeBufferPointer(rebasing: raw[3...])  // a byte-order mark
        }
        var count = raw.count
        if count > 0 && raw[count - 1] == 0x0D { count -= 1 }
        guard count > 0, let base = raw.baseAddress else { return }  // blank line
        let first = base[0]
        if (first == 0x20 || first == 0x09) && hasPending {
            pending.append(contentsOf: UnsafeBufferPointer(start: base + 1, count: count - 1))
            return
        }
        try flush(emit: emit)
        pending.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
        pendingLine = physicalLine
        hasPending = true
    }

    private mutating func flush(emit: (UnsafeBufferPointer<UInt8>, Int) throws -> Void) rethrows {
        guard hasPending else { return }
        try pending.withUnsafeBufferPointer { try emit($0, pendingLine) }
        pending.removeAll(keepingCapacity: true)
        hasPending = false
    }
}
