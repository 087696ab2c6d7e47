import Crypto
import Foundation
import VDir

/// The local side: a vdir as a `CalendarStorage`.
///
/// Hrefs are file names, etags are stat signatures (mtime-ns, size, inode, hashed), and the change
/// token is a hash of the sorted (name, etag) listing: an unchanged folder answers
/// `.unchanged` after one `stat` per file and reads no file.
public struct VDirStorage: CalendarStorage {
    /// Settings of a vdir storage.
    public struct Options: Sendable {
        /// Create the folder on first use (default true).
        public var createFolder = true
        /// Options that make the folder on first use unless `createFolder` is false.
        public init(createFolder: Bool = true) { self.createFolder = createFolder }
    }

    /// The folder and the settings, held by one reference: the executor asks a storage for its
    /// capabilities for each item it writes, and each capability is the storage as an
    /// existential, which holds one reference in place but copies a larger value into a box of
    /// its own (seven boxes per question).
    private final class Parts: Sendable {
        let directory: VDirectory
        let options: Options
        init(directory: VDirectory, options: Options) { (self.directory, self.options) = (directory, options) }
    }
    private let parts: Parts

    /// The folder of `.ics` files.
    public var directory: VDirectory { parts.directory }
    /// How the storage treats its folder.
    public var options: Options { parts.options }

    /// The vdir at `url`, its writes made durable once per batch.
    public init(url: URL, options: Options = Options()) {
        parts = Parts(directory: VDirectory(url: url, durability: .batched), options: options)
    }

    /// True when the folder is missing and made on the first write into it: an empty vdir.
    private var folderIsUnmade: Bool {
        options.createFolder && !FileManager.default.fileExists(atPath: directory.url.path)
    }

    /// One `stat` per file; `.unchanged` when the listing hashes to `token`. A missing folder is an
    /// empty vdir.
    public func changes(since token: ChangeToken?) async throws -> StorageChanges {
        // A missing folder is an empty vdir, made on the first write into it; a listing
        // writes nothing (`status` and dry runs list too).
        if folderIsUnmade {
            let empty = Self.token(for: [])
            return token == empty ? .unchanged(empty) : .full([], token: empty)
        }
        // The token is hashed from the listing itself, and versions are made only when it moved:
        // an unchanged folder of 1,000,000 files made a `String` per name and a version per file
        // (96 MB) only to hash them, and a changed one held an entry per file beside its versions.
        let listing = try directory.list()
        let current = Self.token(for: listing)
        if let token, token == current { return .unchanged(current) }
        return .full(Self.versions(of: listing), token: current)
    }

    /// The versions of a listing's files, in its order.
    static func versions(of listing: VDirectory.Listing) -> [ItemVersion] {
        var versions: [ItemVersion] = []
        versions.reserveCapacity(listing.count)
        for i in 0..<listing.count {
            versions.append(
                ItemVersion(href: ItemHref(listing.name(at: i)), etag: ItemETag(listing.signatures[i].etag)))
        }
        return versions
    }

    /// Reads the files, on every core for many; a file gone is left out.
    public func fetch(_ hrefs: [ItemHref], for intent: WriteIntent) async throws -> [StoredItem] {
        let directory = self.directory
        @Sendable func read(_ href: ItemHref) -> Result<StoredItem?, any Error> {
            Result {
                try directory.read(href.value).map {
                    StoredItem(version: ItemVersion(href: href, etag: ItemETag($0.signature.etag)), data: $0.data)
                }
            }
        }
        // Many files (a first sync's scan) are read on every core, away from the task pool.
        let results =
            hrefs.count < Self.parallelReadMinimum
            ? hrefs.map(read)
            : await Self.offThread { hrefs.mappedOnEveryCore(minimum: 0, read) }
        return try results.compactMap { try $0.get() }
    }

