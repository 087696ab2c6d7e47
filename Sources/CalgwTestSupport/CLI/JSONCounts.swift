import Foundation

/// What a `sync --json` report did, or a `status --json` report says is pending, read from the
/// JSON itself: a check on the text (`!contains("\"local\" : 1")`) passes for any other count.
public enum JSONCounts {
    /// Creates, updates and deletions on both sides added up; nil when `output` is not such a
    /// document (so a check on it fails instead of passing).
    public static func writes(in output: String) -> Int? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any] else {
            return nil
        }
        let report = (object["pending"] as? [String: Any]).flatMap { $0["created"] == nil ? nil : $0 } ?? object
        var total = 0
        for key in ["created", "updated", "deleted"] {
            guard let counts = report[key] as? [String: Int], counts.keys.sorted() == ["local", "remote"] else {
                return nil
            }
            total += counts.values.reduce(0, +)
        }
        return total
    }
}
