import Foundation
import Testing
import CalgwTestSupport
@testable import ICalendar

/// Plain parameters are read straight into their canonical text: it must be what the full
/// reading makes of them, and what encoding the parameters gives.
@Suite struct PlainParametersTests {
    func read(_ line: String, plain: Bool) throws -> ContentLineReader.Result {
        var line = line
        return try line.withUTF8 { try ContentLineReader.read($0, lineNumber: 1, readsPlainParameters: plain) }
    }

    @Test(arguments: [
        "DTSTART;TZID=Europe/Berlin:20260101T100000",
        "DTSTART;VALUE=DATE:20260101",
        #"ATTENDEE;CN="Ada Lovelace";ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=TRUE:mailto:ada@x"#,
        #"ATTENDEE;cn="Doe, Jane";x-list=a,b,"c;d":mailto:j@x"#,
        #"X-A;X-P="":v"#,
        "X-A;X-P=:v",
        #"X-A;X-P="a\b":v"#,
        #"X-A;X-P="a:b",c:v"#,
        // Not plain: read the full way, to the same result.
        #"X-A;X-P=a\;b:v"#,
        #"X-A;X-P="a^nb":v"#,
        #"X-A;X-P="Zoë":v"#,
        #"X-A;X-P="a"b:v"#,
        #"ATTENDEE;SENT-BY="mailto:b@x":mailto:a@x"#,
        "X-A;;X-P=1:v",
        "X-A;X-P:v",
        "X-A;=1:v",
    ])
    func plainParametersReadAsTheFullReadingDoes(line: String) throws {
        let plain = try read(line, plain: true)
        let full = try read(line, plain: false)
        #expect(plain.property == full.property)
        #expect(plain.property.parameterText == full.property.parameterText)
        #expect(plain.hadLowercase == full.hadLowercase)
    }

    @Test func everyCorpusParameterTextIsCanonical() throws {
        var checked = 0
        for url in CorpusFiles.icsFiles() {
            guard let parsed = try? ICalendarParser().parse(Data(contentsOf: url)) else { continue }
            func walk(_ c: Component) {
                for p in c.properties where !p.parameterText.isEmpty {
                    checked += 1
                    #expect(ParameterText.encode(p.parameters) == p.parameterText, "\(url.lastPathComponent)")
                }
                c.components.forEach(walk)
            }
            parsed.components.forEach(walk)
        }
        #expect(checked > 100)
    }
}
