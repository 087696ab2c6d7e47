import Foundation
import Testing
import CalDAV
import CalgwTestSupport
import Crypto
@testable import CalendarSync
import ICalendar

@Suite struct ContentHashTests {
    @Test func ignoresProdidDtstampFoldingLineEndsAndOrder() {
        let a = TestEvent.data(
            uid: "u1", summary: "A rather long summary that a server will fold somewhere past seventy-five octets",
            duration: "PT1H")
        let rewritten = """
            BEGIN:VCALENDAR\nPRODID:-//Some Server//EN\nVERSION:2.0\nBEGIN:VEVENT\nSUMMARY:A rather long summary that a server will fold somewhere past seve\n nty-five octets\nDURATION:PT1H\nDTSTART:20260310T100000Z\nUID:u1\nDTSTAMP:20270505T101010Z\nEND:VEVENT\nEND:VCALENDAR\n
            """
        #expect(ContentHash.of(a) == ContentHash.of(Data(rewritten.utf8)))
    }

    /// Journals store these hashes: a change to how they are computed makes every item look
    /// changed once. This pins the value for one calendar with a time zone, a recurrence, an
    /// escaped text, a parameter and a non-ASCII character.
    /// The journal binds a hash's text written on the stack: it is the text `value` gives, for
    /// a SHA-256 with and without `raw:` and for any other text.
    @Test func aHashsTextOnTheStackIsItsValue() {
        let digest = ContentHash.of(Data("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8))
        let raw = ContentHash.of(Data("not a calendar".utf8))
        for hash in [digest, raw, ContentHash("made-up"), ContentHash("")] {
            #expect(hash.withText { String(decoding: $0, as: UTF8.self) } == hash.value)
        }
        #expect(raw.value.hasPrefix("raw:") && digest.value.count == 64)
    }

    @Test func theHashOfAKnownCalendarStaysTheSame() {
        let text = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//calgw tests//EN", "BEGIN:VEVENT", "UID:pinned@calgw.example",
            "DTSTAMP:20260101T000000Z", "DTSTART;TZID=Europe/Berlin:20260710T100000", "DURATION:PT1H30M",
            "RRULE:FREQ=WEEKLY;COUNT=4", "SUMMARY:Café\\, planning", "ATTENDEE;CN=Ann:mailto:ann@example.com",
            "END:VEVENT", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
        #expect(
            ContentHash.of(Data(text.utf8)).value == "6f5903ba582b16245dc7c71e996bb6270928e92167796991f1cac9d31100fecc")
    }

    /// The hash's text is built as bytes when every scalar is below U+0300 and as strings
    /// otherwise: both ways must give the same text, or journals would see changes that are not.
    @Test func bytesAndStringsNormaliseAlike() throws {
        let files = CorpusFiles.icsFiles()
        #expect(files.count > 20, "the shared corpora are missing")
        var viaBytes = 0, viaStrings = 0
        for url in files {
            guard let parsed = try? ICalendarParser().parse(Data(contentsOf: url)) else { continue }
            for component in parsed.components {
                var c = Canonicalizer().canonicalize(component)
                if c.name == "VCALENDAR" { TimeZoneCompletion.complete(&c) }
                guard let bytes = ContentHash.normalisedBytes(c) else { viaStrings += 1; continue }
                viaBytes += 1
                #expect(Data(bytes) == Data(ContentHash.normalisedLines(c).utf8), "\(CorpusFiles.name(of: url))")
            }
        }
        #expect(viaBytes > viaStrings)
        #expect(viaStrings > 0, "no corpus file has a scalar from U+0300 on: the strings' way is untested")
    }

    /// Most items are hashed straight from their parse, values made canonical as each line is
    /// written; the others by rewriting a copy of their tree. The two ways must give one hash,
    /// or journals would see changes that are not.
    @Test func theParsesWayHashesAsTheRewrittenTreesWay() throws {
        var straight = 0, rewritten = 0
        for url in CorpusFiles.icsFiles() {
            guard let parsed = try? ICalendarParser().parse(Data(contentsOf: url)), !parsed.components.isEmpty else {
                continue
            }
            guard let hash = ContentHash.ofParse(parsed.components) else {
                rewritten += 1
                continue
            }
            straight += 1
            #expect(hash == ContentHash.ofRewrittenTree(parsed.components), "\(CorpusFiles.name(of: url))")
        }
        #expect(straight > 20)
        #expect(rewritten > 0, "no corpus file needs its tree rewritten: that way is untested here")
    }

    /// Lines are ordered by their first eight bytes, then by the rest: lines that share their
    /// first eight bytes, lines shorter than eight, a line that is the start of another, and
    /// children alike sort as their text does.
    @Test func linesSharingTheirFirstEightBytesOrShorterSortAsTheirText() throws {
        let values = ["mailto:b@x", "mailto:a@x", "mailto:a", "", "1", "10", "1\\n", "0"]
        let event = Component(
            name: "VEVENT",
            properties: values.flatMap { [Property(name: "ATTENDEE", value: $0), Property(name: "X", value: $0)] }
                + [Property(name: "X-ABCDEFGH", value: "1"), Property(name: "X-ABCDEFG", value: "1")],
            components: [
                Component(name: "VALARM", properties: [Property(name: "TRIGGER", value: "-PT5M")]),
                Component(name: "VALARM", properties: [Property(name: "TRIGGER", value: "-PT15M")]),
                Component(name: "VALARM"),
            ])
        let bytes = try #require(ContentHash.normalisedBytes(event))
        #expect(Data(bytes) == Data(ContentHash.normalisedLines(event).utf8))
    }

    /// Lines whose bytes sort as their scalars do take the bytes' way; a combining mark, which
    /// sorts by canonical equivalence, the strings' way, and both hash alike to before.
    @Test func latinTextSortsAsBytesAndCombiningMarksAsStrings() throws {
        let latin = Component(
            name: "VEVENT",
            properties: [
                Property(name: "X-A", value: "z"), Property(name: "X-A", value: "é"),
                Property(name: "X-A", value: "ÿ\\, ok"),
                Property(name: "X-A", value: "e"),
                Property(name: "X-A", parameters: [Parameter("CN", "Zoë")], value: "a"),
                Property(name: "X-A", value: ""), Property(name: "X-AB", value: "a"), Property(name: "UID", value: "u"),
            ],
            components: [
                Component(name: "VALARM", properties: [Property(name: "ACTION", value: "DISPLAY")]),
                Component(name: "VALARM"),
            ])
        let bytes = try #require(ContentHash.normalisedBytes(latin))
        #expect(Data(bytes) == Data(ContentHash.normalisedLines(latin).utf8))
        let combining = Component(
            name: "VEVENT",
            properties: [Property(name: "SUMMARY", value: "e\u{301}"), Property(name: "SUMMARY", value: "f")])
        #expect(ContentHash.normalisedBytes(combining) == nil)
    }

    @Test func seesARealChange() {
        #expect(
            ContentHash.of(TestEvent.data(uid: "u1", summary: "A", duration: "PT1H"))
                != ContentHash.of(TestEvent.data(uid: "u1", summary: "B", duration: "PT1H")))
        #expect(
            ContentHash.of(TestEvent.data(uid: "u1", duration: "PT1H"))
                != ContentHash.of(TestEvent.data(uid: "u2", duration: "PT1H")))
    }

    /// What a scheduling server keeps on a meeting's people (SCHEDULE-STATUS) and the mark a
    /// copy carries for it (SCHEDULE-AGENT=CLIENT) do not count; an answer (PARTSTAT) does.
    @Test func schedulingParametersDoNotCountAnAnswerDoes() {
        func meeting(_ attendee: String, organizer: String = "ORGANIZER:mailto:a@x.example") -> Data {
            Data(
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:m\r\nDTSTART:20270301T100000Z\r\n\(organizer)\r\n\(attendee)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
                    .utf8)
        }
        let plain = ContentHash.of(meeting("ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:b@x.example"))
        #expect(
            ContentHash.of(meeting("ATTENDEE;PARTSTAT=NEEDS-ACTION;SCHEDULE-STATUS=1.2:mailto:b@x.example")) == plain)
        #expect(
            ContentHash.of(
                meeting(
                    "ATTENDEE;SCHEDULE-AGENT=CLIENT;PARTSTAT=NEEDS-ACTION:mailto:b@x.example",
                    organizer: "ORGANIZER;SCHEDULE-AGENT=CLIENT:mailto:a@x.example")) == plain)
        #expect(ContentHash.of(meeting("ATTENDEE;PARTSTAT=ACCEPTED:mailto:b@x.example")) != plain)
        // The upload form for a server that invites for copies marks both, and the hash agrees.
        let marked = UploadForm.canonical(
            meeting("ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:b@x.example"), clientScheduled: true)
        let text = String(decoding: marked, as: UTF8.self).replacingOccurrences(of: "\r\n ", with: "")
        #expect(text.contains("ORGANIZER;SCHEDULE-AGENT=CLIENT:") && text.contains("SCHEDULE-AGENT=CLIENT"), "\(text)")
        #expect(text.components(separatedBy: "SCHEDULE-AGENT=CLIENT").count - 1 == 2, "\(text)")
        #expect(ContentHash.of(marked) == plain)
        // A mark already there is left as it is.
        let server = UploadForm.canonical(
            meeting("ATTENDEE;SCHEDULE-AGENT=SERVER:mailto:b@x.example"), clientScheduled: true)
        #expect(String(decoding: server, as: UTF8.self).contains("SCHEDULE-AGENT=SERVER"))
    }

    @Test func unparseableDataIsHashedRaw() {
        let broken = Data("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nno colon here\r\n".utf8)
        let hash = ContentHash.of(broken)
        #expect(hash.value.hasPrefix("raw:"))
        #expect(hash != ContentHash.of(Data("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nother\r\n".utf8)))
        #expect(!ItemContent(broken).parses)
    }

    @Test func extractsUIDSequenceAndLastModified() {
        let content = ItemContent(
            TestEvent.data(
                uid: "abc@example.com", duration: "PT1H", lastModified: "20260102T030405Z", extra: ["SEQUENCE:4"]))
        #expect(content.uid == "abc@example.com")
        #expect(content.key == ItemKey("abc@example.com"))
        #expect(content.sequence == 4)
        #expect(content.lastModified == "20260102T030405Z")
    }

    @Test func uidLessObjectsGetAStableKeyFromTheirContent() {
        let a = ItemContent(TestEvent.data(uid: nil, summary: "x", duration: "PT1H"))
        let b = ItemContent(TestEvent.data(uid: nil, summary: "x", duration: "PT1H", prodid: "other"))
        #expect(a.uid == nil)
        #expect(a.key.isUIDLess)
        #expect(a.key == b.key)
        #expect(a.key != ItemContent(TestEvent.data(uid: nil, summary: "y", duration: "PT1H")).key)
    }

    @Test func timezonesDoNotGiveTheUID() {
        let text =
            "BEGIN:VCALENDAR\r\nBEGIN:VTIMEZONE\r\nTZID:X\r\nUID:tz\r\nEND:VTIMEZONE\r\nBEGIN:VEVENT\r\nUID:real\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        #expect(ItemContent(Data(text.utf8)).uid == "real")
    }

    /// A hash is held as its bytes when its text is canonical, and as text otherwise; either
    /// way its text is what it was made from, and two hashes are equal exactly when their
    /// texts are.
    @Test func aHashKeepsItsTextWhateverItHolds() throws {
        let data = Data("not iCalendar at all".utf8)
        let raw = ContentHash.of(data)
        #expect(raw.value == "raw:" + SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined())
        #expect(ContentHash(raw.value) == raw)
        let parsed = ContentHash.of(TestEvent.data(uid: "u1", summary: "x", duration: "PT1H"))
        #expect(parsed.value.utf8.count == 64 && parsed.value.utf8.allSatisfy { "0123456789abcdef".utf8.contains($0) })
        #expect(ContentHash(parsed.value) == parsed && ContentHash(parsed.value).hashValue == parsed.hashValue)
        #expect(ContentHash("raw:" + parsed.value) != parsed)

        let upper = parsed.value.uppercased()
        for text in ["", "h1", upper, String(parsed.value.dropLast()), parsed.value + "0", "raw:", "raw:" + upper] {
            #expect(ContentHash(text).value == text)
            #expect(ContentHash(text) != parsed)
        }
        var random = SeededRandom(seed: 5)
        for _ in 0..<1_000 {
            let text = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &random)) }.joined()
            let hash = ContentHash(text)
            #expect(hash.value == text && ContentHash("raw:" + text).value == "raw:" + text)
            var changed = Array(text.utf8)
            changed[Int.random(in: 0..<64, using: &random)] ^= 0x01  // another digit or a letter
            let other = String(decoding: changed, as: UTF8.self)
            #expect((ContentHash(other) == hash) == (other == text))
        }
        let json = try JSONEncoder().encode(parsed)
        #expect(String(decoding: json, as: UTF8.self) == "{\"value\":\"\(parsed.value)\"}")
        #expect(try JSONDecoder().decode(ContentHash.self, from: json) == parsed)
    }

    @Test func hexIsTwoLowercaseDigitsPerByte() {
        let bytes = (0...255).map(UInt8.init)
        #expect(ContentHash.hex(bytes) == bytes.map { String(format: "%02x", $0) }.joined())
        #expect(ContentHash.hex([UInt8]()) == "")
    }

    @Test func lineEndsComeBackAsCRLF() {
        func restored(_ text: String) -> String {
            String(decoding: LineEnds.restoringCRLF(Data(text.utf8)), as: UTF8.self)
        }
        #expect(restored("A:1\nB:2\n") == "A:1\r\nB:2\r\n")
        #expect(restored("A:1\r\nB:2\r\n") == "A:1\r\nB:2\r\n")
        #expect(restored("A:1\rB:2\r") == "A:1\r\nB:2\r\n")
        #expect(restored("A:1\r\n\nB:2") == "A:1\r\n\r\nB:2")
        #expect(restored("A:1\r\rB:é") == "A:1\r\n\r\nB:é")
        #expect(restored("no line end") == "no line end")
        #expect(restored("") == "")
        #expect(restored("\n\nA:é\nB") == "\r\n\r\nA:é\r\nB")
        let long = (0..<500).map { "LINE-\($0):\(String(repeating: "x", count: $0 % 90))" }
        #expect(restored(long.joined(separator: "\n") + "\n") == long.joined(separator: "\r\n") + "\r\n")
    }
}

