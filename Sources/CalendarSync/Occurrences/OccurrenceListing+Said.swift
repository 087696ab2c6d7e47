import Foundation
import ICalendar

extension OccurrenceListing {
    /// What the listing says: its problems and warnings, and what it prints on stdout (its
    /// JSON array, or its table read in `zone`; nothing for a quiet table).
    public func said(json: Bool, quiet: Bool, zone: any ZoneRules) throws -> ListingMemo.Said {
        var output: [UInt8] = []
        if json {
            output = Array(try CommandJSON.encode(records()))
            output.append(UInt8(ascii: "\n"))
        } else if !quiet {
            let lines = table(zone: zone)
            if !lines.isEmpty { output = Array((lines.joined(separator: "\n") + "\n").utf8) }
        }
        return ListingMemo.Said(
            problems: problems.map { ListingMemo.Report(file: $0.file, message: $0.message) },
            warnings: warnings.map { ListingMemo.Report(file: $0.file, message: $0.message) },
            occurrences: entries.count, output: output)
    }
}

/// The JSON every command prints: pretty, keys sorted, slashes as they are.
public enum CommandJSON {
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}
