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
}
