import Foundation
import Testing
import CalgwTestSupport
@testable import CalendarSync

/// A single `.ics` file as a storage: split by UID, rewritten once per flush, another
/// program's edits kept.
@Suite struct SingleFileStorageTests {
    /// A Thunderbird-like export: calendar properties, one VTIMEZONE, a series whose override
    /// stands apart from its master, a task, a journal entry, an unknown component, and an
    /// event without a UID.
    static let export = """
        BEGIN:VCALENDAR
        PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN
        VERSION:2.0
        X-WR-CALNAME:Home
        BEGIN:VTIMEZONE
        TZID:Europe/Berlin
        BEGIN:STANDARD
        TZOFFSETFROM:+0200
        TZOFFSETTO:+0100
        DTSTART:19701025T030000
        RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
        END:STANDARD
        BEGIN:DAYLIGHT
        TZOFFSETFROM:+0100
        TZOFFSETTO:+0200
        DTSTART:19700329T020000
        RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
        END:DAYLIGHT
        END:VTIMEZONE
        BEGIN:VEVENT
        UID:standup
        DTSTAMP:20260101T000000Z
        DTSTART;TZID=Europe/Berlin:20260302T093000
        DURATION:PT15M
        RRULE:FREQ=DAILY;COUNT=10
        SUMMARY:Standup
        END:VEVENT
        BEGIN:VTODO
        UID:task
        DTSTAMP:20260101T000000Z
        SUMMARY:Taxes
        END:VTODO
        BEGIN:VEVENT
        UID:standup
        DTSTAMP:20260101T000000Z
        RECURRENCE-ID;TZID=Europe/Berlin:20260304T093000
        DTSTART;TZID=Europe/Berlin:20260304T110000
        DURATION:PT15M
        SUMMARY:Standup (moved)
        END:VEVENT
        BEGIN:VJOURNAL
        UID:note
        DTSTAMP:20260101T000000Z
        SUMMARY:Notes
        END:VJOURNAL
        BEGIN:X-CUSTOM
        UID:custom
        X-THING:kept
        END:X-CUSTOM
        BEGIN:VEVENT
        DTSTAMP:20260101T000000Z
        DTSTART:20260310T100000Z
        SUMMARY:No UID
        END:VEVENT
        END:VCALENDAR

        """.replacingOccurrences(of: "\n", with: "\r\n")

    func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func text(_ url: URL) throws -> String { String(decoding: try Data(contentsOf: url), as: UTF8.self) }

    /// `export` written as a new folder's `calendar.ics`, a storage over it, and its first listing.
    func openedExport() async throws -> (TemporaryFolder, URL, SingleFileStorage, [ItemVersion]) {
        let folder = try TemporaryFolder()
        let url = folder.file("calendar.ics")
        do {
            try write(Self.export, to: url)
            let storage = SingleFileStorage(url: url)
            guard case .full(let listing, _) = try await storage.changes(since: nil) else {
                throw SingleFileError(.invalid, "the first listing of \(url.path) is not a full one")
            }
            return (folder, url, storage, listing)
        } catch {
            folder.remove()
            throw error
        }
    }

    @Test func aFileIsSplitByUIDKeepingOverridesZonesAndEveryComponent() async throws {
        let (folder, _, storage, listing) = try await openedExport()
        defer { folder.remove() }
        let hrefs = listing.map(\.href)
        #expect(
            hrefs.filter { !$0.value.hasPrefix("nouid-") } == ["custom.ics", "note.ics", "standup.ics", "task.ics"])
        #expect(hrefs.filter { $0.value.hasPrefix("nouid-") }.count == 1)