/// A first sync parses and hashes its items on every core; the result is item for item what
/// one core makes, whatever the count (the chunks must cover every index once).
@Suite struct ParallelContentTests {
    @Test(arguments: [0, 1, 63, 64, 65, 97, 1000])
    func parallelContentsMatchSerialOnes(count: Int) {
        let items = (0..<count).map { i in
            StoredItem(
                version: ItemVersion(href: "\(i).ics", etag: "e\(i)"),
                data: i % 7 == 3
                    ? Data("not a calendar \(i)".utf8)
                    : TestEvent.data(uid: "u\(i)", summary: "item \(i)", duration: "PT1H"))
        }
        let parallel = SideScanner.contents(of: items)
        #expect(parallel == items.map { ItemContent($0.data) })
    }

    static func zoned(_ tzid: String, uid: String = "tz1", summary: String = "Meeting") -> Data {
        Data(
            [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//calgw tests//EN", "BEGIN:VEVENT", "UID:\(uid)",
                "DTSTAMP:20260101T000000Z",
                "DTSTART;TZID=\(tzid):20260710T100000", "DTEND;TZID=\(tzid):20260710T110000",
                "EXDATE;TZID=\(tzid):20260717T100000",
                "RRULE:FREQ=WEEKLY;COUNT=4", "SUMMARY:\(summary)", "END:VEVENT", "END:VCALENDAR", "",
            ].joined(separator: "\r\n").utf8)
    }

