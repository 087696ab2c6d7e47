import CalgwTestSupport
import Foundation
import Testing

extension VDirPair {
    /// UID → SUMMARY of every item file of `side` (`local` or `remote`), recording an issue for
    /// each UID found twice: a check every test that reads a side makes, and one that does not
    /// stop the test, so that a watcher's result can be polled with it. Here rather than in
    /// CalgwTestSupport because it records through swift-testing.
    public func summaries(_ side: URL) throws -> [String: String] {
        var out: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: side.path)
        where name.hasSuffix(".ics") && !name.hasPrefix(".") {
            let text = try String(contentsOf: side.appendingPathComponent(name), encoding: .utf8)
            let lines = text.components(separatedBy: "\r\n")
            let uid = lines.first { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) } ?? name
            #expect(out[uid] == nil, "UID \(uid) twice in \(side.lastPathComponent)")
            out[uid] = lines.first { $0.hasPrefix("SUMMARY:") }.map { String($0.dropFirst(8)) } ?? ""
        }
        return out
    }
}
