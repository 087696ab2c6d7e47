import Failures
import Foundation
import ICalendar

extension GraphDirectory {
    /// Graph's `calendar/getSchedule`: each person's schedule items in [from, to), in UTC. An
    /// item `busy` or `oof` is busy time, `tentative` tentative; `free`, `workingElsewhere` and
    /// `unknown` are not. A person Graph answers with an error (outside the organisation, not
    /// shared) is named with its message.
    func freeBusy(of people: [String], from: Int64, to: Int64) async -> [String: Result<
        [FreeTime.Interval], FreeBusyFailure
    >] {
        struct Answer: Decodable {
            struct Item: Decodable {
                struct Stamp: Decodable { var dateTime: String }
                var status: String?
                var start: Stamp
                var end: Stamp
            }
            struct Failure: Decodable {
                var message: String?
                var responseCode: String?
            }
            struct Schedule: Decodable {
                var scheduleId: String
                var scheduleItems: [Item]?
                var error: Failure?
            }
            var value: [Schedule]
        }
        func stamp(_ t: Int64) -> [String: String] {
            let l = LocalDateTime(secondsSinceEpoch: t)
            return [
                "dateTime": l.date.isoString
                    + String(format: "T%02d:%02d:%02d", l.time.hour, l.time.minute, l.time.second),
                "timeZone": "UTC",
            ]
        }
        func instant(_ text: String) -> Int64? {
            DateTimeValue(
                parsing: String(text.prefix(19)).replacingOccurrences(of: "-", with: "").replacingOccurrences(
                    of: ":", with: "")
            )
            .map { $0.local.secondsSinceEpoch }
        }
        var out = Dictionary(
            uniqueKeysWithValues: people.map {
                (
                    $0,
                    Result<[FreeTime.Interval], FreeBusyFailure>.failure(
                        FreeBusyFailure("Outlook did not answer for them"))
                )
            })
        let answer: Answer
        do {
            let body = try JSONSerialization.data(withJSONObject: [
                "schedules": people, "startTime": stamp(from), "endTime": stamp(to), "availabilityViewInterval": 30,
            ])
            let url = URL(string: mailbox.absoluteString + "calendar/getSchedule")!
            answer = try client.decode(Answer.self, try await client.send("POST", url, json: body, writesNothing: true))
        } catch {
            return out.mapValues { _ in
                .failure(FreeBusyFailure("Outlook could not be asked: \(CauseChain.text(of: error))"))
            }
        }
        for schedule in answer.value {
            let person = CalendarUser.normalized(schedule.scheduleId)
            guard out[person] != nil else { continue }
            if let error = schedule.error {
                out[person] = .failure(
                    FreeBusyFailure("Outlook answers \(error.responseCode ?? "an error"): \(error.message ?? "")"))
                continue
            }
            let items = (schedule.scheduleItems ?? []).compactMap { item -> FreeTime.Interval? in
                let status = (item.status ?? "busy").lowercased()
                guard ["busy", "oof", "tentative"].contains(status), let start = instant(item.start.dateTime),
                    let end = instant(item.end.dateTime)
                else { return nil }
                return FreeTime.Interval(start: start, end: end, kind: status == "tentative" ? "tentative" : "busy")
            }
            out[person] = .success(FreeTime.merged(items))
        }
        return out
    }
}
