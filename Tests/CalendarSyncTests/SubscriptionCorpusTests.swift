import CalDAV
import Foundation
import ICalendar
import Testing
import CalgwTestSupport
@testable import CalendarSync
import HTTP

/// Every outside calendar of the shared corpus served as a feed: each is either split into
/// items that keep all of its components and the time zones they use, or refused with a
/// ``SubscriptionError`` saying why; never split into something that loses a component. The
/// corpus files that are a bare component (a VEVENT without its VCALENDAR) are no feed and
/// must be refused.
@Suite(.timeLimit(.minutes(10))) struct SubscriptionCorpusTests {
    /// What a feed holds, read independently of the splitter: the top-level components other
    /// than VTIMEZONE (name and UID), and the TZIDs it defines.
    struct Outline {
        var components: [(name: String, uid: String?)] = []
        var zones: Set<String> = []
    }

    static func outline(_ data: Data) -> Outline {
        var outline = Outline()
        var lines: [String] = []
        let text = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" }) {
            let line = String(raw)
            if let first = line.first, first == " " || first == "\t", !lines.isEmpty {
                lines[lines.count - 1] += line.dropFirst()
            } else {
                lines.append(line)
            }
        }
        var depth = 0
        var name = "", uid: String?
        for line in lines {
            let upper = line.uppercased()
            if upper.hasPrefix("BEGIN:") {
                depth += 1
                if depth == 2 { name = String(upper.dropFirst(6)); uid = nil }
            } else if upper.hasPrefix("END:") {
                if depth == 2, name != "VTIMEZONE" { outline.components.append((name, uid)) }
                depth -= 1
            } else if depth == 2, upper.hasPrefix("UID:") {
                uid = String(line.dropFirst(4)).trimmingCharacters(in: .whitespaces)
            } else if depth == 2, name == "VTIMEZONE", upper.hasPrefix("TZID:") {
                outline.zones.insert(String(line.dropFirst(5)))
            }
        }
        return outline
    }

    @Test func everyCorpusCalendarIsSplitWholeOrRefusedWithAReason() async throws {
        let root = TestPaths.corpora.appendingPathComponent("icalendar")
        let files = CorpusFiles.icsFiles(under: root)
        #expect(files.count > 100, "the corpus at \(root.path) is missing")
        let server = try TestProxies.feed(root: root)
        defer { server.stop() }
        let client = try HTTPClient()
        var split = 0, calendars = 0
        for file in files {
            let name = String(file.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            let storage = SubscriptionStorage(url: server.url.appendingPathComponent(name), client: client)
            let source = try Data(contentsOf: file)
            let expected = Self.outline(source)
            let isCalendar = String(decoding: source.prefix(40), as: UTF8.self).replacingOccurrences(
                of: "\u{FEFF}", with: ""
            )
            .trimmingCharacters(in: .whitespacesAndNewlines).uppercased().hasPrefix("BEGIN:VCALENDAR")
            if isCalendar { calendars += 1 }
            do {
                let (items, token) = try await storage.fetchAll()
                #expect(isCalendar, "\(name): a bare component is no feed")
                split += 1
                #expect(token != nil, "\(name)")
                // Every component with a UID is in the item of that UID; the others (UID-less,
                // given a derived one) are counted, less those listed twice.
                let texts = items.map { String(decoding: $0.data, as: UTF8.self) }
                let outlines = items.map { Self.outline($0.data) }
                let uids = Set(outlines.flatMap { $0.components.compactMap(\.uid) })
                for component in expected.components {
                    if let uid = component.uid, !uid.isEmpty {
                        #expect(uids.contains(uid), "\(name): \(component.name) \(uid) is lost")
                    }
                }
                let given = outlines.flatMap(\.components).filter { !($0.uid ?? "").hasPrefix("calgw-") }.count
                let derived = outlines.flatMap(\.components).filter { ($0.uid ?? "").hasPrefix("calgw-") }.count
                let withoutUID = expected.components.filter { ($0.uid ?? "").isEmpty }.count
                #expect(given == expected.components.count - withoutUID, "\(name): components with a UID")
                #expect(
                    derived <= withoutUID && (withoutUID == 0) == (derived == 0),
                    "\(name): \(withoutUID) without UID, \(derived) given one")
                // The feed's zones go into each item using them.
                for (text, item) in zip(texts, outlines) {
                    for zone in expected.zones where text.contains("TZID=\(zone):") || text.contains("TZID=\"\(zone)\"")
                    {
                        #expect(item.zones.contains(zone), "\(name): an item uses \(zone) without its VTIMEZONE")
                    }
                }
            } catch let error as SubscriptionError {
                #expect(error.code == .unusableFeed, "\(name): \(error)")
                if !isCalendar {
                    #expect(error.message.contains("where BEGIN:VCALENDAR should be"), "\(name): \(error)")
                }
                #expect(!error.message.isEmpty)
            }
        }
        // The calendars refused are broken: no END:VCALENDAR, lines without a colon, END:VCALENDARD.
        #expect(split * 10 >= calendars * 8, "most calendars of the corpus are usable feeds: \(split) of \(calendars)")
    }
}
