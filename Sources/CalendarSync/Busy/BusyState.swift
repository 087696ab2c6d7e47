import Crypto
import Foundation
import VDir

/// What a projection's last run saw, kept beside the target calendar's journal so that a run
/// with nothing new reads no file: each source file's signature and the blocks it made, and
/// each block file's signature as the run left it. Valid for one set of settings, addresses
/// and day (the horizon moves daily): any change of those, and the next run reads everything.
struct BusyState: Codable {
    struct Source: Codable {
        var signature: String
        var blocks: [String]
    }

    struct Held: Codable {
        var name: String
        var signature: String
    }

    /// The settings, the person's addresses and the day it holds for.
    var key: String
    /// Each source file (its folder's path and its name) as last read.
    var sources: [String: Source] = [:]
    /// Each block of the projection in the target, by UID, as last written or seen.
    var held: [String: Held] = [:]

    /// The state kept at `url` when it is for `key`; nil when there is none, it does not read,
    /// or it is for another key.
    static func load(_ url: URL, key: String) -> BusyState? {
        guard let data = try? Data(contentsOf: url), let state = try? JSONDecoder().decode(BusyState.self, from: data),
            state.key == key
        else { return nil }
        return state
    }

    /// Writes it atomically; a state that cannot be written costs the next run a full read.
    func save(_ url: URL) {
        guard let data = try? JSONEncoder().encode(self) else { return }
        try? AtomicFile.write([UInt8](data), to: url)
    }

    /// Where the state of `projection` targeting `calendar` is kept: beside its journal.
    static func url(projection: String, calendar: PairCalendar) -> URL {
        let digest = ContentHash.hex(SHA256.hash(data: Data(projection.utf8))).prefix(12)
        return URL(fileURLWithPath: calendar.journal.path + ".busy-\(digest).json")
    }
}
