import Foundation
import Testing
@testable import CalendarSync

/// When a Graph round asks every series its change key: whenever the folder's commit stamp
/// moved or is unknown, and at least once a day whatever it says.
@Suite struct SeriesCheckTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func state(stamp: String?, checkedAgo: TimeInterval?) -> GraphListingState {
        GraphListingState(
            deltaLink: "https://graph.example/delta", window: "w", masters: ["m": "k"], canEdit: true, stamp: stamp,
            checked: checkedAgo.map { now.addingTimeInterval(-$0) })
    }

    @Test func theSameStampWithinADaySkipsTheSeries() {
        #expect(
            !SeriesCheck.needed(
                stamp: "2026-11-28T10:00:00Z", after: state(stamp: "2026-11-28T10:00:00Z", checkedAgo: 600), now: now))
    }

    @Test func aMovedMissingOrUnknownStampAsksThem() {
        let checked = state(stamp: "2026-11-28T10:00:00Z", checkedAgo: 600)
        #expect(SeriesCheck.needed(stamp: "2026-11-28T10:00:01Z", after: checked, now: now))
        #expect(SeriesCheck.needed(stamp: nil, after: checked, now: now))
        #expect(SeriesCheck.needed(stamp: nil, after: state(stamp: nil, checkedAgo: 600), now: now))
        #expect(
            SeriesCheck.needed(
                stamp: "2026-11-28T10:00:00Z", after: state(stamp: "2026-11-28T10:00:00Z", checkedAgo: nil), now: now))
    }

    @Test func aDayOrAClockGoneBackAsksThemWhateverTheStamp() {
        let stamp = "2026-11-28T10:00:00Z"
        #expect(
            SeriesCheck.needed(stamp: stamp, after: state(stamp: stamp, checkedAgo: SeriesCheck.interval), now: now))
        #expect(SeriesCheck.needed(stamp: stamp, after: state(stamp: stamp, checkedAgo: -60), now: now))
    }

    /// A token written before the stamp was kept reads as one with none: its first round asks.
    @Test func anOlderTokenReadsWithoutAStamp() throws {
        let old = ChangeToken(#"graph:{"canEdit":true,"deltaLink":"https://g/d","masters":{"m":"k"},"window":"w"}"#)
        let state = try #require(GraphListingState(old))
        #expect(state.stamp == nil && state.checked == nil)
        #expect(SeriesCheck.needed(stamp: "2026-11-28T10:00:00Z", after: state, now: now))
    }
}
