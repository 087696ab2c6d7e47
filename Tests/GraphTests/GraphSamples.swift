import Foundation
import ICalendar
import Recurrence

@testable import Graph

/// JSON as Graph's documentation shows it (microsoft-graph-docs-contrib: calendar.md, event-delta.md,
/// calendar-post-events.md), elisions filled in, and helpers.
enum GraphSamples {
    /// The first page of a delta round (docs: concepts/delta-query-events.md).
    static let deltaFirstPage = """
        {"@odata.nextLink":"https://graph.microsoft.com/v1.0/me/calendarView/delta?$skiptoken=R0usmcCM996atia_s",
         "value":[{"@odata.type":"#microsoft.graph.event","@odata.etag":"W/\\"EZ9r3czxY0m2jz8c45czkwAAFXcvIQ==\\"",
                   "subject":"Plan shopping list","body":{"contentType":"html","content":""},
                   "start":{"dateTime":"2016-12-09T20:30:00.0000000","timeZone":"UTC"},
                   "end":{"dateTime":"2016-12-09T22:00:00.0000000","timeZone":"UTC"},
                   "type":"singleInstance","id":"AAMkADNVxRAAA="}]}
        """

    /// The last page of a later round: a removal and a full event.
    static let deltaLastPage = """
        {"@odata.deltaLink":"https://graph.microsoft.com/v1.0/me/calendarView/delta?$deltatoken=R0usmcFuQtZdtpk4",
         "value":[{"@odata.type":"#microsoft.graph.event","id":"AAMkADk0MGFkODE3LWE4MmYtNDRhOS04OGUzLWI3YjM3NTc1ZAAA=",
                   "@removed":{"reason":"deleted"}},
                  {"@odata.type":"#microsoft.graph.event","id":"AAMkADNVxRAAB=","subject":"Lunch",
                   "start":{"dateTime":"2016-12-10T12:00:00.0000000","timeZone":"UTC"},
                   "end":{"dateTime":"2016-12-10T13:00:00.0000000","timeZone":"UTC"}}]}
        """

    /// The answer to a create (docs: api-reference/v1.0/api/calendar-post-events.md), with
    /// fields calgw does not read.
    static let created = """
        {"@odata.context":"https://graph.microsoft.com/v1.0/$metadata#users('cd209b0b')/calendars('AAMkAGI2TGuLAAA=')/events/$entity",
         "@odata.etag":"W/\\"/IUUrIl3PkG1JCSsPfU+8wAAGXjEpA==\\"","id":"AAMkAGI2TGuLAAA=",
         "createdDateTime":"2019-03-15T00:52:54.1418564Z","lastModifiedDateTime":"2019-03-15T00:52:54.4024574Z",
         "changeKey":"/IUUrIl3PkG1JCSsPfU+8wAAGXjEpA==","categories":[],"transactionId":"7E163156-7762-4BEB-A1C6-729EA81755A7",
         "originalStartTimeZone":"Pacific Standard Time","originalEndTimeZone":"Pacific Standard Time",
         "iCalUId":"040000008200E00074C5B7101A82E00800000000D8A0D3C8D4DAD401000000000000000010000000",
         "reminderMinutesBeforeStart":15,"isReminderOn":true,"hasAttachments":false,"subject":"Let's go for lunch",
         "bodyPreview":"Does noon work for you?","importance":"normal","sensitivity":"normal","isAllDay":false,
         "isCancelled":false,"isOrganizer":true,"responseRequested":true,"seriesMasterId":null,"showAs":"busy",
         "type":"singleInstance","webLink":"https://outlook.office365.com/owa/?itemid=AAMkAGI2TGuLAAA%3D&exvsurl=1&path=/calendar/item",
         "onlineMeetingUrl":null,"isOnlineMeeting":false,"onlineMeetingProvider":"unknown","allowNewTimeProposals":true,
         "isDraft":false,"hideAttendees":false,
         "responseStatus":{"response":"organizer","time":"0001-01-01T00:00:00Z"},
         "body":{"contentType":"html","content":"<html>\\r\\n<head>\\r\\n<meta http-equiv=\\"Content-Type\\" content=\\"text/html; charset=utf-8\\">\\r\\n<style type=\\"text/css\\">p {margin:0}</style>\\r\\n</head>\\r\\n<body>\\r\\nDoes noon work for you?<br>Bring &amp; share.\\r\\n</body>\\r\\n</html>\\r\\n"},
         "start":{"dateTime":"2019-03-15T12:00:00.0000000","timeZone":"Pacific Standard Time"},
         "end":{"dateTime":"2019-03-15T14:00:00.0000000","timeZone":"Pacific Standard Time"},
         "location":{"displayName":"Harry's Bar","locationType":"default","uniqueId":"Harry's Bar","uniqueIdType":"private"},
         "locations":[{"displayName":"Harry's Bar","locationType":"default","uniqueIdType":"unknown"}],
         "recurrence":null,
         "attendees":[{"type":"required","status":{"response":"none","time":"0001-01-01T00:00:00Z"},
                       "emailAddress":{"name":"Adele Vance","address":"adelev@contoso.onmicrosoft.com"}}],
         "organizer":{"emailAddress":{"name":"Megan Bowen","address":"meganb@contoso.onmicrosoft.com"}},
         "onlineMeeting":null}
        """

