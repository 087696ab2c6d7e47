import Foundation

/// The VTIMEZONEs ``PlainItemReader`` read last, each as its bytes were written and as the
/// outline kept it: the items of one calendar carry the same few zones, byte for byte (a
/// server or client writes each item's VTIMEZONE from one definition), and a zone's fifteen
/// lines and more were read, checked and handed on again in every item.
///
/// A zone is remembered in a slot; the visitor that read its lines remembers what it made of
/// them in the same slot (``PlainLine/slot``), and is handed that slot alone when the same
/// bytes come again (``PlainLine/Kind/repeated``).
struct RememberedZones {
    /// How many zones are remembered; the oldest is forgotten for a new one.
    static let count = 8
    /// A zone longer than this is not remembered (such are rare, and each is read as it comes).
    static let maximumSize = 16_384

    /// A remembered zone: its bytes from `BEGIN:VTIMEZONE` through the line end after
    /// `END:VTIMEZONE`, and the outline's component for it.
    struct Zone {
        var bytes: [UInt8]
        var outline: Component
    }

    private var zones: [Zone?] = Array(repeating: nil, count: count)
    /// The slot the next zone read is remembered in.
    private(set) var next = 0

    /// The bytes the remembered zones take.
    var footprint: Int { zones.reduce(0) { $0 + ($1?.bytes.count ?? 0) } }

    /// The slot of the zone whose bytes `input` holds from `start` (a `BEGIN:VTIMEZONE` line's
    /// start), with their count and its outline; nil when none is, or when the line after them
    /// continues their last line or is blank (they would then not read alone as they did).
    func match(_ input: UnsafeBufferPointer<UInt8>, at start: Int) -> (slot: Int, size: Int, outline: Component)? {
        for slot in zones.indices {
            guard let zone = zones[slot] else { continue }
            let end = start + zone.bytes.count
            guard end <= input.count else { continue }
            if end < input.count {
                switch input[end] {
                case 0x20, 0x09, 0x0D, 0x0A: continue
                default: break
                }
            }
            let same = zone.bytes.withUnsafeBufferPointer {
                memcmp(input.baseAddress! + start, $0.baseAddress!, zone.bytes.count) == 0
            }
            if same { return (slot, zone.bytes.count, zone.outline) }
        }
        return nil
    }

    /// Forgets the zone in `slot`, which a zone being read is about to take: until that zone
    /// is read whole, neither the reader nor the visitor holds anything in it to match.
    mutating func forget(_ slot: Int) { zones[slot] = nil }

    /// Remembers in `slot` the zone read whole from `bytes` (ending with its line end), as the
    /// outline kept it; a zone too long, or not ending with a line end, is not remembered.
    mutating func remember(_ slot: Int, bytes: UnsafeBufferPointer<UInt8>, outline: Component) {
        guard bytes.count <= Self.maximumSize, bytes.last == 0x0A else { return }
        zones[slot] = Zone(bytes: Array(bytes), outline: outline)
        next = (slot + 1) % Self.count
    }
}
