import Foundation
import Testing
@testable import VDir

/// Names are put in the order `strcmp` gives them, whatever they share: prefixes longer than the
/// sixteen bytes sorted at once, names shorter than that, bytes above 0x7F, names that begin
/// others, one name or none.
@Suite struct ByteOrderTests {
    /// The positions of `names` as `ByteOrder` orders them, and as comparing their bytes does.
    static func orders(_ names: [[UInt8]]) -> (got: [Int], expected: [Int]) {
        var bytes: [UInt8] = []
        var starts: [Int] = []
        for name in names {
            starts.append(bytes.count)
            bytes += name + [0]
        }
        let got = bytes.withUnsafeBufferPointer { buffer in
            ByteOrder.positions(
                count: names.count, base: buffer.baseAddress!, start: { starts[$0] }, length: { names[$0].count })
        }
        let expected = names.indices.sorted { a, b in
            names[a].lexicographicallyPrecedes(names[b]) || (names[a] == names[b] && a < b)
        }
        return (got, expected)
    }

    @Test func randomNamesComeInTheOrderOfTheirBytes() {
        var random = SystemRandomNumberGenerator()
        let prefixes: [[UInt8]] = [
            [], Array("bench-".utf8), Array("a-long-shared-prefix-of-twenty".utf8), [0xC3, 0xBC],
        ]
        for round in 0..<40 {
            let names = (0..<(round * 37 + 2)).map { _ -> [UInt8] in
                let prefix = prefixes.randomElement(using: &random)!
                let tail = (0..<Int.random(in: 0...24, using: &random)).map { _ in
                    // Few values, so that names often share bytes; some above 0x7F.
                    [UInt8(ascii: "0"), UInt8(ascii: "1"), UInt8(ascii: "."), 0x7F, 0x80, 0xFF].randomElement(
                        using: &random)!
                }
                let name = prefix + tail
                return name.isEmpty ? [UInt8(ascii: "x")] : name
            }
            let (got, expected) = Self.orders(names)
            #expect(got.map { names[$0] } == expected.map { names[$0] }, "round \(round)")
            #expect(Set(got) == Set(names.indices))
        }
    }

    @Test func namesThatBeginOthersAndShortNamesComeFirst() {
        let names = [
            "b", "a.ics", "a", "abcdefghijklmnop", "abcdefghijklmnopq", "abcdefghijklmno", "abcdefghijklmnopa", "",
        ]
        .map { Array($0.utf8) }
        let (got, _) = Self.orders(names)
        #expect(
            got.map { String(decoding: names[$0], as: UTF8.self) } == [
                "", "a", "a.ics", "abcdefghijklmno", "abcdefghijklmnop", "abcdefghijklmnopa", "abcdefghijklmnopq", "b",
            ])
        #expect(Self.orders([]).got == [])
        #expect(Self.orders([Array("only".utf8)]).got == [0])
    }
}