    /// The calendars of a mailbox (docs: api-reference/v1.0/resources/calendar.md).
    static let calendars = """
        {"value":[{"id":"AQMkADU5NAAAJMjAAAAA==","name":"Calendar","color":"auto","changeKey":"NDznl+Uh50WkanaVZDXXQ==",
          "canShare":true,"canViewPrivateItems":true,"canEdit":true,"hexColor":"","isDefaultCalendar":true,
          "allowedOnlineMeetingProviders":["teamsForBusiness"],"defaultOnlineMeetingProvider":"teamsForBusiness",
          "owner":{"name":"Adele Vance","address":"AdeleV@contoso.onmicrosoft.com"}},
         {"id":"AAMkADAABf0JlyAAA=","name":"Kids parties","color":"lightYellow","canShare":false,
          "canViewPrivateItems":false,"canEdit":false,"owner":{"name":"Alex Wilber","address":"AlexW@contoso.onmicrosoft.com"}}]}
        """

    /// A series master read in UTC (`Prefer: outlook.timezone="UTC"`), made in Berlin, with its
    /// cancelled occurrence and exception `$select`ed and `$expand`ed, in the shape
    /// martin-machacek.com's post on `cancelledOccurrences` shows: every Thursday at 11:30 Berlin time, from 2025-05-01, ten times;
    /// the 29th cancelled, the 22nd moved to Wednesday the 21st.
    static let seriesMaster = """
        {"@odata.etag":"W/\\"DwAAABYAAAA=\\"","id":"AAMkMASTER=","iCalUId":"040000008200E00074C5B7101A82E0080000000001",
         "changeKey":"DwAAABYAAAA=","subject":"Weekly sync","type":"seriesMaster","isAllDay":false,
         "originalStartTimeZone":"W. Europe Standard Time","originalEndTimeZone":"W. Europe Standard Time",
         "start":{"dateTime":"2025-05-01T09:30:00.0000000","timeZone":"UTC"},
         "end":{"dateTime":"2025-05-01T10:00:00.0000000","timeZone":"UTC"},
         "isReminderOn":true,"reminderMinutesBeforeStart":10,"showAs":"busy","sensitivity":"normal",
         "recurrence":{"pattern":{"type":"weekly","interval":1,"month":0,"dayOfMonth":0,"daysOfWeek":["thursday"],
                                  "firstDayOfWeek":"monday","index":"first"},
                       "range":{"type":"numbered","startDate":"2025-05-01","endDate":"0001-01-01",
                                "recurrenceTimeZone":"W. Europe Standard Time","numberOfOccurrences":10}},
         "cancelledOccurrences":["OID.AAMkMASTER=.2025-05-29"],
         "exceptionOccurrences":[{"id":"AAMkEXC=","type":"exception","seriesMasterId":"AAMkMASTER=",
            "subject":"Weekly sync (moved)","originalStart":"2025-05-22T09:30:00Z",
            "originalStartTimeZone":"W. Europe Standard Time","originalEndTimeZone":"W. Europe Standard Time",
            "start":{"dateTime":"2025-05-21T12:00:00.0000000","timeZone":"UTC"},
            "end":{"dateTime":"2025-05-21T12:30:00.0000000","timeZone":"UTC"},
            "isReminderOn":true,"reminderMinutesBeforeStart":10,"showAs":"busy","sensitivity":"normal"}]}
        """

    static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// A fixed "now", so generated VTIMEZONEs and DTSTAMPs are the same every run.
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    /// The start instants of a calendar's occurrences from 2024 to 2032, by calgw's expander.
    static func starts(_ calendar: Component) -> [Int64] {
        let from = LocalDateTime(year: 2024, month: 1, day: 1).secondsSinceEpoch
        let to = LocalDateTime(year: 2032, month: 1, day: 1).secondsSinceEpoch
        return CalendarExpansion(calendar: calendar).occurrences(from: from, to: to).map(\.startInstant)
    }

    /// The occurrences' start values (zone or date form), by calgw's expander.
    static func startValues(_ calendar: Component) -> [DateTimeValue] {
        let from = LocalDateTime(year: 2024, month: 1, day: 1).secondsSinceEpoch
        let to = LocalDateTime(year: 2032, month: 1, day: 1).secondsSinceEpoch
        return CalendarExpansion(calendar: calendar).occurrences(from: from, to: to).map(\.start)
    }

    static func parse(_ text: String) throws -> Component {
        try ICalendarParser().parse(text).calendar!
    }

    /// A VCALENDAR of one VEVENT with these lines (CRLF added).
    static func calendar(_ lines: [String], extra: [String] = []) -> String {
        ([
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//calgw//calgw//EN", "BEGIN:VEVENT", "UID:series-1@calgw",
            "DTSTAMP:20250101T000000Z",
        ] + lines + ["END:VEVENT"] + extra + ["END:VCALENDAR", ""])
        .joined(separator: "\r\n")
    }
}
