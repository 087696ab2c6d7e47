import Foundation
import ICalendar
import VDir

/// An .ics file rewritten in canonical form (folded lines, CRLF, TEXT escaped as RFC 5545
/// says), atomically and only when the form differs; a file that does not parse is never
/// written. What `calgw fmt` does to each file.
public enum CanonicalRewrite {
    /// What became of a file.
    public enum Outcome: Equatable, Sendable {
        /// Already canonical; not written.
        case unchanged
        /// Rewritten in canonical form.
        case reformatted
        /// Would be rewritten (a check only); not written.
        case wouldReformat
        /// Left exactly as it was, for this reason (`line 3: …; left unchanged`, `no such file`).
        case refused(String)
    }

    /// Rewrites the file at `url` in canonical form, or with `check` only says whether it would.
    /// Read and written in chunks: only the parsed tree is ever in memory whole.
    public static func apply(to url: URL, check: Bool) -> Outcome {
        do {
            var components = try ICalendarParser().parse(contentsOf: url).components
            guard !components.isEmpty else { return .refused("no calendar data; left unchanged") }
            for i in components.indices { Canonicalizer().canonicalize(&components[i]) }
            // Compared first, written only when it differs: a folder already in canonical form
            // (nearly every file of a vdir calgw keeps) costs no file made and removed.
            let comparison = try StreamingFileComparison(url)
            try ICalendarSerializer().serialize(components) { try comparison.feed($0) }
            if try comparison.finish() { return .unchanged }
            if check { return .wouldReformat }
            let writer = try AtomicFileWriter(replacing: url)
            try ICalendarSerializer().serialize(components) { try writer.write($0) }
            try writer.commit()
            return .reformatted
        } catch let error as ICalendarSyntaxError {
            return .refused("line \(error.line): \(error.reason); left unchanged")
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return .refused("no such file")
        } catch {
            return .refused("\(error)")
        }
    }
}
