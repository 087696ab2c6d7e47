// libFuzzer entry point for the iCalendar parser, serializer, lint and typed views.
// Built by Scripts/fuzz against Sources/ICalendar built once for both its targets (swiftc -sanitize=fuzzer).
import Foundation
@testable import ICalendar

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzICalendar(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let parsed = try? ICalendarParser().parse(bytes) else { return 0 }
    // Round trip: the serialized tree must parse to the same tree.
    let out = ICalendarSerializer().serialize(parsed.components)
    guard let again = try? ICalendarParser().parse(Data(out)), again.components == parsed.components else {
        fatalError("round trip changed the tree")
    }
    for c in parsed.components {
        _ = Canonicalizer().canonicalize(c)
        for child in c.components {
            let event = child.event
            _ = event.recurrenceRules.map(\.description)
        }
        _ = TimeZoneResolver(calendar: c)
    }
    _ = Linter().lint(Data(bytes))
    return 0
}
