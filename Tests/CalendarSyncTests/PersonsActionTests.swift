import Foundation
import Synchronization
import Testing
import CalgwTestSupport
@testable import CalendarSync

/// The person's actions on meetings, planned and executed on in-memory sides: which writes go
/// as the person's action (``WriteIntent``), how the journal keeps those a run could not
/// send, and how a change the server made meanwhile is resolved against them.
@Suite struct PersonsActionTests {
    /// A meeting `organizer` organizes with bob invited; `bob` is his PARTSTAT.
    static func meeting(
        _ uid: String, summary: String = "Review", start: String = "20270301T100000Z", sequence: Int = 0,
        bob: String = "NEEDS-ACTION", extra: String = ""
    ) -> Data {
        TestEvent.data(
            uid: uid, summary: summary, start: start, duration: "PT1H",
            extra: [
                "SEQUENCE:\(sequence)", "ORGANIZER:mailto:alice@example.com",
                "ATTENDEE;PARTSTAT=ACCEPTED:mailto:alice@example.com",
                "ATTENDEE;PARTSTAT=\(bob)\(extra):mailto:bob@example.com",
            ])
    }

    /// The intent of each write a storage took, in order.
    final class IntentLog: Sendable {
        let seen = Mutex<[WriteIntent]>([])
    }

    /// Two in-memory sides whose remote notes the intent of each write it takes.
    struct Sides {
        let local = InMemoryStorage()
        let remote: InMemoryStorage
        let journal: Journal
        let log = IntentLog()

        init() throws {
            let log = self.log
            remote = InMemoryStorage(beforeWrite: { _, intent in log.seen.withLock { $0.append(intent) } })
            journal = try Journal.inMemory()
        }

        var written: [WriteIntent] { log.seen.withLock { $0 } }

        /// - Parameter streaming: the remote streams its items, so that a first sync is a
        ///   streamed first pull.
        func run(
            _ direction: SyncDirection = .both, acting: Set<String> = [], answers: Set<String> = [],
            streaming: Bool = false
        ) async throws -> SyncReport {
            var policy = SyncPolicy(direction: direction)
            policy.personsActions = acting
            policy.answers = answers
            let remote: any CalendarStorage = streaming ? StreamingStorage(remote) : remote
            return try await SyncEngine(local: local, remote: remote, journal: journal, policy: policy).run()
        }
    }

    @Test func anActionTheServerRefusedIsSentAsThePersonsByTheNextPush() async throws {
        let sides = try Sides()
        sides.local.put("m1.ics", Self.meeting("m1"))
        sides.remote.failNext(.create)
        let refused = try await sides.run(.push, acting: ["m1"])
        #expect(!refused.errors.isEmpty && sides.remote.contents.isEmpty)
        #expect(try sides.journal.awaitedActions().actions == ["m1"])

        // A plain push, with nothing said of m1: it goes as the person's action all the same.
        let pushed = try await sides.run(.push)
        #expect(pushed.created.remote == 1 && pushed.errors.isEmpty)
        #expect(sides.written == [.personsAction])
        #expect(try sides.journal.awaitedActions().isEmpty)

        // Later writes of it are copies again.
        sides.local.put("m1.ics", Self.meeting("m1", summary: "Edited by hand"))
        _ = try await sides.run()
        #expect(sides.written == [.personsAction, .copy])
    }

    /// Every kind of run that first sends a person's action sends it as such: here the first
    /// sync of a pair, streamed from a server that streams, with the server's own items
    /// pulled in the same run.
    @Test func anActionAwaitedBeforeTheFirstSyncGoesAsThePersonsInAStreamedFirstPull() async throws {
        let sides = try Sides()
        sides.remote.put("other.ics", Self.meeting("other"))
        sides.local.put("m1.ics", Self.meeting("m1"))
        try sides.journal.setAwaitedActions(AwaitedActions(actions: ["m1"]))
        let report = try await sides.run(streaming: true)
        #expect(report.created.remote == 1 && report.created.local == 1 && report.errors.isEmpty, "\(report)")
        #expect(sides.written == [.personsAction])
        #expect(report.settledActions == ["m1"])
        #expect(try sides.journal.awaitedActions().isEmpty)
        _ = try await sides.run(streaming: true)
        #expect(sides.written == [.personsAction], "a later run wrote again")
    }

