import Crypto
import Foundation
import Graph
import ICalendar

/// The iCalendar text calgw wrote to a Graph event, kept with it (in the extended property
/// ``GraphExtendedProperty/originalID``) beside a fingerprint of what that text asked Graph to
/// hold. A read gives the text back while the event still holds what the fingerprint says,
/// that is, while nobody changed it in Outlook: the vdir's file and the server's item then
/// mean the same to the sync, byte for byte, and what Graph has no field for (a second alarm,
/// an X- property, a task's details) survives the round trip. Once the event is changed
/// elsewhere, it reads as Graph holds it.
struct GraphKeptOriginal {
    /// The fingerprint of the write the text made.
    var fingerprint: String
    /// The text.
    var text: Data

    /// The largest text kept: Graph documents no limit for a property, but a mailbox has a quota.
    static let largest = 32 * 1024

    /// The property value: the fingerprint, a line break, the text.
    var value: String { fingerprint + "\n" + String(decoding: text, as: UTF8.self) }

    init(fingerprint: String, text: Data) {
        self.fingerprint = fingerprint
        self.text = text
    }

    /// The kept original in `value`; nil for another form.
    init?(value: String) {
        guard let newline = value.firstIndex(of: "\n") else { return nil }
        fingerprint = String(value[..<newline])
        text = Data(value[value.index(after: newline)...].utf8)
    }

    /// What a write asks Graph to hold, as one digest: the master's fields, each override's
    /// and each cancelled occurrence, with calgw's own properties and the transaction id left
    /// out. The same for the text written and for its translation read back, as long as Graph
    /// holds what was written.
    static func fingerprint(of write: GraphEventWrite) -> String {
        var master = write.master
        master.singleValueExtendedProperties = nil
        master.transactionId = nil
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var hasher = SHA256()
        hasher.update(data: (try? encoder.encode(master)) ?? Data())
        for override in write.overrides.sorted(by: { $0.occurrence.originalStart < $1.occurrence.originalStart }) {
            hasher.update(data: Data(override.occurrence.originalStart.utf8))
            hasher.update(data: (try? encoder.encode(override.patch)) ?? Data())
        }
        for cancelled in write.cancelled.map(\.originalStart).sorted() { hasher.update(data: Data(cancelled.utf8)) }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