    /// `data` ending with a line break, as every content line of a file must (RFC 5545 §3.1): a
    /// server that drops the last one (SOGo) would otherwise leave every pulled file failing
    /// `calgw fmt --check`. The break added is the file's own kind (CRLF unless it uses LF
    /// alone); the content, and so its hash, is the same.
    static func endingWithALineBreak(_ data: Data) -> Data {
        guard let last = data.last, last != UInt8(ascii: "\n") else { return data }
        var ended = data
        ended.append(
            contentsOf: data.range(of: Data([13, 10])) != nil || data.firstIndex(of: 10) == nil ? [13, 10] : [10])
        return ended
    }

    /// Below this many hrefs a fetch reads on the calling thread.
    static let parallelReadMinimum = 64

    /// Makes `<suggestedName>.ics` atomically (a stem derived from the UID when the name is not
    /// safe), the folder first if it is missing and allowed.
    public func create(_ data: Data, suggestedName: String, as intent: WriteIntent) async throws -> ItemVersion {
        try await Self.offThread { [self] in try createNow(data, suggestedName: suggestedName) }
    }

    /// Creates the file for `create`, on the calling thread; in `folder` when the caller holds
    /// it open (`openFolder()`).
    func createNow(_ data: Data, suggestedName: String, in folder: OpenFolder? = nil) throws -> ItemVersion {
        let data = Self.endingWithALineBreak(data)
        let stem = SafeFileName.isSafeStem(suggestedName) ? suggestedName : SafeFileName.stem(forUID: suggestedName)
        let name = String(joining: stem, ".ics")
        do {
            let signature: FileSignature
            if let folder {
                signature = try directory.create(name, data: data, in: folder)
            } else {
                do {
                    signature = try directory.create(name, data: data)
                } catch let error as AtomicFileError where error.code == ENOENT && options.createFolder {
                    // The folder is made on the first write that finds it missing, not checked before each.
                    try directory.createIfMissing()
                    signature = try directory.create(name, data: data)
                }
            }
            return ItemVersion(href: ItemHref(name), etag: ItemETag(signature.etag))
        } catch let error as VDirError where error.code == .alreadyExists {
            throw StorageError.alreadyExists(href: ItemHref(name))
        }
    }

    /// Replaces the file atomically if its signature is still `etag`.
    public func update(href: ItemHref, data: Data, ifMatch etag: ItemETag, as intent: WriteIntent) async throws
        -> ItemVersion
    {
        let directory = self.directory
        let data = Self.endingWithALineBreak(data)
        do {
            let signature = try await Self.offThread {
                try directory.replace(href.value, data: data, ifEtag: etag.value)
            }
            return ItemVersion(href: href, etag: ItemETag(signature.etag))
        } catch let error as VDirError where error.code == .changedMeanwhile {
            throw StorageError.preconditionFailed(href: href)
        }
    }

    /// Removes the file if its signature is still `etag`; a file already gone is not an error.
    public func delete(href: ItemHref, ifMatch etag: ItemETag, as intent: WriteIntent) async throws {
        let directory = self.directory
        do {
            try await Self.offThread { try directory.delete(href.value, ifEtag: etag.value) }
        } catch let error as VDirError where error.code == .changedMeanwhile {
            throw StorageError.preconditionFailed(href: href)
        }
    }

