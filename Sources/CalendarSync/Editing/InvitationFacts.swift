import ICalendar

/// What the index of invitations (``ListingIndex/Kind/invitations``) keeps of one file that was
/// read whole: the UIDs of its meetings that name none of the person's addresses, and the
/// invitations in it awaiting the person's answer, each as ``Invitations/PairScan/add(_:pair:root:addresses:)``
/// made it. A file the index knows unchanged is then answered from these without being read.
///
/// The form: the unclaimed UIDs' count, each UID; the invitations' count, each invitation's
/// fields (strings with their length, or a length of `UInt32.max` for none; times as their form
/// and wall-clock fields); all little-endian. A form that does not read to its end is damaged,
/// and its file is read.
enum InvitationFacts {
    /// Carried in the index's fingerprint: an index kept in another form is started again.
    static let version = "invitation facts 2"

    /// What one file holds for the person: its unclaimed UIDs, and its invitations without the
    /// file's place (the listing knows it).
    struct Held: Equatable {
        var unclaimed: [String] = []
        var invitations: [Stored] = []
    }

    /// One invitation as kept.
    struct Stored: Equatable {
        var invitation: Invitations.Invitation
        var start: (text: String, instant: Int64)?
        var occurrence: String?

        static func == (a: Stored, b: Stored) -> Bool {
            a.invitation == b.invitation && a.start?.text == b.start?.text && a.start?.instant == b.start?.instant
                && a.occurrence == b.occurrence
        }
    }

    /// The stored form of what a file holds.
    static func encode(_ held: Held) -> [UInt8] {
        var out = Writer()
        out.count(held.unclaimed.count)
        for uid in held.unclaimed { out.string(uid) }
        out.count(held.invitations.count)
        for one in held.invitations {
            let i = one.invitation
            out.string(i.uid)
            out.string(i.summary)
            out.string(i.start)
            out.string(i.zone)
            out.time(i.startValue)
            out.string(i.occurrence)
            out.time(i.occurrenceStart)
            out.string(i.organizer)
            out.bytes.append(i.recurring ? 1 : 0)
            out.string(one.start?.text)
            ListingIndex.append(one.start?.instant ?? 0, to: &out.bytes)
            out.string(one.occurrence)
        }
        return out.bytes
    }

    /// How much a stored form holds.
    struct Summary: Equatable {
        var unclaimed: Int
        var invitations: Int
    }

    /// How many unclaimed UIDs and invitations the stored form `facts` holds, read to its end
    /// without making its strings; nil when it is damaged.
    static func summary(_ facts: UnsafeRawBufferPointer) -> Summary? {
        // Most files hold nothing for the person: two zero counts, told at once (a listing of
        // 100,000 files asks this of every one).
        if facts.count == 8 {
            let words = facts.loadUnaligned(as: UInt64.self)
            if words == 0 { return Summary(unclaimed: 0, invitations: 0) }
        }
        var reader = Reader(bytes: facts, making: false)
        guard let unclaimed = reader.count() else { return nil }
        for _ in 0..<unclaimed {
            guard reader.string() != nil else { return nil }
        }
        guard let invitations = reader.count() else { return nil }
        for _ in 0..<invitations {
            guard readInvitation(&reader) != nil else { return nil }
        }
        return reader.atEnd ? Summary(unclaimed: unclaimed, invitations: invitations) : nil
    }

    /// What the stored form `facts` holds; nil when it is damaged.
    static func decode(_ facts: UnsafeRawBufferPointer) -> Held? {
        var reader = Reader(bytes: facts, making: true)
        var held = Held()
        guard let unclaimed = reader.count() else { return nil }
        for _ in 0..<unclaimed {
            guard let uid = reader.string() else { return nil }
            held.unclaimed.append(uid)
        }
        guard let invitations = reader.count() else { return nil }
        for _ in 0..<invitations {
            guard let one = readInvitation(&reader) else { return nil }
            held.invitations.append(one)
        }
        return reader.atEnd ? held : nil
    }