        let series = String(decoding: try #require(try await storage.fetch(["standup.ics"]).first).data, as: UTF8.self)
        #expect(series.components(separatedBy: "BEGIN:VEVENT").count == 3)
        #expect(series.contains("RECURRENCE-ID;TZID=Europe/Berlin:20260304T093000"))
        #expect(series.contains("BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin"))
        #expect(!series.contains("X-WR-CALNAME"))
        let task = String(decoding: try #require(try await storage.fetch(["task.ics"]).first).data, as: UTF8.self)
        #expect(!task.contains("VTIMEZONE") && task.contains("BEGIN:VTODO"))
        // Every item is a calendar object the rest of calgw reads with its UID.
        for item in try await storage.fetch(hrefs) { #expect(ItemContent(item.data).parses) }
    }

    @Test func aRewriteKeepsCalendarPropertiesAndUntouchedItemsByteForByte() async throws {
        let (folder, url, storage, listing) = try await openedExport()
        defer { folder.remove() }
        let task = try #require(listing.first { $0.href == "task.ics" })
        let newTask = Data(
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//server//EN\r\nBEGIN:VTODO\r\nUID:task\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:Taxes done\r\nSTATUS:COMPLETED\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
                .utf8)
        let updated = try await storage.update(href: "task.ics", data: newTask, ifMatch: task.etag)
        let added = try await storage.create(TestEvent.data(uid: "new", duration: "PT1H"), suggestedName: "new")
        #expect(added.href == "new.ics")
        // Nothing reaches the file before the flush.
        #expect(try text(url) == Self.export)
        try await storage.flush()

        let after = try text(url)
        #expect(
            after.hasPrefix(
                "BEGIN:VCALENDAR\r\nPRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN\r\nVERSION:2.0\r\nX-WR-CALNAME:Home\r\n"
            ))
        #expect(after.contains("SUMMARY:Taxes done") && !after.contains("SUMMARY:Taxes\r\n"))
        #expect(!after.contains("PRODID:-//server//EN"))
        for kept in [
            "BEGIN:VJOURNAL\r\nUID:note", "BEGIN:X-CUSTOM\r\nUID:custom\r\nX-THING:kept", "SUMMARY:No UID",
            "SUMMARY:Standup (moved)", "UID:new",
        ] {
            #expect(after.contains(kept), "\(kept) survives the rewrite")
        }
        #expect(after.components(separatedBy: "BEGIN:VTIMEZONE").count == 2)
        #expect(after.hasSuffix("END:VCALENDAR\r\n"))

        // A fresh reader sees the etags the writes returned, and every other one unchanged.
        guard case .full(let again, _) = try await SingleFileStorage(url: url).changes(since: nil) else {
            Issue.record("a full listing"); return
        }
        #expect(again.first { $0.href == "task.ics" } == updated)
        #expect(again.first { $0.href == "new.ics" } == added)
        for version in listing where version.href != "task.ics" { #expect(again.contains(version)) }
    }

    @Test func anUnchangedFileAnswersUnchangedAndAnEditMovesOnlyItsItem() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("calendar.ics")
        try write(Self.export, to: url)
        guard case .full(let before, let token) = try await SingleFileStorage(url: url).changes(since: nil) else {
            Issue.record("full"); return
        }
        if case .unchanged = try await SingleFileStorage(url: url).changes(since: token) {
        } else {
            Issue.record("unchanged")
        }

        try write(Self.export.replacingOccurrences(of: "SUMMARY:Notes", with: "SUMMARY:Notes, edited"), to: url)
        guard case .full(let after, _) = try await SingleFileStorage(url: url).changes(since: token) else {
            Issue.record("full"); return
        }
        let moved = Set(after).subtracting(before).map(\.href)
        #expect(moved == ["note.ics"])
    }

    @Test func anotherProgramsEditDuringARunIsKeptAndItsItemFailsThePrecondition() async throws {
        let (folder, url, storage, listing) = try await openedExport()
        defer { folder.remove() }
        let note = try #require(listing.first { $0.href == "note.ics" })
        let task = try #require(listing.first { $0.href == "task.ics" })

        // Another program rewrites the file (a new inode, as editors save).
        try write(
            Self.export.replacingOccurrences(of: "SUMMARY:Notes", with: "SUMMARY:Notes by hand"),
            to: folder.file("other.tmp"))
        #expect(rename(folder.file("other.tmp").path, url.path) == 0)

        let ours = Data(
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VJOURNAL\r\nUID:note\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:Notes by calgw\r\nEND:VJOURNAL\r\nEND:VCALENDAR\r\n"
                .utf8)
        await #expect { _ = try await storage.update(href: "note.ics", data: ours, ifMatch: note.etag) } throws: {
            $0 as? StorageError == .preconditionFailed(href: "note.ics")
        }
        try await storage.delete(href: "task.ics", ifMatch: task.etag)
        try await storage.flush()
        let after = try text(url)
        #expect(after.contains("SUMMARY:Notes by hand"))
        #expect(!after.contains("Notes by calgw"))
        #expect(!after.contains("BEGIN:VTODO"))
    }

