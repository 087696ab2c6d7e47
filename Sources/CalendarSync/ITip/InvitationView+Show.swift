import Foundation
import ICalendar
import Recurrence

extension InvitationView {
    /// The view `calgw itip --show` prints for `message`: against the copy the pair that holds
    /// it keeps (else the chosen or only pair), with the reader's addresses (the pair's, and
    /// those its server gave), their zone (`TZ`, else the system's), and what else their vdir
    /// holds at the meeting's first time. Reads, writes nothing; a pair that cannot be read
    /// only leaves that part out.
    public static func show(
        _ message: ITipMessage, pairs: [Pair], chosen: String?, collection: String?, given: [String]
    ) async -> [String] {
        let target = try? ITipTarget.locate(uid: message.uid, in: pairs, chosen: chosen, collection: collection)
        var own: OwnAddresses?
        if let target { own = try? await OwnAddresses.resolve(given: given, pair: target.pair, offline: true) }
        var view = InvitationView(
            message: message, held: target?.file?.calendar,
            own: Set((own?.addresses ?? given).map { CalendarUser.normalized($0) }), zone: readerZone)
        if let pair = target?.pair { view.clashes = view.clashes(in: pair) }
        return view.lines
    }

    /// The reader's zone: `TZ`, else the system's.
    static var readerZone: any ZoneRules {
        let name =
            ProcessEnvironment.value("TZ").flatMap { $0.isEmpty ? nil : $0 } ?? TimeZone.current.identifier
        return SystemZone(identifier: name) ?? FixedOffsetZone.utc
    }

    /// The readable part of a mail calgw sends with the scheduling message `text`: the view,
    /// for the recipient (no answer command: they may use any program), times in the meeting's
    /// own zone; an update says what changed against `before`. Nil when `text` does not read.
    public static func mailText(of text: String, before: Component?) -> String? {
        guard let message = try? ITipMessage(text: text, declared: nil) else { return nil }
        let start = message.events.first?["DTSTART"]?.dateTime
        let zone = start?.tzid.flatMap { TimeZoneResolver(calendar: message.calendar).zone(for: $0) }
        let view = InvitationView(message: message, held: before, own: [], zone: zone ?? FixedOffsetZone.utc)
        return view.lines.joined(separator: "\n") + "\n"
    }

    /// The reader's other events in `pair`'s vdir that overlap the meeting's first time.
    func clashes(in pair: Pair) -> [String] {
        guard let event, let start = event["DTSTART"]?.dateTime, !start.isDate,
            let files = try? CalendarFiles(pairs: [pair], command: "itip")
        else { return [] }
        let resolver = TimeZoneResolver(calendar: message.calendar)
        let from = instant(start, resolver)
        let to = event["DTEND"]?.dateTime.map { instant($0, resolver) } ?? from + 3_600
        let listing = OccurrenceListing(
            listed: files.listed, from: from, to: max(to, from + 1), zone: zone, includeCancelled: false)
        return listing.entries.filter { $0.occurrence.uid != message.uid && !$0.occurrence.isAllDay }.prefix(5).map {
            let o = $0.occurrence
            return span(o.startInstant, o.endInstant - o.startInstant, in: zone) + " "
                + (o.component["SUMMARY"]?.text ?? "(no title)")
        }
    }
}
