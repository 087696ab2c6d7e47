import CalgwTestSupport
import Foundation
import Testing
@testable import CalDAV

/// CDATA sections, which the stream takes out of what libxml2 reads and checks itself: their
/// text comes as libxml2 gave it (as it is, CRs included, in document order) whatever the split
/// of the bytes; what only looks like a section (in a comment, an attribute value, a processing
/// instruction) stays what it was; a section that is not UTF-8 of XML characters fails the
/// document; a document in another encoding is read by libxml2 alone, as before.
@Suite struct XMLStreamCDATATests {
    /// What a stream reports, one string an event; adjacent texts are joined, as their pieces
    /// depend on the split of the bytes.
    final class Recorder: XMLStreamHandler {
        var events: [String] = []
        private var text: [UInt8] = []

        func start(namespace: String, name: String, attributes: [String: String]) throws {
            flush()
            events.append(
                "<\(name)" + attributes.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined() + ">")
        }

        func end() throws {
            flush()
            events.append("</>")
        }

        /// Pieces told as all CRLF, and those of them that are not.
        var crlfPieces = 0
        var falselyCRLF = 0

        func text(_ bytes: UnsafeRawBufferPointer) { text.append(contentsOf: bytes) }

        func text(_ bytes: UnsafeRawBufferPointer, crlf: Bool) {
            text.append(contentsOf: bytes)
            guard crlf else { return }
            crlfPieces += 1
            if LineEnds.restoringCRLF(bytes) != Data(bytes) { falselyCRLF += 1 }
        }

        func flush() {
            if !text.isEmpty { events.append("text:" + String(decoding: text, as: UTF8.self)) }
            text = []
        }
    }

    /// The events of `document` fed in pieces ending at `cuts` (offsets, ascending).
    static func events(_ document: [UInt8], cuts: [Int] = []) throws -> [String] {
        let recorder = Recorder()
        let stream = try XMLStream(handler: recorder)
        var start = 0
        for end in cuts + [document.count] {
            try document[start..<end].withUnsafeBytes { try stream.feed($0) }
            start = end
        }
        try stream.finish()
        #expect(stream.bytesFed == Int64(document.count))
        #expect(recorder.falselyCRLF == 0)
        recorder.flush()
        return recorder.events
    }

    static func events(_ document: String, cuts: [Int] = []) throws -> [String] {
        try events(Array(document.utf8), cuts: cuts)
    }

    /// The error reading `document` in pieces ending at `cuts`.
    static func failure(_ document: [UInt8], cuts: [Int] = []) -> XMLStreamError? {
        #expect(throws: XMLStreamError.self) { _ = try events(document, cuts: cuts) }
    }

    /// `text` in UTF-16 with its byte order mark, which libxml2 reads on its own: what it
    /// reports is what it reported for every document before the stream took sections out.
    static func utf16(_ text: String) -> [UInt8] {
        ("\u{FEFF}" + text).utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    /// Sections next to text, empty ones, `]]` inside and around them, and what only looks
    /// like one: in a comment, an attribute value, another section.
    static let mixed =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- <![CDATA[ not a section ]]> - -->\n"
        + "<r a=\"]]&gt; x\" b='>\"'>one<![CDATA[]]>two<![CDATA[a]]b]]]>\n"
        + "<s><![CDATA[é 😀\r\nline\rline\n]]]]><![CDATA[>]]></s><!----><![CDATA[<!-- --> <?pi?> <![CDATA[]]>\n"
        + "</r>\n"

    static let mixedEvents = [
        "<r a=]]> x b=>\">", "text:onetwoa]]b]\n", "<s>", "text:é 😀\r\nline\rline\n]]>", "</>",
        "text:<!-- --> <?pi?> <![CDATA[\n", "</>",
    ]

    @Test func aSectionsTextComesAsItIsBetweenTheTextAroundIt() throws {
        #expect(
            try Self.events("<a>before<![CDATA[x\r\ny\rz\n<&>]]>after<b/>tail</a>") == [
                "<a>", "text:beforex\r\ny\rz\n<&>after", "<b>", "</>", "text:tail", "</>",
            ])
        #expect(try Self.events(Self.mixed) == Self.mixedEvents)
    }

