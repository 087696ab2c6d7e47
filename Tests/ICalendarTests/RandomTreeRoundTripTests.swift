import Foundation
import Testing
import CalgwTestSupport
@testable import ICalendar

/// Property-based: random component trees (random names, parameters with quotes, colons,
/// carets and newlines, values with any non-control Unicode) → serialize → parse = identity.
/// A fixed seed and a fresh one each run (`CALGW_TREE_SEED` runs a failure's seed again).
@Suite struct RandomTreeRoundTripTests {
    static let freshSeed =
        ProcessInfo.processInfo.environment["CALGW_TREE_SEED"].flatMap { UInt64($0) }
        ?? UInt64.random(in: 1...UInt64.max)

    @Test(arguments: [20_261_122 as UInt64, freshSeed])
    func randomTreesRoundTrip(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        for round in 0..<400 {
            let tree = Self.component(&rng, depth: 0)
            let bytes = ICalendarSerializer().serialize(tree)
            let back = try ICalendarParser().parse(Data(bytes))
            if back.components != [tree] {
                Issue.record(
                    """
                    seed \(seed), round \(round) did not round-trip (reproduce: CALGW_TREE_SEED=\(seed) swift test --filter RandomTreeRoundTripTests): \
                    \(String(decoding: bytes, as: UTF8.self).prefix(600))
                    """)
                return
            }
        }
    }

    static let alphabet: [Character] = Array("abcXYZ09 -_:;,\"^\\\t=/.'éü€😀中\u{200B}\u{1F1E9}\u{1F1EA}")

    static func text(_ rng: inout SeededRandom, max: Int, newline: Bool) -> String {
        var s = ""
        for _ in 0..<Int(rng.next() % UInt64(max + 1)) {
            if newline && rng.next() % 20 == 0 {
                s.append("\n")
            } else {
                s.append(alphabet[Int(rng.next() % UInt64(alphabet.count))])
            }
        }
        return s
    }

    static func name(_ rng: inout SeededRandom) -> String {
        let names = [
            "SUMMARY", "DTSTART", "X-FOO", "ATTENDEE", "X-\(rng.next() % 1000)", "DESCRIPTION", "RRULE", "X-A-B",
        ]
        return names[Int(rng.next() % UInt64(names.count))]
    }

    static func component(_ rng: inout SeededRandom, depth: Int) -> Component {
        let names = ["VCALENDAR", "VEVENT", "VTODO", "VALARM", "X-THING", "VTIMEZONE", "STANDARD"]
        var c = Component(name: names[Int(rng.next() % UInt64(names.count))])
        for _ in 0..<Int(rng.next() % 8) {
            var params: [Parameter] = []
            for _ in 0..<Int(rng.next() % 3) {
                let values = (0...Int(rng.next() % 2)).map { _ in text(&rng, max: 12, newline: true) }
                params.append(
                    Parameter(name: ["CN", "X-P", "MEMBER", "TZID", "DIR"][Int(rng.next() % 5)], values: values))
            }
            c.properties.append(
                Property(name: name(&rng), parameters: params, value: text(&rng, max: 200, newline: false)))
        }
        if depth < 3 {
            for _ in 0..<Int(rng.next() % 3) { c.components.append(component(&rng, depth: depth + 1)) }
        }
        return c
    }
}