    @Test func anActionWithNothingToSendIsSettled() async throws {
        let sides = try Sides()
        sides.local.put("m1.ics", Self.meeting("m1"))
        _ = try await sides.run()
        // Already on the server as it is, or never there at all: nothing waits.
        let report = try await sides.run(.push, acting: ["m1", "gone"])
        #expect(report.settledActions == ["m1", "gone"])
        #expect(try sides.journal.awaitedActions().isEmpty)
        // A pull cannot send the person's action: it waits for the push.
        sides.local.put("m1.ics", Self.meeting("m1", summary: "Moved"))
        _ = try await sides.run(.pull, acting: ["m1"])
        #expect(try sides.journal.awaitedActions().actions == ["m1"])
    }

    @Test func anEditMeetsAnAnswerThatLandedMeanwhileAndBothAreKept() async throws {
        let sides = try Sides()
        sides.local.put("m1.ics", Self.meeting("m1"))
        _ = try await sides.run()
        let href = try #require(sides.remote.contents.keys.first)
        // bob's answer reaches the organizer's copy on the server; alice edits her copy.
        sides.remote.put(
            href, Self.meeting("m1", bob: "ACCEPTED", extra: ";X-DTSTAMP=20270101T000000Z;SCHEDULE-STATUS=2.0"))
        sides.local.put("m1.ics", Self.meeting("m1", summary: "Final review", sequence: 1))
        let report = try await sides.run(.push, acting: ["m1"])
        #expect(report.conflicts.isEmpty && report.errors.isEmpty && report.updated.remote == 1)
        for side in [sides.local.contents.values.first, sides.remote.contents[href]] {
            let text = String(decoding: side ?? Data(), as: UTF8.self)
            #expect(text.contains("SUMMARY:Final review") && text.contains("PARTSTAT=ACCEPTED;X-DTSTAMP"), "\(text)")
        }
    }

    @Test func anAnswerToAMeetingMovedMeanwhileIsNotSent() async throws {
        let sides = try Sides()
        sides.local.put("m1.ics", Self.meeting("m1"))
        _ = try await sides.run()
        let href = try #require(sides.remote.contents.keys.first)
        let moved = Self.meeting("m1", start: "20270302T100000Z", sequence: 1)
        sides.remote.put(href, moved)
        sides.local.put("m1.ics", Self.meeting("m1", bob: "ACCEPTED"))
        let writes = sides.written.count
        let report = try await sides.run(.push, acting: ["m1"], answers: ["m1"])
        #expect(report.unsentAnswers == ["m1"] && report.errors.count == 1)
        #expect(sides.written.count == writes, "the answer was written to the server")
        #expect(sides.local.contents.values.first == moved)
        #expect(try sides.journal.awaitedActions().isEmpty)
        // The same edit that is not an answer waits, as a push's conflict does.
        sides.local.put("m1.ics", Self.meeting("m1", summary: "Renamed", start: "20270302T100000Z", sequence: 1))
        sides.remote.put(href, Self.meeting("m1", start: "20270303T100000Z", sequence: 2))
        let pending = try await sides.run(.push, acting: ["m1"])
        #expect(pending.conflicts.map(\.resolution) == [.pending])
        #expect(try sides.journal.awaitedActions().actions == ["m1"])
    }
}

/// What counts as a change that matters to a meeting (RFC 6638 §3.2.10).
@Suite struct MeetingChangeTests {
    let base = PersonsActionTests.meeting("m")

    @Test func answersMarksStampsAndOrderDoNotMatter() {
        for later in [
            PersonsActionTests.meeting("m", bob: "DECLINED"),
            PersonsActionTests.meeting("m", extra: ";SCHEDULE-STATUS=1.2;X-SEQUENCE=1"),
            Data(
                String(decoding: base, as: UTF8.self).replacingOccurrences(
                    of: "DTSTAMP:20260101T000000Z", with: "DTSTAMP:20270101T000000Z"
                ).utf8),
            Data(
                String(decoding: base, as: UTF8.self).replacingOccurrences(of: "SUMMARY:Review\r\n", with: "")
                    .replacingOccurrences(of: "END:VEVENT", with: "SUMMARY:Review\r\nEND:VEVENT").utf8),
        ] {
            #expect(!MeetingChange.matters(from: base, to: later), "\(String(decoding: later, as: UTF8.self))")
        }
    }

    @Test func timesTitlesSequencesAndPeopleMatter() {
        for later in [
            PersonsActionTests.meeting("m", start: "20270302T100000Z"),
            PersonsActionTests.meeting("m", summary: "Other"),
            PersonsActionTests.meeting("m", sequence: 1),
            Data(
                String(decoding: base, as: UTF8.self).replacingOccurrences(
                    of: "mailto:bob@example.com", with: "mailto:carol@example.com"
                ).utf8),
            Data("not a calendar".utf8),
        ] {
            #expect(MeetingChange.matters(from: base, to: later), "\(String(decoding: later, as: UTF8.self))")
        }
    }
}