    /// Runs a blocking file operation (an fsync) on a Dispatch thread, so that several can
    /// wait on the disk at once without holding the cooperative pool's few threads.
    static func offThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            ioQueue.async { continuation.resume(with: Result { try body() }) }
        }
    }

    /// `offThread` for work that cannot fail.
    static func offThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            ioQueue.async { continuation.resume(returning: body()) }
        }
    }

    /// A concurrent queue of its own (not the width-limited global one), so blocked fsyncs
    /// do not starve each other.
    static let ioQueue = DispatchQueue(label: "calgw.vdir.io", attributes: .concurrent)

    /// The folder held open for a batch of creates, made first when missing and the options
    /// say so; nil when it cannot be opened (each create then reports why).
    func openFolder() -> OpenFolder? {
        do {
            return try directory.openFolder()
        } catch let error as AtomicFileError where error.code == ENOENT && options.createFolder {
            try? directory.createIfMissing()
            return try? directory.openFolder()
        } catch {
            return nil
        }
    }

    /// Makes this run's writes durable: new files, renames and deletions at once (the executor
    /// calls it before the journal records a batch's outcomes).
    public func flush() async throws {
        let directory = self.directory
        try await Self.offThread { try directory.makeDurable() }
    }

    /// The change token of a listing: a SHA-256 over the sorted `name etag` lines.
    static func token(for listing: VDirectory.Listing) -> ChangeToken {
        var hash = ListingHash()
        for i in 0..<listing.count { hash.add(href: listing.name(at: i), etag: listing.signatures[i].etag) }
        return hash.token
    }

    /// The same token, of versions in any order.
    static func token(for versions: [ItemVersion]) -> ChangeToken {
        var listing = ListingHash()
        // A listing comes sorted already: checking is linear, sorting is not.
        let ordered = zip(versions, versions.dropFirst()).allSatisfy {
            VDirectory.precedes($0.href.value, $1.href.value)
        }
        for v in ordered ? versions : versions.sorted(by: { VDirectory.precedes($0.href.value, $1.href.value) }) {
            listing.add(href: v.href.value, etag: v.etag.value)
        }
        return listing.token
    }

    /// A listing's token built a version at a time, in the folder's order (`VDirectory.precedes`).
    struct ListingHash {
        private var hasher = SHA256()
        /// Lines not yet hashed: handed to the hasher 64 KB at a time, not a line at a time
        /// (the digest is the same; the calls were a tenth of the token's cost).
        private var pending: [UInt8] = []

        mutating func add(href: String, etag: String) {
            var (href, etag) = (href, etag)
            href.withUTF8 { href in etag.withUTF8 { etag in add(href: href, etag: etag) } }
        }

        /// Adds a version given as the UTF-8 bytes of its href and etag.
        mutating func add(href: UnsafeBufferPointer<UInt8>, etag: UnsafeBufferPointer<UInt8>) {
            pending.append(contentsOf: href)
            pending.append(UInt8(ascii: "\t"))
            pending.append(contentsOf: etag)
            pending.append(UInt8(ascii: "\n"))
            if pending.count >= 65_536 { hashPending() }
        }

        private mutating func hashPending() {
            pending.withUnsafeBytes { hasher.update(bufferPointer: $0) }
            pending.removeAll(keepingCapacity: true)
        }

        var token: ChangeToken {
            mutating get {
                hashPending()
                return ChangeToken("vdir:" + ContentHash.hex(hasher.finalize()))
            }
        }
    }
}

extension VDirStorage: StreamingFetchingStorage {
    /// Every file, a batch at a time (each read on every core), after one listing: a pair whose
    /// remote is a folder (`file://`) pulls or takes over the first time as from a server, with a
    /// batch in memory rather than the folder.
    /// - Returns: the token of the listing the files were read from.
    public func fetchAll(batchSize: Int, into body: ([StoredItem]) async throws -> Void) async throws -> ChangeToken? {
        guard !folderIsUnmade else { return Self.token(for: []) }
        // The listing is held as names' bytes and signatures, a batch's hrefs made from it as
        // the batch is read: as versions, a 1,000,000-file folder's listing took 100 MB more
        // for the whole pull (a takeover's peak).
        let listing = try directory.list()
        var start = 0
        while start < listing.count {
            let end = min(start + max(batchSize, 1), listing.count)
            let batch = try await fetch((start..<end).map { ItemHref(listing.name(at: $0)) })
            start = end
            if !batch.isEmpty { try await body(batch) }
        }
        return Self.token(for: listing)
    }
}

extension VDirStorage: FileBackedStorage {
    /// The vdir's folder.
    public var folderPath: String { directory.url.path }
    /// The path of the file named `href`.
    public func path(of href: ItemHref) -> String { directory.path(href.value) }
}
