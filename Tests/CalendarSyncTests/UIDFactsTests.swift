import Foundation
import Testing

@testable import CalendarSync

/// What the index of UIDs keeps of a file answers a search by UID exactly: a UID it holds, none
/// that only shares a beginning or an end with one, and anything when the form is damaged (the
/// file is then read).
struct UIDFactsTests {
    static func contains(_ facts: [UInt8], _ uid: String) -> Bool {
        facts.withUnsafeBytes { UIDFacts.contains($0, uid: Array(uid.utf8)) }
    }

    @Test func aUIDIsFoundOnlyWhenHeldWhole() {
        let facts = UIDFacts.encode(["bench-4321@calgw.example", "ü-series", ""])
        #expect(Self.contains(facts, "bench-4321@calgw.example"))
        #expect(Self.contains(facts, "ü-series"))
        #expect(Self.contains(facts, ""))
        #expect(!Self.contains(facts, "bench-4321@calgw.exampl"))
        #expect(!Self.contains(facts, "bench-4321@calgw.examplf"))
        #expect(!Self.contains(facts, "bench-4321@calgw.example2"))
        #expect(!Self.contains(UIDFacts.encode(["a"]), ""))
        #expect(!Self.contains([], "a"))
    }

    @Test func aDamagedFormHoldsWhateverIsAsked() {
        let facts = UIDFacts.encode(["one", "two"])
        for end in 1..<facts.count where end != 7 {
            #expect(Self.contains(Array(facts[..<end]), "zzz"), "cut at \(end)")
        }
    }
}
