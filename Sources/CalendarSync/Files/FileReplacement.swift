import Foundation
import VDir

/// A file replaced whole, atomically: a reader sees the old bytes or the new, never a part,
/// and a crash leaves one of them (a temporary file beside it, fsync'd, renamed over it).
/// For files a person keeps that are not items: the config file, a pair's caches.
public enum FileReplacement {
    /// Replaces (or creates) the file at `url` with `bytes`.
    /// - Throws: an ``ExplainedError`` naming the file and the failed step, with what to do
    ///   for a full disk, a read-only folder or a permission.
    public static func write(_ bytes: [UInt8], to url: URL) throws {
        try AtomicFile.write(bytes, to: url)
    }
}
