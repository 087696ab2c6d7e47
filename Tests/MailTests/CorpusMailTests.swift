import CalgwTestSupport
import Foundation
import Mail
import Testing

/// Every real invitation mail in Fixtures/itip (see its README for where each comes from) read
/// by the mail reader and by Python's email package with icalendar: both find the same calendar
/// parts, choose the same one, and read the same UID, METHOD and first DTSTART from it.
@Suite struct CorpusMailTests {
    static let folder = TestPaths.fixtures.appendingPathComponent("itip")

    static var files: [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".eml") || $0.hasSuffix(".ics") }.sorted()
            .map { folder.appendingPathComponent($0) }
    }

    @Test func theCorpusHoldsTheMailsItsREADMENames() throws {
        let readme = try String(contentsOf: Self.folder.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(Self.files.count >= 20)
        for file in Self.files {
            #expect(readme.contains("`\(file.lastPathComponent)`"), "README.md does not name \(file.lastPathComponent)")
        }
    }

    @Test func everyMailAgreesWithPythonsEmailAndIcalendar() async throws {
        let files = Self.files
        let readings = try await MailOracle.read(files: files)
        try #require(readings.count == files.count)
        for (file, python) in zip(files, readings) {
            let name = file.lastPathComponent
            #expect(python.error == nil, "python could not read \(name): \(python.error ?? "")")
            let message = try MailMessage.parse(Data(contentsOf: file))

            #expect(message.from?.address == python.from, "\(name): From")
            #expect(message.to.map(\.address) == python.to ?? [], "\(name): To and Cc")
            #expect(message.subject == python.subject, "\(name): Subject")

            let pythonParts = python.calendars ?? []
            #expect(message.calendarParts.map(\.method) == pythonParts.map(\.method), "\(name): method= of each part")
            #expect(message.calendarParts.map(\.isAttachment) == pythonParts.map(\.attachment), "\(name): attachments")
            #expect(message.calendarParts.map(\.text) == pythonParts.map(\.text), "\(name): decoded calendar text")

            let part = try #require(message.calendarPart, "\(name): no calendar part")
            #expect(message.calendarParts.firstIndex(of: part) == python.chosen, "\(name): the part chosen")
            let lines = ContentLines(part.text)
            #expect(lines.property("UID", inComponent: true)?.value == python.uid, "\(name): UID")
            #expect(lines.property("METHOD", inComponent: false)?.value == python.objectMethod, "\(name): METHOD")
            let start = lines.property("DTSTART", inComponent: true)
            #expect(start?.value == python.dtstart, "\(name): DTSTART")
            let tzid = start?.parameters.split(separator: ";").first { $0.uppercased().hasPrefix("TZID=") }
            #expect(tzid.map { Substring($0.dropFirst(5)).withoutQuotes } == python.tzid, "\(name): DTSTART's TZID")
        }
    }

    @Test func outlookAndGmailShapesAreRead() throws {
        func read(_ name: String) throws -> MailMessage {
            try MailMessage.parse(Data(contentsOf: Self.folder.appendingPathComponent(name)))
        }
        // Gmail: a quoted-printable inline part and a base64 application/ics invite.ics repeating it.
        let gmail = try read("gmail-invite-postal-mime.eml")
        #expect(gmail.calendarParts.count == 2)
        #expect(gmail.calendarParts.map(\.isAttachment) == [false, true])
        #expect(gmail.calendarParts[1].filename == "invite.ics")
        #expect(gmail.calendarPart == gmail.calendarParts[0])
        #expect(gmail.calendarPart?.text.contains("X-GOOGLE-CONFERENCE:https://meet.google.com/") == true)
        #expect(gmail.subject?.contains("⏰") == true)
        // Outlook: base64 calendar, a Windows zone name, X-MICROSOFT-CDO-* properties.
        let outlook = try read("thunderbird-outlook-test-invite.eml")
        #expect(outlook.calendarPart?.method == "REQUEST")
        #expect(outlook.calendarPart?.text.contains("DTSTART;TZID=FLE Standard Time:20211127T090000") == true)
        #expect(outlook.calendarPart?.text.contains("X-MICROSOFT-CDO-BUSYSTATUS:TENTATIVE") == true)
        #expect(outlook.from == MailAddress(address: "marge@example.org", name: "Marge"))
        // method= on the Content-Type, no METHOD in the object.
        let noMethod = try read("thunderbird-extensions-invite.eml")
        #expect(noMethod.calendarPart?.method == "REQUEST")
        #expect(
            noMethod.calendarPart.map { ContentLines($0.text).property("METHOD", inComponent: false) == nil } == true)
    }
}

extension Substring {
    fileprivate var withoutQuotes: String {
        count >= 2 && first == "\"" && last == "\"" ? String(dropFirst().dropLast()) : String(self)
    }
}
