import Foundation

/// An SMTP server on 127.0.0.1 that keeps every message it is given (`Scripts/smtp/sink.py`),
/// for tests that mail scheduling messages through a real submission client (msmtp). Stop it
/// with `stop()`.
public final class TestSMTPSink: @unchecked Sendable {
    /// The port it listens on.
    public let port: Int
    /// Where it writes the messages: `N.eml` and `N.json` (the envelope).
    public let folder: TemporaryFolder
    private let process: Process

    /// Starts a sink.
    /// - Throws: ``FixtureFailure`` when it does not start within ten seconds.
    public init() throws {
        folder = try TemporaryFolder(prefix: "calgw-smtp")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", TestPaths.packageRoot.appendingPathComponent("Scripts/smtp/sink.py").path, folder.url.path,
        ]
        process.environment = TestPaths.childEnvironment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.standardError
        try process.run()
        // The sink writes its port to a file once it listens.
        let portFile = folder.url.appendingPathComponent("port")
        let deadline = Date().addingTimeInterval(10)
        var port: Int?
        while port == nil, process.isRunning, Date() < deadline {
            port = (try? String(contentsOf: portFile, encoding: .utf8)).flatMap { Int($0) }
            if port == nil { Thread.sleep(forTimeInterval: 0.02) }
        }
        guard let port else {
            kill(process.processIdentifier, SIGKILL)
            folder.remove()
            throw FixtureFailure("the SMTP sink (Scripts/smtp/sink.py) did not start within 10 s")
        }
        self.port = port
    }

    deinit { stop() }

    /// Stops the sink and removes what it kept.
    public func stop() {
        if process.isRunning {
            // SIGKILL: the test process may block SIGTERM, and a child inherits the mask.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        folder.remove()
    }

    /// A message the sink was given: the envelope's sender and recipients, and the message.
    public struct Message: Sendable {
        public var from: String
        public var to: [String]
        public var data: Data
        public var text: String { String(decoding: data, as: UTF8.self) }
    }

    /// The messages given so far, in the order they came.
    public func messages() throws -> [Message] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
            .filter { $0.hasSuffix(".eml") }.sorted { Int($0.dropLast(4)) ?? 0 < Int($1.dropLast(4)) ?? 0 }
        return try names.map { name in
            let base = folder.url.appendingPathComponent(String(name.dropLast(4)))
            let envelope =
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: base.appendingPathExtension("json"))) as? [String: Any]
            return Message(
                from: envelope?["from"] as? String ?? "", to: envelope?["to"] as? [String] ?? [],
                data: try Data(contentsOf: base.appendingPathExtension("eml")))
        }
    }

    /// The config line of a pair that mails through this sink.
    public var configLine: String {
        "mail_command = [" + mailCommand.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
    }

    /// The mail command that hands a message to this sink, as a pair's `mail_command` names it.
    public var mailCommand: [String] {
        ["msmtp", "--host=127.0.0.1", "--port=\(port)", "--auth=off", "--tls=off", "--read-envelope-from", "-t"]
    }
}
