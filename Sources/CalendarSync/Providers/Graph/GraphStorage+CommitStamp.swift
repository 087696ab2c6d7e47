import Foundation
import Graph

/// The calendar folder's commit stamp, read beside what a round asks anyway, so that knowing
/// whether anything changed costs no request of its own (see ``SeriesCheck``).
extension GraphStorage {
    /// The query that asks a calendar for its folder's commit stamp with its own properties.
    static let calendarQuery =
        "?$expand=singleValueExtendedProperties($filter=id%20eq%20'"
        + GraphExtendedProperty.commitStampID.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! + "')"

    /// The calendar below the mailbox (`calendars/{id}`, or `calendar`), with `calendarQuery`.
    var calendarPath: String { String(client.eventsIn.dropLast()) + Self.calendarQuery }

    /// The commit stamp `calendar` carries; nil when Graph gave none.
    static func stamp(of calendar: GraphCalendar) -> String? {
        calendar.singleValueExtendedProperties?.first {
            $0.id.caseInsensitiveCompare(GraphExtendedProperty.commitStampID) == .orderedSame
        }?.value
    }

    /// Reads whether the account may write to the calendar, and its commit stamp (at a first
    /// round; later rounds take the access from their token, so that a run that finds nothing
    /// new makes one request).
    func readCalendar() async throws -> (canEdit: Bool, stamp: String?) {
        let info = try await client.get(
            URL(string: client.mailbox.absoluteString + calendarPath)!, as: GraphCalendar.self)
        let canEdit = info.canEdit ?? true
        access.withLock { $0 = canEdit }
        return (canEdit, Self.stamp(of: info))
    }

    /// The first page of the round at `link` and the calendar's commit stamp, in one `$batch`;
    /// two requests for a link that is not below the mailbox.
    /// - Throws: ``GraphError`` as ``deltaPage(_:)`` throws it for the page; the stamp's own
    ///   refusal is taken as no stamp (every series is then asked).
    func firstPageAndStamp(_ link: URL) async throws -> (page: GraphDeltaPage, stamp: String?) {
        guard let path = client.below(link) else {
            let page = try await deltaPage(link)
            return (
                page,
                try? Self.stamp(
                    of: await client.get(
                        URL(string: client.mailbox.absoluteString + calendarPath)!, as: GraphCalendar.self))
            )
        }
        let answers = try await client.batchGET([path, calendarPath], prefer: deltaPreferences)
        let page: GraphDeltaPage
        do {
            page = try client.batchAnswer(answers[0], path: path, as: GraphDeltaPage.self)
        } catch let error as GraphError where error.status == 504 {
            throw unanswered(error)
        }
        let calendar = try? client.batchAnswer(answers[1], path: calendarPath, as: GraphCalendar.self)
        return (page, calendar.flatMap(Self.stamp(of:)))
    }

    /// The commit stamp the calendar has now; nil when Graph gave none or could not be asked.
    func currentStamp() async -> String? {
        let url = URL(string: client.mailbox.absoluteString + calendarPath)!
        return (try? await client.get(url, as: GraphCalendar.self)).flatMap(Self.stamp(of:))
    }
}
