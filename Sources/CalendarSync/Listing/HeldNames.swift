import Foundation

/// A folder's names as it gives them, walked along the names held from an earlier read of it
/// (a ``FolderNames`` and the order the folder gave them in then), to tell whether they are
/// the same names without keeping them.
///
/// A folder keeps its order while its set of names stays the same on ext4 and XFS; btrfs and
/// tmpfs give a name renamed over an existing file last. So a name given where another was
/// held is taken as moved: when it is one of the next few held, those before it are noted as
/// missing here; otherwise it is noted as given out of place. The names are the same when every
/// name given out of place is one noted missing, of the same type. Past ``limit`` of either, they
/// are taken as not the same (the folder is then read and sorted whole).
struct HeldNames {
    /// The held names' bytes, where their starts point.
    let held: UnsafeBufferPointer<UInt8>
    let starts: [Int], lengths: [Int], types: [UInt8]
    /// The held names' positions, in the order the folder gave them.
    let order: [UInt32]
    /// The position in `order` of the next held name.
    private var next = 0
    /// Names given out of their held place, and their types.
    private var moved: [(name: [UInt8], type: UInt8)] = []
    /// Held names not given in their place, by position.
    private var missing: [Int] = []

    /// How many names may be moved or missing: an edit moves one.
    static let limit = 64
    /// How many held names a name given may be ahead of its place.
    static let lookahead = 4

    /// A walk along `names`, whose bytes are `held`.
    init(held: UnsafeBufferPointer<UInt8>, names: FolderNames) {
        self.held = held
        (starts, lengths, types, order) = (names.starts, names.lengths, names.types, names.folderOrder)
    }

    /// Takes the next name the folder gives and its type (`keep` says whether such a name is
    /// held at all); false once the names cannot be the same.
    mutating func take(
        _ name: UnsafeBufferPointer<UInt8>, _ type: UInt8, keep: (UnsafeBufferPointer<UInt8>, UInt8) -> Bool
    ) -> Bool {
        if next < order.count, holds(name, type, at: Int(order[next])) {
            next += 1
            return true
        }
        // A name not kept either time (a temporary file, say) is passed over.
        guard keep(name, type) else { return true }
        for ahead in 1...Self.lookahead where next + ahead < order.count {
            guard holds(name, type, at: Int(order[next + ahead])) else { continue }
            missing += order[next..<(next + ahead)].map { Int($0) }
            next += ahead + 1
            return missing.count <= Self.limit
        }
        moved.append((Array(name), type))
        return moved.count <= Self.limit
    }

    /// Whether the names given were the names held: the held names after the last one given
    /// are missing, and each name given out of place is one missing, of the same type.
    mutating func finish() -> Bool {
        guard missing.count + (order.count - next) == moved.count else { return false }
        var left = missing + order[next...].map { Int($0) }
        for (name, type) in moved {
            let found = name.withUnsafeBufferPointer { name in left.firstIndex { holds(name, type, at: $0) } }
            guard let found else { return false }
            left.remove(at: found)
        }
        return true
    }

    /// Whether the held name at position `i` is `name` of `type`.
    private func holds(_ name: UnsafeBufferPointer<UInt8>, _ type: UInt8, at i: Int) -> Bool {
        lengths[i] == name.count && types[i] == type
            && (name.isEmpty || memcmp(held.baseAddress! + starts[i], name.baseAddress!, name.count) == 0)
    }
}
