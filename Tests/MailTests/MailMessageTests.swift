import Foundation
import Mail
import Testing

/// The shapes of mail the corpus does not hold, each read as RFC 5322 and MIME say.
@Suite struct MailMessageTests {
    func mail(_ text: String) -> Data { Data(text.replacingOccurrences(of: "\n", with: "\r\n").utf8) }

    @Test func headersAreUnfoldedDecodedAndMatchedWithoutCase() throws {
        let message = try MailMessage.parse(
            mail(
                """
                FROM: =?iso-8859-1?Q?Andr=E9?= <andre@example.com>
                subject: =?utf-8?B?UsOpdW5pb24=?=
                  =?utf-8?Q?_d=C3=A9cal=C3=A9e?= now
                Cc: "Lee, Ann" <ann@example.com>,
                \tbob@example.com
                Message-Id: <id@example.com>
                Content-Type: text/calendar; method=cancel

                BEGIN:VCALENDAR
                END:VCALENDAR
                """))
        #expect(message.from == MailAddress(address: "andre@example.com", name: "André"))
        #expect(message.subject == "Réunion décalée now")
        #expect(message.to.map(\.address) == ["ann@example.com", "bob@example.com"])
        #expect(message.messageID == "<id@example.com>")
        #expect(message.header("CONTENT-TYPE") == "text/calendar; method=cancel")
        #expect(message.calendarPart?.method == "CANCEL")
    }

    @Test func latin1AndWindows1252CalendarPartsAreDecoded() throws {
        var bytes = Array(
            "From: a@example.com\r\nContent-Type: text/calendar; charset=\"windows-1252\"\r\n\r\nSUMMARY:".utf8)
        bytes += [0x93, 0x43, 0x61, 0x66, 0xE9, 0x94, 0x20, 0x80]
        #expect(try MailMessage.parse(Data(bytes)).calendarPart?.text == "SUMMARY:“Café” €")
        bytes =
            Array("From: a@example.com\r\nContent-Type: text/calendar; charset=ISO-8859-1\r\n\r\nSUMMARY:".utf8) + [
                0xE9
            ]
        #expect(try MailMessage.parse(Data(bytes)).calendarPart?.text == "SUMMARY:é")
    }

    @Test func aBareCalendarAfterAByteOrderMarkIsOneInlinePart() throws {
        let data = Data([0xEF, 0xBB, 0xBF] + Array("\r\n begin:VCALENDAR\r\nMETHOD:REPLY\r\nEND:VCALENDAR\r\n".utf8))
        let message = try MailMessage.parse(data)
        #expect(message.calendarParts.count == 1)
        #expect(message.calendarPart?.text == "begin:VCALENDAR\r\nMETHOD:REPLY\r\nEND:VCALENDAR\r\n")
        #expect(message.calendarPart?.method == nil)
        #expect(message.from == nil && message.to.isEmpty && message.subject == nil)
    }

    @Test func partsAreFoundInTreeOrderThroughNestingAndAttachedMessages() throws {
        let message = try MailMessage.parse(
            mail(
                """
                From: a@example.com
                Content-Type: multipart/mixed; boundary="outer"

                preamble, ignored
                --outer
                Content-Type: multipart/related; boundary="related"

                --related
                Content-Type: multipart/alternative; boundary="alt"

                --alt
                Content-Type: text/html

                <p>hi</p>
                --alt
                Content-Type: text/calendar; method=REQUEST
                Content-Transfer-Encoding: quoted-printable

                SUMMARY:caf=C3=A9 long=
                 line
                --alt--
                --related--
                --outer
                Content-Type: application/ics; name="invite.ics"
                Content-Transfer-Encoding: base64

                U1VNTUFSWTpzZWNvbmQ=
                --outer
                Content-Type: message/rfc822

                From: b@example.com
                Content-Type: text/calendar; method=REPLY

                SUMMARY:forwarded
                --outer--
                epilogue, ignored
                """))
        #expect(message.calendarParts.map(\.text) == ["SUMMARY:café long line", "SUMMARY:second", "SUMMARY:forwarded"])
        #expect(message.calendarParts.map(\.method) == ["REQUEST", nil, "REPLY"])
        #expect(message.calendarParts.map(\.isAttachment) == [false, true, false])
    }

    @Test func anAttachmentIsChosenOnlyWhenNoPartIsInline() throws {
        let message = try MailMessage.parse(
            mail(
                """
                From: a@example.com
                Content-Type: multipart/mixed; boundary=b

                --b
                Content-Type: text/plain

                see attached
                --b
                Content-Type: text/calendar
                Content-Disposition: attachment; filename="event.ics"

                SUMMARY:attached
                --b--
                """))
        #expect(message.calendarPart?.text == "SUMMARY:attached")
        #expect(message.calendarPart?.filename == "event.ics")
    }

    /// RFC 2231 file names, as Apple Mail and Thunderbird write non-ASCII and long ones: an
    /// extended value in its charset, and continuations joined in order (out of order in the mail).
    @Test func rfc2231FileNamesAreDecodedAndJoined() throws {
        let message = try MailMessage.parse(
            mail(
                """
                From: a@example.com
                Content-Type: multipart/mixed; boundary=b

                --b
                Content-Type: application/ics
                Content-Disposition: attachment; filename*=utf-8''Einladung%20%E2%82%AC.ics

                BEGIN:VCALENDAR
                END:VCALENDAR
                --b
                Content-Type: text/calendar; method=REQUEST;
                 name*1*=%E9union.ics; name*0*=iso-8859-1'fr'R
                Content-Disposition: attachment

                BEGIN:VCALENDAR
                END:VCALENDAR
                --b--
                """))
        #expect(message.calendarParts.map(\.filename) == ["Einladung €.ics", "Réunion.ics"])
    }

    @Test func aMailWithoutCalendarHasNoCalendarPart() throws {
        let message = try MailMessage.parse(mail("From: a@example.com\nSubject: hello\n\nJust text.\n"))
        #expect(message.calendarParts.isEmpty)
        #expect(message.calendarPart == nil)
    }
}
