import Foundation
import Mail
import Testing

/// Malformed and oversized mail ends in a ``MailError`` that names the problem, never a crash
/// or a guess.
@Suite struct HostileMailTests {
    static let calendar =
        "BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:u1\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"

    func mail(_ text: String) -> Data { Data(text.replacingOccurrences(of: "\n", with: "\r\n").utf8) }

    func code(_ data: Data, limits: MailLimits = MailLimits()) -> MailError.Code? {
        do {
            _ = try MailMessage.parse(data, limits: limits)
            return nil
        } catch let error as MailError {
            #expect(!error.message.isEmpty)
            return error.code
        } catch {
            Issue.record("not a MailError: \(error)")
            return nil
        }
    }

    @Test func aMultipartCutShortIsTruncated() {
        let data = mail(
            """
            From: a@example.com
            Content-Type: multipart/mixed; boundary="b1"

            --b1
            Content-Type: text/calendar; method=REQUEST

            BEGIN:VCALENDAR
            METHOD:REQUEST
            """)
        #expect(code(data) == .truncatedMultipart)
    }

    @Test func aMultipartWithoutBoundaryParameterIsRefused() {
        let data = mail("From: a@example.com\nContent-Type: multipart/alternative\n\n--x\n\nhello\n--x--\n")
        #expect(code(data) == .missingBoundary)
    }

    @Test func aBoundaryThatNeverAppearsIsRefused() {
        let data = mail(
            "From: a@example.com\nContent-Type: multipart/alternative; boundary=zz\n\n--x\n\nhello\n--x--\n")
        #expect(code(data) == .missingBoundary)
    }

    @Test func aHugeHeaderLineIsRefused() {
        let long = String(repeating: "x", count: 70_000)
        #expect(code(mail("From: a@example.com\nSubject: \(long)\n\nbody\n")) == .headerLineTooLong)
        let limits = MailLimits(maximumHeaderLineLength: 100)
        #expect(
            code(mail("From: a@example.com\nSubject: \(String(repeating: "y", count: 200))\n\nbody\n"), limits: limits)
                == .headerLineTooLong)
    }

    @Test func tooManyHeaderFieldsAreRefused() {
        let fields = (0..<1_001).map { "X-Field-\($0): v" }.joined(separator: "\n")
        #expect(code(mail("From: a@example.com\n\(fields)\n\nbody\n")) == .tooManyHeaders)
    }

    @Test func deepNestingIsRefused() {
        var text = "From: a@example.com\n"
        for level in 0..<30 { text += "Content-Type: multipart/mixed; boundary=\"b\(level)\"\n\n--b\(level)\n" }
        text += "Content-Type: text/plain\n\nhi\n"
        for level in (0..<30).reversed() { text += "--b\(level)--\n" }
        #expect(code(mail(text)) == .nestedTooDeep)
        #expect(code(mail(text), limits: MailLimits(maximumDepth: 40)) == nil)
    }

    @Test func tooManyPartsAreRefused() {
        let parts = (0..<600).map { _ in "--b\nContent-Type: text/plain\n\nhi\n" }.joined()
        let text = "From: a@example.com\nContent-Type: multipart/mixed; boundary=b\n\n\(parts)--b--\n"
        #expect(code(mail(text)) == .tooManyParts)
    }

    @Test func anOversizedMessageIsRefusedBeforeItIsRead() {
        let data = mail("From: a@example.com\n\n" + String(repeating: "z", count: 2_000))
        #expect(code(data, limits: MailLimits(maximumSize: 1_000)) == .tooLarge)
    }

    @Test func badBase64InTheCalendarPartIsRefused() {
        let data = mail(
            """
            From: a@example.com
            Content-Type: text/calendar; method=REQUEST; charset=utf-8
            Content-Transfer-Encoding: base64

            QkVHSU46VkNBTEVOREFS*!!notbase64
            """)
        #expect(code(data) == .badTransferEncoding)
        let cut = mail("From: a@example.com\nContent-Type: text/calendar\nContent-Transfer-Encoding: base64\n\nQkVHS\n")
        #expect(code(cut) == .badTransferEncoding)
    }

    @Test func badBase64OutsideTheCalendarPartDoesNotStopTheReading() throws {
        let data = mail(
            """
            From: a@example.com
            Content-Type: multipart/mixed; boundary=b

            --b
            Content-Type: image/png
            Content-Transfer-Encoding: base64

            ***not base64***
            --b
            Content-Type: text/calendar; method=REQUEST

            \(Self.calendar)--b--
            """)
        let message = try MailMessage.parse(data)
        #expect(message.calendarParts.count == 1)
    }

    @Test func anUnknownCharsetOnTheCalendarPartIsNamed() {
        let data = mail("From: a@example.com\nContent-Type: text/calendar; charset=koi8-r\n\n\(Self.calendar)")
        do {
            _ = try MailMessage.parse(data)
            Issue.record("koi8-r was read")
        } catch let error as MailError {
            #expect(error.code == .unsupportedCharset)
            #expect(error.message.contains("koi8-r"))
        } catch {
            Issue.record("not a MailError: \(error)")
        }
    }

    @Test func inputThatIsNeitherMailNorCalendarIsRefused() {
        #expect(code(Data()) == .notAMessage)
        #expect(code(Data("just some words\nand more\n".utf8)) == .notAMessage)
    }

    @Test func randomBytesNeverCrash() {
        var generator = SystemRandomNumberGenerator()
        let seed = UInt64.random(in: 0...UInt64.max, using: &generator)
        var state = seed
        for _ in 0..<200 {
            var bytes = Array("From: a@example.com\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n".utf8)
            for _ in 0..<500 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let pick = Int(state >> 58)
                let pieces = [
                    "--b\r\n", "--b--\r\n", "Content-Type: text/calendar\r\n", "Content-Transfer-Encoding: base64\r\n",
                    "\r\n", "=\r\n", "=?utf-8?B?", "QUJD", " ", "\u{00}",
                ]
                bytes += Array(pieces[pick % pieces.count].utf8)
            }
            do { _ = try MailMessage.parse(Data(bytes)) } catch is MailError {} catch {
                Issue.record("seed \(seed): not a MailError: \(error)")
            }
        }
    }
}
