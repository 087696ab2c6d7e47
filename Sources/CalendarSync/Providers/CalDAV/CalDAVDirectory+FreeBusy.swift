import CalDAV
import Failures
import Foundation
import ICalendar

extension CalDAVDirectory {
    /// Other people's busy time asked of the server (RFC 6638 §5: a VFREEBUSY request POSTed
    /// to the account's schedule Outbox, each recipient answered apart): a person the server
    /// does not know, or will not tell, is named with its REQUEST-STATUS.
    func freeBusy(of people: [String], from: Int64, to: Int64) async -> [String: Result<
        [FreeTime.Interval], FreeBusyFailure
    >] {
        func all(_ why: String) -> [String: Result<[FreeTime.Interval], FreeBusyFailure>] {
            Dictionary(uniqueKeysWithValues: people.map { ($0, .failure(FreeBusyFailure(why))) })
        }
        switch settledFacts.facts(client.traits).freeBusy {
        case .none(let reason): return all(reason)
        case .googleCalendarAPI: return await googleFreeBusy(of: people, from: from, to: to)
        case .outbox: break
        }
        let account: SchedulingAccount
        do { account = try await client.schedulingAccount(at: remote) } catch {
            return all("the server could not be asked: \(CauseChain.text(of: error))")
        }
        guard let outbox = account.outbox else {
            return all("the server has no schedule Outbox: it answers no free-busy request")
        }
        guard let organizer = account.addresses.first(where: { $0.lowercased().hasPrefix("mailto:") }) else {
            return all("the server names no calendar address for this account, which a free-busy request needs")
        }
        let request = FreeBusyRequest(organizer: organizer, attendees: people, from: from, to: to)
        let answers: [CalDAVClient.FreeBusyAnswer]
        do { answers = try await client.askFreeBusy(request.data, outbox: outbox) } catch {
            return all("the server did not answer the free-busy request: \(CauseChain.text(of: error))")
        }
        var out = all("the server's answer does not name them")
        for answer in answers {
            let person = CalendarUser.normalized(answer.recipient)
            guard out[person] != nil else { continue }
            guard answer.status.hasPrefix("2."), let data = answer.calendarData else {
                out[person] = .failure(
                    FreeBusyFailure("the server answers \(answer.status.isEmpty ? "nothing" : answer.status)"))
                continue
            }
            out[person] =
                FreeBusyRequest.intervals(in: data).map { .success($0) }
                ?? .failure(FreeBusyFailure("the server's answer holds no VFREEBUSY"))
        }
        return out
    }

    /// Google's `freeBusy.query` (its Calendar API, beside CalDAV: www.googleapis.com for
    /// Google's own endpoint, the same origin for a proxy or stand-in in front of it): each
    /// person's busy periods, or the error Google answers for them (`notFound`).
    func googleFreeBusy(of people: [String], from: Int64, to: Int64) async -> [String: Result<
        [FreeTime.Interval], FreeBusyFailure
    >] {
        struct Answer: Decodable {
            struct Calendar: Decodable {
                struct Period: Decodable { var start: String; var end: String }
                struct Failure: Decodable { var reason: String? }
                var busy: [Period]?
                var errors: [Failure]?
            }
            var calendars: [String: Calendar]
        }
        func rfc3339(_ t: Int64) -> String {
            let l = LocalDateTime(secondsSinceEpoch: t)
            return l.date.isoString + String(format: "T%02d:%02d:%02dZ", l.time.hour, l.time.minute, l.time.second)
        }
        func instant(_ text: String) -> Int64? {
            DateTimeValue(
                parsing: text.prefix(19).replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
                    + "Z"
            )
            .map { $0.local.secondsSinceEpoch }
        }
        var endpoint = URLComponents(url: remote, resolvingAgainstBaseURL: false) ?? URLComponents()
        if remote.host?.lowercased().hasSuffix("googleusercontent.com") == true {
            endpoint.host = "www.googleapis.com"; endpoint.port = nil
        }
        endpoint.path = "/calendar/v3/freeBusy"
        endpoint.query = nil
        var out = Dictionary(
            uniqueKeysWithValues: people.map {
                (
                    $0,
                    Result<[FreeTime.Interval], FreeBusyFailure>.failure(
                        FreeBusyFailure("Google did not answer for them"))
                )
            })
        let answer: Answer
        do {
            let body = try JSONSerialization.data(withJSONObject: [
                "timeMin": rfc3339(from), "timeMax": rfc3339(to), "items": people.map { ["id": $0] },
            ])
            answer = try JSONDecoder().decode(Answer.self, from: try await client.postJSON(body, to: endpoint.url!))
        } catch {
            return out.mapValues { _ in
                .failure(FreeBusyFailure("Google could not be asked: \(CauseChain.text(of: error))"))
            }
        }
        for (id, calendar) in answer.calendars {
            let person = CalendarUser.normalized(id)
            guard out[person] != nil else { continue }
            if let errors = calendar.errors, !errors.isEmpty {
                out[person] = .failure(
                    FreeBusyFailure("Google answers \(errors.compactMap(\.reason).joined(separator: ", "))"))
                continue
            }
            out[person] = .success(
                FreeTime.merged(
                    (calendar.busy ?? []).compactMap { period in
                        guard let a = instant(period.start), let b = instant(period.end) else { return nil }
                        return FreeTime.Interval(start: a, end: b)
                    }))
        }
        return out
    }
}