    @Test func anEditBetweenAWriteAndTheFlushIsMergedIntoTheRewrite() async throws {
        let (folder, url, storage, listing) = try await openedExport()
        defer { folder.remove() }
        let task = try #require(listing.first { $0.href == "task.ics" })
        try await storage.delete(href: "task.ics", ifMatch: task.etag)
        try write(Self.export.replacingOccurrences(of: "X-THING:kept", with: "X-THING:edited elsewhere"), to: url)
        try await storage.flush()
        let after = try text(url)
        #expect(after.contains("X-THING:edited elsewhere"))
        #expect(!after.contains("BEGIN:VTODO"))

        // A write the other program's edit makes impossible fails the flush, and nothing is written.
        guard case .full(let now, _) = try await storage.changes(since: nil) else { Issue.record("full"); return }
        let custom = try #require(now.first { $0.href == "custom.ics" })
        try await storage.delete(href: "custom.ics", ifMatch: custom.etag)
        let edited = after.replacingOccurrences(of: "X-THING:edited elsewhere", with: "X-THING:edited again")
        try write(edited, to: url)
        await #expect { try await storage.flush() } throws: { ($0 as? SingleFileError)?.code == .changedMeanwhile }
        #expect(try text(url) == edited)
    }

    @Test func aBrokenFileIsReportedAtItsLine() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("calendar.ics")
        let broken = Self.export.replacingOccurrences(of: "END:VTODO\r\n", with: "END:VEVENT\r\n")
        try write(broken, to: url)
        await #expect { _ = try await SingleFileStorage(url: url).changes(since: nil) } throws: { error in
            let e = error as? SingleFileError
            return e?.code == .invalid
                && e?.message.hasPrefix("\(url.path):32: END:VEVENT does not match BEGIN:VTODO") == true
        }
        try write(Self.export.replacingOccurrences(of: "SUMMARY:Notes\r\n", with: "SUMMARY Notes\r\n"), to: url)
        await #expect { _ = try await SingleFileStorage(url: url).changes(since: nil) } throws: { error in
            (error as? SingleFileError)?.message == "\(url.path):44: a line without ':'"
        }
        // An item's own mistakes are found when it is read (an unchanged item never is), at the file's line.
        try write(
            Self.export.replacingOccurrences(of: "RRULE:FREQ=DAILY;COUNT=10", with: "RRULE:FREQ=SOMETIMES"), to: url)
        var storage = SingleFileStorage(url: url)
        _ = try await storage.changes(since: nil)
        _ = try await storage.fetch(["task.ics", "note.ics"])
        await #expect { _ = try await storage.fetch(["task.ics", "standup.ics"]) } throws: { error in
            (error as? SingleFileError)?.message.hasPrefix("\(url.path):25: RRULE") == true
        }
        // In an override that stands after another item: still the file's line.
        try write(
            Self.export.replacingOccurrences(
                of: "DTSTART;TZID=Europe/Berlin:20260304T110000\r\n",
                with: "DTSTART;TZID=Europe/Berlin:20260304T110000\r\nDTEND;TZID=Europe/Berlin:20260304T100000\r\n"),
            to: url)
        storage = SingleFileStorage(url: url)
        await #expect { _ = try await storage.fetch(["standup.ics"]) } throws: { error in
            let message = (error as? SingleFileError)?.message ?? "\(error)"
            return (message.hasPrefix("\(url.path):37: ") || message.hasPrefix("\(url.path):38: "))
                && message.contains("is before DTSTART")
        }
    }

    @Test func aMissingFileIsAnEmptyCalendarMadeOnTheFirstWrite() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("new/calendar.ics")
        let storage = SingleFileStorage(url: url)
        guard case .full(let listing, _) = try await storage.changes(since: nil) else { Issue.record("full"); return }
        #expect(listing.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        _ = try await storage.create(TestEvent.data(uid: "a", duration: "PT1H"), suggestedName: "a")
        try await storage.flush()
        let made = try text(url)
        #expect(
            made.hasPrefix(
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calgw//single file//EN\r\nBEGIN:VEVENT\r\nUID:a\r\n"))
    }

    @Test func aLinkedFileIsRewrittenThroughItsLink() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let target = folder.file("synced/real.ics"), link = folder.file("calendar.ics")
        try write(Self.export, to: target)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let storage = SingleFileStorage(url: link)
        _ = try await storage.create(TestEvent.data(uid: "new", duration: "PT1H"), suggestedName: "new")
        try await storage.flush()
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try text(target).contains("UID:new"))
    }

    @Test func twoCalendarsInOneFileAreReadAsOne() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("calendar.ics")
        try write(
            String(
                decoding: TestEvent.data(uid: "a", duration: "PT1H"),
                as: UTF8.self) + String(decoding: TestEvent.data(uid: "b", duration: "PT1H"), as: UTF8.self), to: url)
        let storage = SingleFileStorage(url: url)
        guard case .full(let listing, _) = try await storage.changes(since: nil) else { Issue.record("full"); return }
        #expect(listing.map(\.href) == ["a.ics", "b.ics"])
        try await storage.delete(href: "a.ics", ifMatch: listing[0].etag)
        try await storage.flush()
        let after = try text(url)
        #expect(
            after.components(separatedBy: "VERSION:2.0").count == 2
                && after.components(separatedBy: "BEGIN:VCALENDAR").count == 2)
        #expect(!after.contains("UID:a\r\n") && after.contains("UID:b\r\n"))
    }

    @Test func aRewriteKilledBeforeItsRenameLeavesNothingBehindForLong() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("calendar.ics")
        try write(Self.export, to: url)
        let dead = folder.file(".calendar.ics.2147483646.17.tmp"),
            alive = folder.file(".calendar.ics.\(getpid()).18.tmp")
        let other = folder.file(".other.ics.2147483646.19.tmp")
        for leftover in [dead, alive, other] { try write("BEGIN:VCALENDAR\r\nBEGIN:VEV", to: leftover) }
        _ = try await SingleFileStorage(url: url).changes(since: nil)
        #expect(!FileManager.default.fileExists(atPath: dead.path))
        #expect(FileManager.default.fileExists(atPath: alive.path), "a running rewrite's file is left alone")
        #expect(FileManager.default.fileExists(atPath: other.path), "another file's leftovers are not this storage's")
        #expect(try text(url) == Self.export)
    }

    @Test func aRepeatedEventIsKeptOnceAndAnEditedCopyIsAnError() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("calendar.ics")
        let journal = "BEGIN:VJOURNAL\r\nUID:note\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:Notes\r\nEND:VJOURNAL\r\n"
        try write(Self.export.replacingOccurrences(of: "END:VCALENDAR", with: journal + "END:VCALENDAR"), to: url)
        let storage = SingleFileStorage(url: url)
        guard case .full(let listing, _) = try await storage.changes(since: nil) else { Issue.record("full"); return }
        #expect(listing.filter { $0.href == "note.ics" }.count == 1)
        let note = String(decoding: try #require(try await storage.fetch(["note.ics"]).first).data, as: UTF8.self)
        #expect(note.components(separatedBy: "BEGIN:VJOURNAL").count == 2)

        try write(
            Self.export.replacingOccurrences(
                of: "END:VCALENDAR", with: journal.replacingOccurrences(of: "Notes", with: "Copy") + "END:VCALENDAR"),
            to: url)
        await #expect { _ = try await SingleFileStorage(url: url).changes(since: nil) } throws: { error in
            (error as? SingleFileError)?.message
                == "\(url.path):55: a second VJOURNAL with UID note without a RECURRENCE-ID (the first is at line 41)"
        }
    }
}