    /// The upload form adds a VTIMEZONE (and maps a Windows name to IANA) that the vdir file
    /// lacks: both copies hash alike, so the next run sees nothing changed on either side.
    @Test(arguments: [
        "Europe/Berlin", "W. Europe Standard Time", "/mozilla.org/20050126_1/Europe/Berlin", "Asia/Tokyo",
    ])
    func aFileWithoutItsVTimeZoneHashesAsItsUploadForm(_ tzid: String) throws {
        let file = Self.zoned(tzid)
        let uploaded = UploadForm.canonical(file)
        let text = String(decoding: uploaded, as: UTF8.self)
        #expect(text.contains("BEGIN:VTIMEZONE"), "\(text)")
        #expect(!text.contains("Standard Time:") && !text.contains("mozilla"), "\(text)")
        #expect(ContentHash.of(file) == ContentHash.of(uploaded))
        #expect(ContentHash.of(file) != ContentHash.of(Self.zoned(tzid, summary: "Other")))
        #expect(ContentHash.of(file) != ContentHash.of(Self.zoned("Asia/Kolkata")))
    }

    @Test func theUploadFormKeepsAZoneTheFileDefines() throws {
        let file = Data(
            String(decoding: Self.zoned("My Zone"), as: UTF8.self).replacingOccurrences(
                of: "BEGIN:VEVENT",
                with: """
                    BEGIN:VTIMEZONE\r
                    TZID:My Zone\r
                    BEGIN:STANDARD\r
                    DTSTART:19700101T000000\r
                    TZOFFSETFROM:+0300\r
                    TZOFFSETTO:+0300\r
                    END:STANDARD\r
                    END:VTIMEZONE\r
                    BEGIN:VEVENT
                    """
            ).utf8)
        let uploaded = try #require(try ICalendarParser().parse(UploadForm.canonical(file)).calendar)
        #expect(uploaded.components.map(\.name) == ["VTIMEZONE", "VEVENT"])
        #expect(
            uploaded.components[0]["TZOFFSETTO"] == nil
                && uploaded.components[0].components[0]["TZOFFSETTO"]?.value == "+0300")
        #expect(uploaded.components[1]["DTSTART"]?.tzid == "My Zone")
        // A custom name with no definition goes as it is too: the server answers for it.
        let unknown = Self.zoned("Nowhere Standard")
        #expect(!String(decoding: UploadForm.canonical(unknown), as: UTF8.self).contains("VTIMEZONE"))
    }
}

