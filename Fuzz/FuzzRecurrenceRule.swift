// libFuzzer entry point for the RRULE (RECUR value) parser.
import Foundation
@testable import ICalendar

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecurrenceRule(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let rule = try? RecurrenceRule(parsing: text) else { return 0 }
    // The canonical text must parse to the same rule.
    guard let again = try? RecurrenceRule(parsing: rule.description), again == rule else {
        fatalError("RRULE canonical text does not round-trip: \(text)")
    }
    _ = rule.rfcViolations
    return 0
}
