import ICalendar

extension ContentHash {
    /// Writes into `out` the canonical parameter text `text` (an ORGANIZER's or ATTENDEE's)
    /// without its scheduling parameters (``schedulingParameters``), as the hash leaves them
    /// out: what removing them from the parsed property leaves (``dropSchedulingParameters(_:)``),
    /// the other parameters in their order.
    ///
    /// A scheduling server keeps SCHEDULE-STATUS on a meeting's attendees, and a copy calgw
    /// uploads carries SCHEDULE-AGENT=CLIENT: such an item was read through its parse tree, at
    /// four and a half times what reading it plainly costs (`CORPUS=scheduled Scripts/bench/content`).
    static func withoutSchedulingParameters(_ text: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        // The canonical text is each parameter after its `;` (`;CN=Bob;PARTSTAT=ACCEPTED`).
        guard text.first == UInt8(ascii: ";") else {
            out.append(contentsOf: text)
            return
        }
        let n = text.count
        var i = 0
        while i < n {
            // One parameter, its `;` with it: to the next `;` outside a quoted value (canonical
            // text quotes a value with a `;`, `:` or `,`, and no value holds a quote).
            let start = i
            i += 1
            var quoted = false
            while i < n, quoted || text[i] != UInt8(ascii: ";") {
                if text[i] == UInt8(ascii: "\"") { quoted.toggle() }
                i += 1
            }
            if !isSchedulingParameter(UnsafeBufferPointer(rebasing: text[(start + 1)..<i])) {
                out.append(contentsOf: text[start..<i])
            }
        }
    }

    /// Whether a parameter's canonical text (`NAME=value`) is one of ``schedulingParameters``.
    private static func isSchedulingParameter(_ parameter: UnsafeBufferPointer<UInt8>) -> Bool {
        starts(parameter, with: "SCHEDULE-AGENT=") || starts(parameter, with: "SCHEDULE-STATUS=")
    }

    private static func starts(_ bytes: UnsafeBufferPointer<UInt8>, with text: StaticString) -> Bool {
        bytes.count >= text.utf8CodeUnitCount
            && ByteSearch.equals(UnsafeBufferPointer(rebasing: bytes[0..<text.utf8CodeUnitCount]), text)
    }
}