/// Two items with one digest of their bytes must parse alike: a first pull takes one for the
/// other without parsing it.
@Suite struct BytesDigestTests {
    func digest(_ text: String) -> BytesDigest { BytesDigest(Data(text.utf8)) }

    @Test func readsCRLFAsLF() {
        #expect(digest("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n") == digest("BEGIN:VCALENDAR\nEND:VCALENDAR\n"))
        #expect(digest("a\r\nb\r\n") == digest("a\nb\r\n"))
    }

    /// A CR that ends no line is kept (the parser keeps it in the value), as is all else.
    @Test func keepsEveryOtherByte() {
        #expect(digest("a\rb\n") != digest("ab\n"))
        #expect(digest("a\r\r\n") != digest("a\r\n"))
        #expect(digest("a\n") != digest("a"))
        #expect(digest("SUMMARY:x\r\n") != digest("SUMMARY:y\r\n"))
        #expect(digest("a\r") != digest("a"))
    }

    /// Whatever the digest takes as one, the parser reads as one.
    @Test func bytesWithOneDigestParseAlike() {
        let crlf = TestEvent.ics(uid: "u", summary: "caf\u{E9}", extra: ["DESCRIPTION:a\rb"])
        let lf = crlf.replacingOccurrences(of: "\r\n", with: "\n")
        #expect(digest(crlf) == digest(lf))
        let a = ItemContent(Data(crlf.utf8)), b = ItemContent(Data(lf.utf8))
        #expect(a.hash == b.hash && a.key == b.key && a.span == b.span)
    }
}

