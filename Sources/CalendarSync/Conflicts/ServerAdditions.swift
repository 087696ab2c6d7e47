import Foundation
import ICalendar

/// Whether a server's copy differs from the local one only by what the server added: every
/// property of every local component is in the server's copy as it is, and the server's copy
/// has more (SOGo adds `CLASS:PUBLIC` to what it stores; others add `X-` properties of their
/// own). Two such copies with no shared history are one item as the server keeps it: taking
/// the server's copy loses nothing of the local one, where keeping both would make a copy of
/// every item of a first sync onto such a server.
enum ServerAdditions {
    /// True when `remote` holds all of `local` and more besides (PRODID and DTSTAMP aside, which
    /// every writer restamps); false when either does not parse, or the local copy has a
    /// property or a component the remote one lacks.
    static func onlyAdded(local: Data, remote: Data) -> Bool {
        guard let l = try? ICalendarParser().parse(local).calendar,
            let r = try? ICalendarParser().parse(remote).calendar
        else { return false }
        return contains(r, l)
    }

    /// `data` without the content lines equal to one of `lines` (unfolded lines, compared
    /// whole: `CLASS:PUBLIC`), line ends kept as CRLF.
    static func removing(lines: [String], from data: Data) -> Data {
        let text = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
            .replacingOccurrences(of: "\n ", with: "").replacingOccurrences(of: "\n\t", with: "")
        let kept = text.split(separator: "\n", omittingEmptySubsequences: true).filter { !lines.contains(String($0)) }
        return Data((kept.joined(separator: "\r\n") + "\r\n").utf8)
    }

    /// Whether `outer` holds every property of `inner` and, for each of its components, one of
    /// the same name (and UID and RECURRENCE-ID) that holds it.
    private static func contains(_ outer: Component, _ inner: Component) -> Bool {
        var theirs = Set(outer.properties.lazy.filter { !ContentHash.isVolatile($0.name) }.map(line))
        for property in inner.properties where !ContentHash.isVolatile(property.name) {
            guard theirs.remove(line(property)) != nil else { return false }
        }
        var unmatched = outer.components
        for child in inner.components {
            guard let index = unmatched.firstIndex(where: { same($0, child) && contains($0, child) }) else {
                return false
            }
            unmatched.remove(at: index)
        }
        return true
    }

    /// A property as one comparable text: its name, parameters and value.
    private static func line(_ property: Property) -> String {
        property.name + ";" + property.parameterText + ":" + property.value
    }

    /// Whether two components are the same one: their name, UID and RECURRENCE-ID.
    private static func same(_ a: Component, _ b: Component) -> Bool {
        a.name == b.name && a["UID"]?.value == b["UID"]?.value && a["RECURRENCE-ID"]?.value == b["RECURRENCE-ID"]?.value
    }
}