    /// The reference: the same document in UTF-16, which libxml2 reads without the stream's help.
    @Test func libxml2AloneReadsTheSame() throws {
        let body = Self.mixed.replacingOccurrences(of: " encoding=\"UTF-8\"", with: "")
        #expect(try Self.events(Self.utf16(body)) == Self.mixedEvents)
        #expect(
            try Self.events(Self.utf16("<a>x<![CDATA[y\r\nz\r]]></a>")) == ["<a>", "text:xy\r\nz\r", "</>"])
    }

    /// A section's text is told as all CRLF exactly when every line end in it is one (a
    /// member's calendar-data is then taken without a search for its line ends); text libxml2
    /// gives, CRs and all, never is.
    @Test func aSectionIsToldAllCRLFExactlyWhenItIs() throws {
        let cases = [
            ("<a><![CDATA[x\r\ny\r\n]]></a>", 1), ("<a><![CDATA[xy]]></a>", 1), ("<a><![CDATA[x\ny\r\n]]></a>", 0),
            ("<a><![CDATA[x\r\ny\r]]></a>", 0), ("<a><![CDATA[x\ry\r\n]]></a>", 0), ("<a>x&#13;\ny&#13;\n</a>", 0),
        ]
        for (document, told) in cases {
            let recorder = Recorder()
            let stream = try XMLStream(handler: recorder)
            try Array(document.utf8).withUnsafeBytes { try stream.feed($0) }
            try stream.finish()
            #expect(recorder.crlfPieces == told, "\(document.debugDescription)")
        }
    }

    @Test func everySplitReadsTheSame() throws {
        let bytes = Array(Self.mixed.utf8)
        for cut in 0...bytes.count {
            #expect(try Self.events(bytes, cuts: [cut]) == Self.mixedEvents, "cut at \(cut)")
        }
        #expect(try Self.events(bytes, cuts: Array(1..<bytes.count)) == Self.mixedEvents, "byte by byte")
    }

    @Test func aLongSectionReadsTheSameInAnyPieces() throws {
        let text = String(repeating: "DESCRIPTION:a long line of text, é and ]] too\r\n", count: 200)
        let bytes = Array("<a><![CDATA[\(text)]]></a>".utf8)
        for size in [1, 7, 300, 4096] {
            let cuts = Array(stride(from: size, to: bytes.count, by: size))
            #expect(try Self.events(bytes, cuts: cuts) == ["<a>", "text:\(text)", "</>"])
        }
    }

    /// A section over the 8 MB the stream holds (or one a server never closes) goes to libxml2
    /// as it is, with the rest of the document: it reads the same, and memory is not held for it.
    @Test func aSectionOverWhatIsHeldReadsThroughLibxml2() throws {
        let line = "DESCRIPTION:a line of a very long calendar, with ]] and é\r\n"
        let text = String(repeating: line, count: (9 << 20) / line.utf8.count)
        let bytes = Array("<a><![CDATA[\(text)]]>after<![CDATA[x\r\n]]></a>".utf8)
        let cuts = Array(stride(from: 65536, to: bytes.count, by: 65536))
        #expect(try Self.events(bytes, cuts: cuts) == ["<a>", "text:\(text)afterx\r\n", "</>"])
        let open = Array("<a><![CDATA[\(text)".utf8)
        #expect(Self.failure(open, cuts: Array(stride(from: 65536, to: open.count, by: 65536))) != nil)
    }

    /// What reading `document` in pieces ending at `cuts` gives: its events, or its error's
    /// message and line.
    static func outcome(_ document: [UInt8], cuts: [Int] = []) -> String {
        do { return try events(document, cuts: cuts).joined(separator: "|") } catch let error as XMLStreamError {
            return "error: \(error.message) at line \(error.line)"
        } catch { return "error: \(error)" }
    }

    /// Random documents of sections, text, comments and tags with quoted attribute values, their
    /// pieces holding what could be taken for a section's edges, read in random pieces: each
    /// reads as libxml2 reads it alone (in UTF-16), or fails as it does. The seed is in the failure.
    @Test func randomDocumentsReadAsLibxml2AloneReadsThem() throws {
        var random = SeededRandom(seed: 0x6364_6174_6121)
        let pieces = [
            "", "x", "]", "]]", ">", "]>", "\r\n", "\r", "\n", "é", "😀", "<![CDATA[", "<!--", "-->", "--", "?>", "'",
            "\"",
            "&amp;", " ", "\t",
        ]
        func text(_ random: inout SeededRandom) -> String {
            (0..<Int.random(in: 0...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        }
        func plain(_ random: inout SeededRandom) -> String {
            text(&random).replacingOccurrences(of: "<", with: "&lt;")
        }
        func node(_ depth: Int, _ random: inout SeededRandom) -> String {
            switch Int.random(in: 0..<(depth < 3 ? 6 : 4), using: &random) {
            case 0: return plain(&random)
            case 1: return "<![CDATA[" + text(&random) + "]]>"
            case 2: return "<!--" + plain(&random).replacingOccurrences(of: "-", with: "") + "-->"
            case 3: return "<e a=\"" + plain(&random).replacingOccurrences(of: "\"", with: "") + "\"/>"
            default:
                let quote = Bool.random(using: &random) ? "'" : "\""
                let value = plain(&random).replacingOccurrences(of: quote, with: "")
                return "<e b=\(quote)\(value)\(quote)>"
                    + (0..<Int.random(in: 0...4, using: &random)).map { _ in node(depth + 1, &random) }.joined()
                    + "</e>"
            }
        }
        var read = 0
        for _ in 0..<400 {
            let seed = random.state
            let body =
                "<r>" + (0..<Int.random(in: 1...6, using: &random)).map { _ in node(0, &random) }.joined() + "</r>"
            let document = Array(body.utf8)
            let cuts = (0..<3).map { _ in Int.random(in: 0...document.count, using: &random) }.sorted()
            let reference = Self.outcome(Self.utf16(body))
            #expect(Self.outcome(document) == reference, "seed \(seed): \(body)")
            #expect(Self.outcome(document, cuts: cuts) == reference, "seed \(seed), cuts \(cuts): \(body)")
            if !reference.hasPrefix("error") { read += 1 }
        }
        #expect(read > 100, "only \(read) documents read")
    }

    /// A Cyrus answer, every calendar-data a CDATA section (every third with LFs alone, whose
    /// CRs are restored): the members are those of the same answer with the calendar-data as
    /// escaped text.
    @Test func aMultistatusOfSectionsReadsAsOneOfEscapedText() throws {
        func answer(cdata: Bool) -> Data {
            var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            text += "<D:multistatus xmlns:D=\"DAV:\" xmlns:C=\"urn:ietf:params:xml:ns:caldav\">"
            for i in 0..<12 {
                let crlf =
                    "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:e\(i)\r\nSUMMARY:Plan & <review> \(i) é\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
                let calendar = i % 3 == 0 ? crlf.replacingOccurrences(of: "\r\n", with: "\n") : crlf
                let data =
                    cdata
                    ? "<![CDATA[\(calendar)]]>"
                    : calendar.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                        .replacingOccurrences(of: ">", with: "&gt;")
                text +=
                    "<D:response><D:href>/c/e\(i).ics</D:href><D:propstat><D:prop><D:getetag>\"\(i)\"</D:getetag>"
                    + "<C:calendar-data>\(data)</C:calendar-data></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>\n"
            }
            return Data((text + "<D:sync-token>data:,1</D:sync-token></D:multistatus>\n").utf8)
        }
        let sections = answer(cdata: true)
        let expected = try Multistatus.members(of: answer(cdata: false))
        #expect(expected.members.count == 12)
        #expect(
            expected.members[5].calendarData.map { String(decoding: $0, as: UTF8.self) }?.contains(
                "\r\nSUMMARY:Plan & <review> 5 é\r\n") == true)
        for size in [sections.count, 1, 5, 333] {
            var members: [DAVMember] = []
            let reader = try MultistatusReader.members { members.append($0) }
            var start = 0
            while start < sections.count {
                try reader.feed(sections[start..<min(start + size, sections.count)])
                start += size
            }
            #expect(try reader.finish() == "data:,1")
            #expect(members == expected.members, "pieces of \(size) bytes")
        }
    }

    @Test func aSectionInAnAttributeValueIsRefusedAsBefore() throws {
        let body = "<a b=\"<![CDATA[x]]>\"/>"
        let error = Self.failure(Array(body.utf8))
        #expect(error?.message.contains("'<'") == true, "\(String(describing: error))")
        #expect(error?.message == Self.failure(Self.utf16(body))?.message)
    }

    @Test func aSectionInAProcessingInstructionIsRefusedWithIt() throws {
        for body in ["<a><?x <![CDATA[ ?>]]></a>", "<?x <![CDATA[?><a/>"] {
            let error = Self.failure(Array(body.utf8))
            #expect(error?.message.contains("processing instruction") == true, "\(body): \(String(describing: error))")
        }
    }

    @Test func aSectionInADocumentWithADTDIsRefusedWithIt() throws {
        let error = Self.failure(Array("<!DOCTYPE a><a><![CDATA[x]]></a>".utf8))
        #expect(error?.message.contains("DTD") == true, "\(String(describing: error))")
    }

    /// A section never closed is libxml2's to refuse, as before.
    @Test func aDocumentCutInASectionIsRefused() throws {
        for body in ["<a><![CDATA[abc", "<a><![CDATA[abc]]", "<a><![CDAT"] {
            let error = Self.failure(Array(body.utf8))
            #expect(error?.message == Self.failure(Self.utf16(body))?.message, "\(body)")
        }
    }

    @Test(
        arguments: [
            [0x01], [0x00], [0x0B], [0x1F], [0xC3, 0x28], [0x80], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF],
            [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBE], [0xEF, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80],
            [0xF5, 0x80, 0x80, 0x80],
            [0xE2, 0x82], [0xF0, 0x9F, 0x98],
        ] as [[UInt8]])
    func aSectionNotUTF8OfXMLCharactersFailsTheDocument(bad: [UInt8]) throws {
        let document = Array("<a>\n<![CDATA[fine\r\nline 3 ".utf8) + bad + Array("]]></a>".utf8)
        for cuts in [[], Array(1..<document.count)] {
            let error = Self.failure(document, cuts: cuts)
            #expect(error?.message.contains("CDATA section") == true, "\(String(describing: error))")
            #expect(error?.line == 3 && error?.column == 8, "\(String(describing: error))")
        }
    }

    @Test func everyXMLCharacterBeyondASCIIIsText() throws {
        let text = "\t\u{7F}\u{80}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFD}\u{10000}\u{10FFFF}"
        let document = "<a><![CDATA[\(text)]]></a>"
        #expect(try Self.events(document) == ["<a>", "text:\(text)", "</>"])
        #expect(try Self.events(Self.utf16(document)) == ["<a>", "text:\(text)", "</>"])
    }

    /// Encodings other than UTF-8 go to libxml2 untouched: a Latin-1 é (one byte, not UTF-8)
    /// inside a section reads as é.
    @Test func aDocumentInAnotherEncodingReadsThroughLibxml2() throws {
        let latin1 =
            Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a><![CDATA[caf".utf8) + [0xE9]
            + Array("\r\n]]></a>".utf8)
        #expect(try Self.events(latin1) == ["<a>", "text:café\r\n", "</>"])
        #expect(try Self.events(Self.utf16("<a><![CDATA[é]]></a>")) == ["<a>", "text:é", "</>"])
        #expect(
            try Self.events("\u{FEFF}<?xml version='1.0' encoding = 'utf-8' ?><a><![CDATA[é]]></a>") == [
                "<a>", "text:é", "</>",
            ])
    }

    /// The marker libxml2 reads in a section's place has its LFs: an error after a section of
    /// many lines is on the line it is.
    @Test func anErrorAfterASectionIsOnItsLine() throws {
        let body = "<a>\n<![CDATA[" + String(repeating: "line\r\n", count: 40) + "]]>\n<b></c></a>"
        let error = Self.failure(Array(body.utf8))
        let reference = Self.failure(Self.utf16(body))
        #expect(error?.line == 43 && reference?.line == 43, "\(String(describing: error))")
        #expect(error?.message == reference?.message && error?.column == reference?.column)
    }
}