    /// One invitation as `reader` reads it (its strings empty unless it makes them); nil when
    /// damaged.
    private static func readInvitation(_ reader: inout Reader) -> Stored? {
        guard let uid = reader.string(), let summary = reader.optionalString(), let start = reader.optionalString(),
            let zone = reader.optionalString(), let startValue = reader.time(),
            let occurrence = reader.optionalString(), let occurrenceStart = reader.time(),
            let organizer = reader.optionalString(), let recurring = reader.byte(),
            let shownStart = reader.optionalString(), let instant = reader.int64(),
            let shownOccurrence = reader.optionalString()
        else { return nil }
        let invitation = Invitations.Invitation(
            uid: uid, summary: summary, start: start, zone: zone, startValue: startValue, occurrence: occurrence,
            occurrenceStart: occurrenceStart, organizer: organizer, recurring: recurring != 0)
        return Stored(invitation: invitation, start: shownStart.map { ($0, instant) }, occurrence: shownOccurrence)
    }

    /// Appends the stored form's parts.
    private struct Writer {
        var bytes: [UInt8] = []

        mutating func count(_ n: Int) { ListingIndex.append(UInt32(n), to: &bytes) }

        mutating func string(_ text: String?) {
            guard let text else { return ListingIndex.append(UInt32.max, to: &bytes) }
            ListingIndex.append(UInt32(text.utf8.count), to: &bytes)
            bytes += text.utf8
        }

        /// A time: its form (0 none, 1 date, 2 floating, 3 UTC, 4 zoned, then the TZID), then
        /// its wall-clock fields.
        mutating func time(_ value: DateTimeValue?) {
            guard let value else { return bytes.append(0) }
            switch value.form {
            case .date: bytes.append(1)
            case .floating: bytes.append(2)
            case .utc: bytes.append(3)
            case .zoned(let tzid):
                bytes.append(4)
                string(tzid)
            }
            let l = value.local
            ListingIndex.append(Int32(truncatingIfNeeded: l.date.year), to: &bytes)
            for field in [l.date.month, l.date.day, l.time.hour, l.time.minute, l.time.second] {
                bytes.append(UInt8(truncatingIfNeeded: field))
            }
        }
    }

    /// Reads the stored form's parts, each within bounds; nil for one that runs past the end.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        /// Whether strings are made (else each reads as empty: a check of the form alone).
        let making: Bool
        var at = 0

        var atEnd: Bool { at == bytes.count }

        mutating func byte() -> UInt8? {
            guard at < bytes.count else { return nil }
            defer { at += 1 }
            return bytes[at]
        }

        mutating func word<T: FixedWidthInteger>(_: T.Type) -> T? {
            guard bytes.count - at >= MemoryLayout<T>.size else { return nil }
            defer { at += MemoryLayout<T>.size }
            return T(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: T.self))
        }

        mutating func int64() -> Int64? { word(Int64.self) }

        /// A count, at most as many as the bytes left could hold (each part takes a byte or more).
        mutating func count() -> Int? {
            guard let n = word(UInt32.self), Int(n) <= bytes.count - at else { return nil }
            return Int(n)
        }

        /// A string that must be there.
        mutating func string() -> String? {
            guard case .some(.some(let text)) = optionalString() else { return nil }
            return text
        }

        /// A string or none: `.some(nil)` for none, nil when damaged.
        mutating func optionalString() -> String?? {
            guard let length = word(UInt32.self) else { return nil }
            if length == UInt32.max { return .some(nil) }
            guard Int(length) <= bytes.count - at else { return nil }
            defer { at += Int(length) }
            guard making else { return .some("") }
            return .some(
                String(decoding: UnsafeRawBufferPointer(rebasing: bytes[at..<at + Int(length)]), as: UTF8.self))
        }

        /// A time or none: `.some(nil)` for none, nil when damaged.
        mutating func time() -> DateTimeValue?? {
            guard let kind = byte() else { return nil }
            let form: DateTimeValue.Form
            switch kind {
            case 0: return .some(nil)
            case 1: form = .date
            case 2: form = .floating
            case 3: form = .utc
            case 4:
                guard let tzid = string() else { return nil }
                form = .zoned(tzid: tzid)
            default: return nil
            }
            guard let year = word(Int32.self), bytes.count - at >= 5 else { return nil }
            let (bytes, at) = (bytes, at)
            let f = { Int(bytes[at + $0]) }
            self.at += 5
            return .some(
                DateTimeValue(
                    LocalDateTime(year: Int(year), month: f(0), day: f(1), hour: f(2), minute: f(3), second: f(4)),
                    form: form))
        }
    }
}