/// The one pass over a value the hash's writer makes: it finds what `mayNeedEscaping` finds,
/// and calls a value ASCII only when it is.
@Suite struct ValueScanTests {
    @Test func aScanFindsWhatTheByteChecksFind() {
        let alphabet: [UInt8] = Array("aZ09 :=-\"\\;,\t".utf8) + [0x0D, 0x0A, 0x7F, 0x80, 0xC3, 0xA9, 0xCC, 0xFF]
        var random = SystemRandomNumberGenerator()
        var escaping = 0, ascii = 0
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...40, using: &random)
            // Mostly letters, so that long runs without a special byte come up too.
            let value = (0..<count).map { _ in
                Bool.random(using: &random) ? UInt8(ascii: "x") : alphabet.randomElement(using: &random)!
            }
            value.withUnsafeBufferPointer { value in
                let scan = ByteBuffer.scanValue(value)
                #expect(scan.mayNeedEscaping == ByteBuffer.mayNeedEscaping(value), "\(Array(value))")
                if !scan.mayNeedEscaping {
                    #expect(scan.isKnownASCII == value.allSatisfy { $0 < 0x80 }, "\(Array(value))")
                }
                if scan.mayNeedEscaping { escaping += 1 }
                if scan.isKnownASCII { ascii += 1 }
            }
        }
        #expect(escaping > 1_000 && ascii > 1_000)
    }
}
