import CCurl
import Foundation

/// The header lines one transfer sent and received, as libcurl saw them on the wire, with
/// every credential blanked. Collected only when the client's logger is at `.trace`
/// (`calgw -vvv`), so that a person can see exactly what a server was asked and answered
/// without a password, token or cookie ever reaching a terminal or a log file.
struct WireTrace: Sendable {
    /// Lines in the order libcurl reported them: `* ` libcurl's own notes, `> ` sent,
    /// `< ` received.
    private(set) var lines: [String] = []

    /// Headers whose values are credentials; their scheme word is kept (`Basic`, `Bearer`).
    static let secretHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// Adds what libcurl reported for `type`; bodies are not kept.
    mutating func record(_ type: curl_infotype, _ bytes: UnsafeRawBufferPointer) {
        let marker: String
        switch type {
        case CURLINFO_TEXT: marker = "*"
        case CURLINFO_HEADER_OUT: marker = ">"
        case CURLINFO_HEADER_IN: marker = "<"
        default: return
        }
        let text = String(decoding: bytes, as: UTF8.self)
        for line in text.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }) where !line.isEmpty {
            lines.append("\(marker) \(Self.redacted(String(line)))")
        }
    }

    /// `line` with the value of a credential header replaced by `<redacted>`.
    static func redacted(_ line: String) -> String {
        guard let colon = line.firstIndex(of: ":") else { return line }
        let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        guard secretHeaders.contains(name) else { return line }
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        let scheme = name.hasSuffix("authorization") ? value.prefix { !$0.isWhitespace } : ""
        return "\(line[..<colon]): \(scheme.isEmpty ? "" : "\(scheme) ")<redacted>"
    }

    /// `lines` with every occurrence of the given secrets blanked too: the last guard, for
    /// a credential that reached a line some other way (a URL, a note of libcurl's).
    func scrubbed(of secrets: [String]) -> [String] {
        let secrets = secrets.filter { $0.count >= 3 }
        guard !secrets.isEmpty else { return lines }
        return lines.map { line in secrets.reduce(line) { $0.replacingOccurrences(of: $1, with: "<redacted>") } }
    }
}
