import Foundation

/// A pair's token on disk (`$XDG_STATE_HOME/calgw/<pair>.token.json`): mode 0600 in a folder
/// of mode 0700, replaced atomically (a new file beside it, fsynced, renamed over it, the
/// folder fsynced), so that a crash leaves the old token or the new one, never a torn file or
/// none: a provider that rotates refresh tokens has forgotten the old one by then. A file
/// others could read is refused, as ssh refuses a private key.
struct TokenFile: Sendable {
    let url: URL

    /// The token, or nil when there is no file.
    /// - Throws: ``SignInError``: `.tokenFileExposed` for a file others can read or write,
    ///   `.tokenFileUnreadable` for one that cannot be read or parsed.
    func read() throws -> StoredToken? {
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw SignInError(.tokenFileUnreadable, "cannot read \(url.path): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw SignInError(
                .tokenFileExposed,
                "the token file \(url.path) can be read by others (mode \(String(info.st_mode & 0o777, radix: 8)))",
                recovery: "run calgw logout for this pair (it revokes the token others may have read, then deletes "
                    + "the file), then calgw login again; or, if nobody else can log in here, chmod 600 \(url.path)")
        }
        guard info.st_uid == getuid() else {
            throw SignInError(
                .tokenFileExposed, "the token file \(url.path) belongs to another user",
                recovery: "delete it and run calgw login again")
        }
        try checkFolder()
        do {
            return try JSONDecoder().decode(StoredToken.self, from: Data(contentsOf: url))
        } catch {
            throw SignInError(
                .tokenFileUnreadable, "the token file \(url.path) is not calgw's",
                recovery: "delete it and run calgw login again", cause: error)
        }
    }

    /// Refuses a folder others can write in (the state folder, `$XDG_STATE_HOME/calgw`, unless
    /// the pair names another): they could put a token of theirs in the file's place, and the
    /// pair would sync as them. A folder with the sticky bit (`/tmp`) lets nobody replace
    /// another's file, and passes. A folder not made yet passes: calgw makes it with mode 0700.
    /// - Throws: ``SignInError`` `.tokenFileExposed`, naming the `chmod` that ends it.
    func checkFolder() throws {
        let folder = url.deletingLastPathComponent().path
        var info = stat()
        guard stat(folder, &info) == 0, info.st_mode & 0o022 != 0, info.st_mode & S_ISVTX == 0 else { return }
        throw SignInError(
            .tokenFileExposed,
            "the token file's folder \(folder) can be written by others (mode \(String(info.st_mode & 0o777, radix: 8)))",
            recovery: "chmod 700 \(folder)")
    }

    /// The token for revoking it, whatever the file's mode (a file others could read holds a
    /// token that may have leaked: revoking it matters most then); nil when there is none.
    /// - Throws: ``SignInError`` `.tokenFileExposed` for another user's file, `.tokenFileUnreadable`
    ///   for one that cannot be read or parsed.
    func readForRevocation() throws -> StoredToken? {
        do {
            return try read()
        } catch let error as SignInError where error.code == .tokenFileExposed {
            var info = stat()
            guard stat(url.path, &info) == 0, info.st_uid == getuid() else { throw error }
            guard let token = try? JSONDecoder().decode(StoredToken.self, from: Data(contentsOf: url)) else {
                throw error
            }
            return token
        }
    }

    /// Replaces the file with `token`, durably.
    /// - Throws: ``SignInError``: `.tokenFileExposed` for a folder others can write in (the
    ///   token would be theirs to replace), `.tokenFileUnreadable` when it cannot be written.
    func write(_ token: StoredToken) throws {
        try checkFolder()
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let data = try encoder.encode(token)
            let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).new")
            let fd = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            let written = data.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
            let synced = fsync(fd) == 0
            close(fd)
            guard written == data.count, synced, rename(temporary.path, url.path) == 0 else {
                let code = POSIXErrorCode(rawValue: errno) ?? .EIO
                unlink(temporary.path)
                throw POSIXError(code)
            }
            let folderFD = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if folderFD >= 0 {
                fsync(folderFD)
                close(folderFD)
            }
        } catch let error as SignInError {
            throw error
        } catch {
            throw SignInError(.tokenFileUnreadable, "cannot write the token file \(url.path): \(error)", cause: error)
        }
    }

    /// Deletes the file; true when there was one.
    @discardableResult
    func remove() throws -> Bool {
        guard unlink(url.path) == 0 else {
            if errno == ENOENT { return false }
            throw SignInError(.tokenFileUnreadable, "cannot delete \(url.path): \(String(cString: strerror(errno)))")
        }
        return true
    }

    /// Runs `body` holding the pair's token lock (`<file>.lock`, flock): two calgw processes
    /// renewing at once would each spend the refresh token, and a provider that rotates keeps
    /// only the second's.
    func locked<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        let folder = url.deletingLastPathComponent()
        try? FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let fd = open(url.path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw SignInError(.tokenFileUnreadable, "cannot open \(url.path).lock: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw SignInError(
                    .tokenFileUnreadable, "cannot lock \(url.path).lock: \(String(cString: strerror(errno)))")
            }
        }
        return try await body()
    }
}
