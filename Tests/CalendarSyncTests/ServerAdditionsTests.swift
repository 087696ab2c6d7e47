import CalgwTestSupport
import Foundation
import Testing
@testable import CalendarSync

/// Two copies with no shared history: a server's copy that only adds to the local one is the
/// same item; any other difference keeps both.
@Suite struct ServerAdditionsTests {
    let local = TestEvent.ics(uid: "a", summary: "Plain", start: "20270301T100000Z", end: "20270301T110000Z")
    let resolver = ConflictResolver(strategy: .merge)

    func resolve(_ remote: String) -> ConflictResolution {
        resolver.resolve(
            key: ItemKey("a"), local: Data(local.utf8), remote: Data(remote.utf8), base: nil, sharingHistory: false
        ).0
    }

    @Test func whatTheServerOnlyAddedIsTakenAsTheItem() {
        let sogo = local.replacingOccurrences(of: "SUMMARY:Plain\r\n", with: "SUMMARY:Plain\r\nCLASS:PUBLIC\r\n")
            .replacingOccurrences(of: "PRODID:-//calgw//tests//EN", with: "PRODID:-//Inverse inc./SOGo 5.8.0//EN")
        #expect(sogo != local)
        #expect(ServerAdditions.onlyAdded(local: Data(local.utf8), remote: Data(sogo.utf8)))
        #expect(resolve(sogo) == .takeRemote)
    }

    @Test func anyOtherDifferenceKeepsBoth() {
        let edited = local.replacingOccurrences(of: "SUMMARY:Plain", with: "SUMMARY:Moved")
        let dropped = local.replacingOccurrences(of: "SUMMARY:Plain\r\n", with: "")
        for remote in [edited, dropped] {
            #expect(!ServerAdditions.onlyAdded(local: Data(local.utf8), remote: Data(remote.utf8)))
            guard case .keepBoth = resolve(remote) else {
                Issue.record("\(remote) was not kept beside the local copy")
                continue
            }
        }
        // With a shared history the usual merge decides.
        let merged = resolver.resolve(
            key: ItemKey("a"), local: Data(local.utf8), remote: Data(edited.utf8), base: Data(local.utf8)
        ).0
        #expect(merged == .takeRemote)
    }
}
