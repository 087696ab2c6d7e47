// What reading an item costs a first pull: `ItemContent(_:)` (its UID, LAST-MODIFIED, SEQUENCE,
// span and normalised hash) over every `.ics` file of a folder, the files read into memory
// first. `Scripts/bench/content` runs it under callgrind twice, one round and three, so that the
// difference is the items' own instructions without the start and the reads.
//
//   calgw-bench-content FOLDER [ROUNDS]      (default 1 round)
import CalendarSync
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: calgw-bench-content FOLDER [ROUNDS]\n".utf8))
    exit(2)
}
let folder = URL(fileURLWithPath: arguments[1], isDirectory: true)
let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 1 : 1
let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".ics") }.sorted()
let items = try names.map { try Data(contentsOf: folder.appendingPathComponent($0)) }

let clock = ContinuousClock()
var unparsed = 0
var uids = 0
var hashes = Set<ContentHash>()
let elapsed = clock.measure {
    for _ in 0..<rounds {
        for data in items {
            let content = ItemContent(data)
            if !content.parses { unparsed += 1 }
            if content.uid != nil { uids += 1 }
            hashes.insert(content.hash)
        }
    }
}
// What was read is printed, so that no round can be left out by the optimizer.
print("\(items.count) items × \(rounds): \(uids) UIDs, \(hashes.count) hashes, \(unparsed) not parsed, \(elapsed)")
