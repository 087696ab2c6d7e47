import Foundation

/// `calgw watch` running in the background, its stdout and stderr going to files, for tests
/// that change things and wait for the watcher to carry them over.
public final class WatchProcess {
    /// The running `calgw watch`.
    public let process = Process()
    /// Holds the output files; removed when the value goes.
    public let folder: URL
    /// Where its standard output goes.
    public var stdoutURL: URL { folder.appendingPathComponent("out") }
    /// Where its standard error goes.
    public var stderrURL: URL { folder.appendingPathComponent("err") }

    /// Starts `calgw watch ARGUMENTS` with `environment` added to this process's.
    public init(_ arguments: [String], environment: [String: String] = [:]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("calgw-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for url in [stdoutURL, stderrURL] where !FileManager.default.createFile(atPath: url.path, contents: nil) {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        process.executableURL = CalgwBinary.url
        process.arguments = ["watch"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(
            environment.merging(["NO_COLOR": "1"]) { a, _ in a }
        ) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// What it printed on standard output so far.
    public var stdoutText: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
    /// What it printed on standard error so far.
    public var stderrText: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// The `--json` lines printed so far.
    public var records: [[String: Any]] {
        stdoutText.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// Waits until `condition` holds or `limit` seconds pass (or the task is cancelled);
    /// returns whether it held. The task sleeps between looks, holding no thread.
    @discardableResult
    public static func wait(upTo limit: Double = 30, _ condition: () throws -> Bool) async rethrows -> Bool {
        let end = Date().addingTimeInterval(limit)
        while Date() < end && !Task.isCancelled {
            if try condition() { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return try condition()
    }

    /// Sends `signal` and waits for the exit; returns the exit status, nil when still running after `limit` s.
    public func stop(_ signal: Int32 = SIGTERM, limit: Double = 30) async -> Int32? {
        kill(process.processIdentifier, signal)
        guard await Self.wait(upTo: limit, { !process.isRunning }) else {
            process.terminate()
            return nil
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: folder)
    }
}
