import Foundation
import ICalendar
import Testing

@testable import Graph

@Suite struct GraphDecodingTests {
    @Test func deltaPagesDecodeWithLinksAndRemovals() throws {
        let first = try GraphSamples.decode(GraphDeltaPage.self, GraphSamples.deltaFirstPage)
        #expect(first.nextLink?.hasSuffix("$skiptoken=R0usmcCM996atia_s") == true)
        #expect(first.deltaLink == nil)
        #expect(first.value.count == 1)
        #expect(first.value[0].etag == "W/\"EZ9r3czxY0m2jz8c45czkwAAFXcvIQ==\"")
        #expect(first.value[0].start?.local == LocalDateTime(year: 2016, month: 12, day: 9, hour: 20, minute: 30))

        let last = try GraphSamples.decode(GraphDeltaPage.self, GraphSamples.deltaLastPage)
        #expect(last.nextLink == nil)
        #expect(last.deltaLink?.hasSuffix("$deltatoken=R0usmcFuQtZdtpk4") == true)
        #expect(last.value[0].removed == GraphRemoved(reason: "deleted"))
        #expect(last.value[0].subject == nil)
        #expect(last.value[1].removed == nil)
        #expect(last.value[1].subject == "Lunch")
    }

    @Test func unknownFieldsAreIgnoredAndKnownOnesRead() throws {
        let event = try GraphSamples.decode(GraphEvent.self, GraphSamples.created)
        #expect(event.id == "AAMkAGI2TGuLAAA=")
        #expect(event.changeKey == "/IUUrIl3PkG1JCSsPfU+8wAAGXjEpA==")
        #expect(event.etag == "W/\"/IUUrIl3PkG1JCSsPfU+8wAAGXjEpA==\"")
        #expect(event.type == .singleInstance)
        #expect(event.showAs == .busy)
        #expect(event.importance == .normal)
        #expect(event.body?.contentType == .html)
        #expect(event.attendees?.first?.status?.response == GraphResponse.none)
        #expect(event.attendees?.first?.type == .required)
        #expect(event.responseStatus?.response == .organizer)
        #expect(event.transactionId == "7E163156-7762-4BEB-A1C6-729EA81755A7")
        #expect(event.recurrence == nil)
        #expect(event.seriesMasterId == nil)
        #expect(event.locations?.first?.displayName == "Harry's Bar")
        #expect(GraphTimestamp(parsing: event.createdDateTime!)?.instant == 1_552_611_174)
    }

    @Test func keywordsMatchWhateverTheirCaseAndKeepUnknownValues() throws {
        let json = """
            {"body":{"contentType":"HTML","content":"x"},"start":{"dateTime":"2026-01-01T10:00:00","timeZone":"UTC"},"showAs":"somethingNew","type":"SeriesMaster",
             "recurrence":{"pattern":{"type":"fortnightly","interval":1},"range":{"type":"noEnd","startDate":"2026-01-01"}}}
            """
        let event = try GraphSamples.decode(GraphEvent.self, json)
        #expect(event.body?.contentType == .html)
        #expect(event.body?.contentType?.rawValue == "html")
        #expect(event.type == .seriesMaster)
        #expect(event.showAs?.rawValue == "somethingNew")
        #expect(event.showAs?.isKnown == false)
        #expect(event.recurrence?.pattern.type.rawValue == "fortnightly")
        #expect(throws: GraphMappingError.self) { try event.iCalendar(at: GraphSamples.now) }
    }

    @Test(arguments: [
        ("2019-03-15T12:00:00.0000000", LocalDateTime(year: 2019, month: 3, day: 15, hour: 12), nil as Int?),
        ("2019-03-15T12:00:00", LocalDateTime(year: 2019, month: 3, day: 15, hour: 12), nil),
        (
            "2017-08-29T22:50:41.9406187Z",
            LocalDateTime(year: 2017, month: 8, day: 29, hour: 22, minute: 50, second: 41), 0
        ),
        ("2025-05-28T09:30:00+02:00", LocalDateTime(year: 2025, month: 5, day: 28, hour: 9, minute: 30), 7200),
    ])
    func dateTimesWithSevenFractionalDigitsParse(_ text: String, _ local: LocalDateTime, _ offset: Int?) throws {
        let parsed = try #require(GraphTimestamp(parsing: text))
        #expect(parsed.local == local)
        #expect(parsed.offset == offset)
    }

    @Test(arguments: ["", "2019-03-15", "2019-13-15T12:00:00", "2019-03-15T12:00:00.000Q", "tomorrow at noon"])
    func textsThatAreNotDateTimesAreRefused(_ text: String) {
        #expect(GraphTimestamp(parsing: text) == nil)
    }

    @Test func calendarsDecode() throws {
        let page = try GraphSamples.decode(GraphPage<GraphCalendar>.self, GraphSamples.calendars)
        #expect(page.value.map(\.name) == ["Calendar", "Kids parties"])
        #expect(page.value[0].isDefaultCalendar == true)
        #expect(page.value[1].canEdit == false)
        #expect(page.value[1].owner?.address == "AlexW@contoso.onmicrosoft.com")
    }

    @Test func writeBodiesLeaveUnsetFieldsOut() throws {
        var event = GraphEvent()
        event.subject = "x"
        event.singleValueExtendedProperties = [GraphExtendedProperty(id: GraphExtendedProperty.uidID, value: "u")]
        let json = try GraphSamples.json(event)
        #expect(
            json
                == #"{"singleValueExtendedProperties":[{"id":"String {6c8f2f0e-5b7a-4c1e-9d3a-2f41c7a9e0b5} Name calgw.uid","value":"u"}],"subject":"x"}"#
        )
        let back = try GraphSamples.decode(GraphEvent.self, json)
        #expect(back.extendedProperty(GraphExtendedProperty.uidID) == "u")
    }
}
