import CalgwTestSupport
import Foundation
import Testing

/// A campaign of everyday task changes on two devices of one calendar: todoman on the laptop
/// (new, done, due moved, deleted, flushed) and a phone's app editing its own vdir (new, in
/// progress at some percent, reopened, due moved, done), synced in a random order each round.
/// After every round both devices hold the same tasks, every one coherent, and none is lost
/// that was not deleted.
@Suite(.timeLimit(.minutes(10))) struct TodomanCampaignTests {
    typealias Setup = TodomanTaskTests.Setup

    /// The phone's app writing a task: `lines` edited, stamped `stamp` (later than anything
    /// before it in the campaign, so that its change counts as the newer one when it is).
    static func phoneEdit(_ pair: ServerPair, uid: String, stamp: String, _ edit: (inout [String]) -> Void) throws {
        let url = try pair.file(uid: uid)
        var lines = try ServerPair.lines(url).filter { !$0.isEmpty }
        edit(&lines)
        lines.removeAll { $0.hasPrefix("LAST-MODIFIED:") }
        if let end = lines.firstIndex(of: "END:VTODO") { lines.insert("LAST-MODIFIED:\(stamp)", at: end) }
        try Data((lines.joined(separator: "\r\n") + "\r\n").utf8).write(to: url)
    }

    static func set(_ lines: inout [String], _ name: String, _ value: String?) {
        lines.removeAll { $0.hasPrefix("\(name):") || $0.hasPrefix("\(name);") }
        if let value, let end = lines.firstIndex(of: "END:VTODO") { lines.insert("\(name):\(value)", at: end) }
    }

    /// UID → (summary, STATUS, has COMPLETED, PERCENT-COMPLETE) of a device's tasks.
    static func tasks(_ pair: ServerPair) throws -> [String: [String?]] {
        var out: [String: [String?]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: pair.vdir.path) where name.hasSuffix(".ics") {
            let lines = try ServerPair.lines(pair.vdir.appendingPathComponent(name))
            func value(_ key: String) -> String? {
                lines.first { $0.hasPrefix("\(key):") }.map { String($0.dropFirst(key.count + 1)) }
            }
            let uid = try #require(value("UID"))
            out[uid] = [
                value("SUMMARY"), value("STATUS"), value("COMPLETED") == nil ? nil : "yes", value("PERCENT-COMPLETE"),
            ]
        }
        return out
    }

    @Test(arguments: ["radicale", "sabre"]) func randomChangesOnBothDevicesConverge(name: String) async throws {
        let s = try await Setup(name, prefix: "campaign")
        defer { s.remove() }
        var random = SeededRandom(seed: 85)
        var live: Set<String> = []  // summaries of tasks not deleted
        var made = 0
        var clock = 0
        func stamp() -> String {
            clock += 1
            return String(format: "2099%02d%02dT%02d0000Z", 1 + clock / 600 % 12, 1 + clock / 24 % 28, clock % 24)
        }
        for summary in ["Pay rent", "Call mum", "Book flights", "Water plants", "Fix bike"] {
            #expect(try await s.todo(["new", summary]).status == 0)
            live.insert(summary)
        }
        #expect(try await s.sync(s.laptop).status == 0)
        #expect(try await s.sync(s.phone).status == 0)
        for round in 1...10 {
            let laptopTasks = try Self.tasks(s.laptop)
            let open = laptopTasks.filter { $0.value[1] != "COMPLETED" }.compactMap { $0.value[0] }.sorted()
            let done = laptopTasks.filter { $0.value[1] == "COMPLETED" }.compactMap { $0.value[0] }.sorted()
            var touched: Set<String> = []
            // The laptop: one todoman change.
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                made += 1
                let summary = "Laptop task \(made)"
                let new = try await s.todo(["new", summary])
                #expect(new.status == 0, "\(name) round \(round): \(new.stdoutText) \(new.stderrText)")
                live.insert(summary)
            case 1 where !open.isEmpty:
                let summary = open.randomElement(using: &random)!
                #expect(try await s.todo(["done", try await s.id(of: summary)]).status == 0)
                touched.insert(summary)
            case 2 where !open.isEmpty:
                let summary = open.randomElement(using: &random)!
                let due = "2026-12-\(10 + round) 0\(round % 10):30"
                #expect(try await s.todo(["edit", try await s.id(of: summary), "--due", due]).status == 0)
                touched.insert(summary)
            case 3 where live.count > 4 && !open.isEmpty:
                let summary = open.randomElement(using: &random)!
                #expect(try await s.todo(["delete", "--yes", try await s.id(of: summary)]).status == 0)
                live.remove(summary)
                touched.insert(summary)
            default:
                #expect(try await s.todo(["flush"], answer: "y").status == 0)
                live.subtract(done)
                touched.formUnion(done)
            }
            // The phone: one change of its own, on a task the laptop did not touch this round.
            let phoneTasks = try Self.tasks(s.phone).filter { uid, task in !touched.contains(task[0] ?? "") }
            let uids = phoneTasks.keys.sorted()
            switch Int.random(in: 0..<4, using: &random) {
            case 0 where !uids.isEmpty:
                let percent = ["20", "40", "60", "80"].randomElement(using: &random)!
                try Self.phoneEdit(s.phone, uid: uids.randomElement(using: &random)!, stamp: stamp()) {
                    Self.set(&$0, "STATUS", "IN-PROCESS"); Self.set(&$0, "COMPLETED", nil)
                    Self.set(&$0, "PERCENT-COMPLETE", percent)
                }
            case 1 where !uids.isEmpty:
                try Self.phoneEdit(s.phone, uid: uids.randomElement(using: &random)!, stamp: stamp()) {
                    Self.set(&$0, "STATUS", "COMPLETED"); Self.set(&$0, "COMPLETED", "20261129T120000Z")
                    Self.set(&$0, "PERCENT-COMPLETE", "100")
                }
            case 2 where !uids.isEmpty:
                try Self.phoneEdit(s.phone, uid: uids.randomElement(using: &random)!, stamp: stamp()) {
                    Self.set(&$0, "STATUS", "NEEDS-ACTION"); Self.set(&$0, "COMPLETED", nil)
                    Self.set(&$0, "PERCENT-COMPLETE", nil)
                }
            default:
                made += 1
                let summary = "Phone task \(made)"
                let uid = "phone-\(made)-\(name)"
                try Data(
                    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//phone//EN\r\nBEGIN:VTODO\r\nUID:\(uid)\r\nDTSTAMP:20261129T120000Z\r\nSUMMARY:\(summary)\r\nSTATUS:NEEDS-ACTION\r\nLAST-MODIFIED:\(stamp())\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
                        .utf8
                ).write(to: s.phone.vdir.appendingPathComponent("\(uid).ics"))
                live.insert(summary)
            }
            // Both devices sync, in either order, then again until nothing moves.
            let order = Bool.random(using: &random) ? [s.laptop, s.phone] : [s.phone, s.laptop]
            for pair in order + order {
                let r = try await s.sync(pair)
                #expect(r.status == 0, "\(name) round \(round): \(r.stdoutText) \(r.stderrText)")
            }
            let laptop = try Self.tasks(s.laptop), phone = try Self.tasks(s.phone)
            #expect(laptop == phone, "\(name) round \(round): the devices differ")
            #expect(Set(laptop.values.compactMap { $0[0] }) == live, "\(name) round \(round): tasks lost or revived")
            for (uid, task) in laptop {
                let completed = task[1] == "COMPLETED"
                #expect(
                    completed == (task[2] != nil) && (!completed || task[3] == nil || task[3] == "100"),
                    "\(name) round \(round): \(uid) is not coherent: \(task)")
            }
        }
    }
}
