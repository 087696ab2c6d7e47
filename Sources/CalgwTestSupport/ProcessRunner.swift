import Foundation

/// Runs an outside program (a python reference, the built `calgw`, a server script) and
/// collects what it printed. Output goes through temporary files, so a chatty program can
/// never block on a full pipe.
public enum ProcessRunner {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: Data
        public var stderr: Data

        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// Runs `executable` (a path, or a name looked up on PATH) with `arguments`.
    /// - Throws: when the program cannot be started.
    public static func run(_ executable: String, _ arguments: [String] = [], stdin: Data? = nil,
                           environment: [String: String]? = nil, currentDirectory: URL? = nil) throws -> Result {
        let process = Process()
        if executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("calgw-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appendingPathComponent("out"), errURL = folder.appendingPathComponent("err")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: outURL), errHandle = try FileHandle(forWritingTo: errURL)
        process.standardOutput = outHandle
        process.standardError = errHandle
        if let stdin {
            let inURL = folder.appendingPathComponent("in")
            try stdin.write(to: inURL)
            process.standardInput = try FileHandle(forReadingFrom: inURL)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        return Result(status: process.terminationStatus, stdout: try Data(contentsOf: outURL), stderr: try Data(contentsOf: errURL))
    }

    /// Runs a python script with `python3`, giving `input` as JSON on stdin and decoding JSON
    /// from its stdout.
    /// - Throws: `ProcessFailure` with the script's stderr when it exits non-zero.
    public static func python<Input: Encodable, Output: Decodable>(_ script: URL, input: Input, as: Output.Type) throws -> Output {
        let result = try run("python3", [script.path], stdin: try JSONEncoder().encode(input))
        guard result.status == 0 else {
            throw ProcessFailure(command: "python3 \(script.lastPathComponent)", status: result.status, stderr: result.stderrText)
        }
        return try JSONDecoder().decode(Output.self, from: result.stdout)
    }
}

/// An outside program exited with an error.
public struct ProcessFailure: Error, CustomStringConvertible {
    public var command: String
    public var status: Int32
    public var stderr: String

    public var description: String { "\(command) exited with \(status): \(stderr.suffix(2000))" }
}
