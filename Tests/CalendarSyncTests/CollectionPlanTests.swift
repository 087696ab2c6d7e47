import Foundation
import Testing
@testable import CalendarSync

/// Which calendars of an account become which folders, decided without I/O.
@Suite struct CollectionPlanTests {
    typealias Entry = CollectionMapping.Entry
    let home = "/dav/calendars/alice/"

    @Test func aFirstRunMakesAFolderPerCalendarAndACalendarPerFolder() {
        let plan = CollectionPlan.plan(
            mapping: .init(), remote: ["\(home)work/", "\(home)Privat%20%C3%A9/"],
            local: ["family"], home: home)
        #expect(plan.newLocal.map(\.href) == ["\(home)Privat%20%C3%A9/", "\(home)work/"])
        #expect(plan.newLocal.allSatisfy { !$0.name.contains(" ") && !$0.name.contains("/") })
        #expect(plan.newLocal.last?.name == "work")
        #expect(plan.newRemote == [Entry(name: "family", href: "\(home)family/")])
        #expect(plan.sync.isEmpty)
        #expect(plan.mapping.entries.count == 3)
    }

    @Test func aFolderAlreadyNamedLikeACalendarIsThatCalendar() {
        let plan = CollectionPlan.plan(mapping: .init(), remote: ["\(home)work/"], local: ["work"], home: home)
        #expect(plan.sync == [Entry(name: "work", href: "\(home)work/")])
        #expect(plan.newLocal.isEmpty && plan.newRemote.isEmpty)
    }

    @Test func namesThatCollideGetASuffixAndKeepIt() {
        let a: CollectionHref = "\(home)team/", b: CollectionHref = "/dav/calendars/shared/team/"
        let first = CollectionPlan.plan(mapping: .init(), remote: [a, b], local: [], home: home)
        let names = first.newLocal.map(\.name)
        #expect(Set(names).count == 2 && names.contains("team") && names.contains { $0.hasPrefix("team-") })
        // Later runs use the mapping, never derive the names again.
        let again = CollectionPlan.plan(mapping: first.mapping, remote: [b, a], local: names, home: home)
        #expect(Set(again.sync) == Set(first.newLocal))
        #expect(again.newLocal.isEmpty && again.newRemote.isEmpty)
    }

    @Test func aCollectionGoneFromOneSideIsReportedNotPropagated() {
        let mapping = CollectionMapping(entries: [
            Entry(name: "work", href: "\(home)work/"),
            Entry(name: "old", href: "\(home)old/"),
            Entry(name: "both-gone", href: "\(home)both-gone/"),
        ])
        let plan = CollectionPlan.plan(mapping: mapping, remote: ["\(home)work/"], local: ["work", "old"], home: home)
        #expect(plan.goneRemote == [Entry(name: "old", href: "\(home)old/")])
        #expect(plan.sync == [Entry(name: "work", href: "\(home)work/")])
        #expect(plan.newRemote.isEmpty, "a folder whose calendar is gone must not be made again")
        #expect(!plan.mapping.entries.contains { $0.name == "both-gone" })
        let localGone = CollectionPlan.plan(
            mapping: mapping, remote: ["\(home)work/", "\(home)old/"], local: ["work"], home: home)
        #expect(localGone.goneLocal == [Entry(name: "old", href: "\(home)old/")])
        #expect(localGone.newLocal.isEmpty, "a calendar whose folder is gone must not be fetched again")
    }

    /// `collections.json` keeps an href as plain text, as it did before it had a type.
    @Test func theMappingFileHoldsHrefsAsText() throws {
        let mapping = CollectionMapping(entries: [Entry(name: "work", href: "\(home)work/")])
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(mapping)) as? [String: Any]
        let entries = json?["entries"] as? [[String: String]]
        #expect(entries == [["name": "work", "href": "/dav/calendars/alice/work/"]])
        let old = Data(#"{"entries":[{"name":"work","href":"/dav/calendars/alice/work/"}]}"#.utf8)
        #expect(try JSONDecoder().decode(CollectionMapping.self, from: old) == mapping)
    }

    @Test func aNewFolderNeverTakesAnExistingCalendarsHref() {
        let mapping = CollectionMapping(entries: [Entry(name: "w", href: "\(home)work/")])
        let plan = CollectionPlan.plan(mapping: mapping, remote: ["\(home)work/"], local: ["w", "work"], home: home)
        #expect(plan.newRemote.count == 1)
        #expect(plan.newRemote.first?.href != "\(home)work/")
    }
}
