import Foundation
import Graph

/// What an update changes of a Graph event: the properties of the write that differ from what
/// the event holds, each compared as Graph would get it (both sides through the same
/// translation, so a property calgw reads and writes back unchanged compares equal).
///
/// An update sends only these. A full body costs what a client cannot see: a `body` written
/// over an online meeting's drops its join block, and the meeting is no longer online
/// (event-update.md); a PATCH of a series master carrying its attendees or times mails the
/// attendees once per exception, changed or not.
struct GraphChangedProperties {
    /// The master's properties to send, as a JSON object.
    var master: [String: Any]
    /// Whether the series' times or pattern change (`start`, `end`, `isAllDay`, `recurrence`):
    /// Graph then drops its exceptions and cancellations, which are all written again.
    var retimed: Bool
    /// The exceptions to write: all when retimed, else those new or changed.
    var overrides: [GraphOccurrenceWrite]
    /// The occurrences to cancel: all when retimed, else those not cancelled already.
    var cancelled: [GraphOccurrenceStart]

    /// The properties that retime a series.
    static let timeFields: Set<String> = ["start", "end", "isAllDay", "recurrence"]

    /// What `write` (its master as sent, `master`) changes of an event that holds `held`; every
    /// property when what it holds is unknown (nil).
    init(_ write: GraphEventWrite, master: GraphEvent, held: GraphEventWrite?) throws {
        let new = try Self.object(master)
        guard let held else {
            self.master = new
            if master.recurrence == nil { self.master["recurrence"] = NSNull() }
            retimed = true
            overrides = write.overrides
            cancelled = write.cancelled
            return
        }
        let old = try Self.object(held.master)
        var changed: [String: Any] = [:]
        for (key, value) in new where key == "singleValueExtendedProperties" || !Self.same(value, old[key]) {
            changed[key] = value
        }
        // The same words over an HTML body (a file whose HTML form was dropped by an editor)
        // leave the HTML and what only it holds as they are.
        if let body = master.body, let held = held.master.body, body.saysTheSame(as: held) {
            changed["body"] = nil
        }
        // A series made a single event: its recurrence is cleared.
        if master.recurrence == nil, held.master.recurrence != nil { changed["recurrence"] = NSNull() }
        self.master = changed
        retimed = !Self.timeFields.isDisjoint(with: changed.keys)
        if retimed {
            overrides = write.overrides
            cancelled = write.cancelled
            return
        }
        var heldPatches: [String: Data] = [:]
        for override in held.overrides {
            heldPatches[override.occurrence.originalStart] = try GraphClient.json(override.patch)
        }
        overrides = try write.overrides.filter {
            heldPatches[$0.occurrence.originalStart] != (try GraphClient.json($0.patch))
        }
        let heldCancelled = Set(held.cancelled.map(\.date))
        cancelled = write.cancelled.filter { !heldCancelled.contains($0.date) }
    }

    /// The body of the PATCH.
    var body: Data {
        get throws {
            try JSONSerialization.data(withJSONObject: master, options: [.sortedKeys, .withoutEscapingSlashes])
        }
    }

    /// `event` as the JSON object Graph gets.
    private static func object(_ event: GraphEvent) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: try GraphClient.json(event)) as? [String: Any] ?? [:]
    }

    /// Whether two JSON values are the same, compared as sorted JSON text.
    private static func same(_ a: Any, _ b: Any?) -> Bool {
        guard let b else { return false }
        let options: JSONSerialization.WritingOptions = [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]
        return (try? JSONSerialization.data(withJSONObject: a, options: options))
            == (try? JSONSerialization.data(withJSONObject: b, options: options))
    }
}
