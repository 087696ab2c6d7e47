import Foundation
import Testing
@testable import CalendarSync

/// The walk that tells a folder's names read again from the names held: the same in the same
/// order, or with names moved (a file renamed over another goes last on btrfs and tmpfs), is the
/// same; a name added, removed or of another type is not.
@Suite struct HeldNamesTests {
    /// Held in an order that is not theirs sorted, as a folder gives names.
    static let held = (0..<12).map { "event-\(($0 * 5) % 12).ics" }
    static let file = UInt8(DT_REG)

    /// `held` (all files) as the index holds them: sorted, with the order the folder gave them
    /// in, which is `held`'s.
    static func names(_ held: [String]) throws -> FolderNames {
        let sorted = held.sorted()
        var stored: [UInt8] = []
        ListingIndex.append(UInt32(held.count), to: &stored)
        ListingIndex.append(UInt32(sorted.reduce(0) { $0 + $1.utf8.count + 1 }), to: &stored)
        for name in sorted { stored += Array(name.utf8) + [0] }
        stored += held.map { _ in file }
        for name in held { ListingIndex.append(UInt32(sorted.firstIndex(of: name)!), to: &stored) }
        return try stored.withUnsafeBytes { raw in
            var reader = ListingIndex.Reader(data: raw)
            return try FolderNames.read(from: &reader)
        }
    }

    /// Whether the folder giving `given` (names and types) gives the names of `held`.
    static func same(_ given: [(String, UInt8)], held: [String] = held) throws -> Bool {
        let names = try Self.names(held)
        return names.withBytes { buffer in
            var walk = HeldNames(held: buffer, names: names)
            for (name, type) in given {
                var bytes = Array(name.utf8)
                let going = bytes.withUnsafeMutableBufferPointer { name in
                    walk.take(UnsafeBufferPointer(name), type) { name, _ in name.first != UInt8(ascii: ".") }
                }
                if !going { return false }
            }
            return walk.finish()
        }
    }

    static func files(_ names: [String]) -> [(String, UInt8)] { names.map { ($0, file) } }

    @Test func theSameNamesInTheSameOrderOrWithNamesMovedAreTheSame() throws {
        #expect(try Self.same(Self.files(Self.held)))
        // A temporary file beside them is passed over.
        #expect(try Self.same(Self.files(Array(Self.held[..<5]) + [".event-5.ics.tmp"] + Self.held[5...])))
        // One renamed over itself, given last; then another; two side by side; the first.
        var moved = Self.held
        moved.append(moved.remove(at: 4))
        #expect(try Self.same(Self.files(moved)))
        moved.append(moved.remove(at: 7))
        #expect(try Self.same(Self.files(moved)))
        var adjacent = Self.held
        adjacent.append(contentsOf: [adjacent.remove(at: 2), adjacent.remove(at: 2)])
        #expect(try Self.same(Self.files(adjacent)))
        var first = Self.held
        first.append(first.removeFirst())
        #expect(try Self.same(Self.files(first)))
        // Given earlier than held.
        var earlier = Self.held
        earlier.insert(earlier.removeLast(), at: 0)
        #expect(try Self.same(Self.files(earlier)))
    }

    @Test func aNameAddedRemovedOrOfAnotherTypeIsNotTheSame() throws {
        #expect(try !Self.same(Self.files(Self.held + ["event-new.ics"])))
        #expect(try !Self.same(Self.files(Array(Self.held.dropLast()))))
        #expect(try !Self.same(Self.files(Array(Self.held.dropFirst()))))
        #expect(try !Self.same(Self.files(Self.held.filter { $0 != "event-6.ics" })))
        // A name moved and another removed; a name replaced by another of the same length.
        var movedAndGone = Self.held
        movedAndGone.append(movedAndGone.remove(at: 3))
        movedAndGone.remove(at: 8)
        #expect(try !Self.same(Self.files(movedAndGone)))
        #expect(try !Self.same(Self.files(Self.held.map { $0 == "event-9.ics" ? "event-x.ics" : $0 })))
        // The same name, now a folder, in its place or moved.
        #expect(try !Self.same(Self.held.map { ($0, $0 == "event-2.ics" ? UInt8(DT_DIR) : Self.file) }))
        var movedFolder = Self.files(Self.held)
        movedFolder.append(movedFolder.remove(at: 2))
        movedFolder[movedFolder.count - 1].1 = UInt8(DT_DIR)
        #expect(try !Self.same(movedFolder))
        // Nothing held, something given; something held, nothing given.
        #expect(try !Self.same(Self.files(["event-0.ics"]), held: []))
        #expect(try !Self.same([]))
        #expect(try Self.same([], held: []))
    }

    @Test func pastTheLimitOfMovedNamesTheFolderIsReadWhole() throws {
        let many = (0..<(3 * HeldNames.limit)).map { "event-\($0).ics" }
        // Every other name moved to the end: more than the limit.
        let moved = stride(from: 0, to: many.count, by: 2).map { many[$0] }
        let kept = stride(from: 1, to: many.count, by: 2).map { many[$0] }
        #expect(try !Self.same(Self.files(kept + moved), held: many))
        // As many as the limit, one apart.
        let few = Array(moved.prefix(HeldNames.limit))
        #expect(try Self.same(Self.files(many.filter { !few.contains($0) } + few), held: many))
    }
}
