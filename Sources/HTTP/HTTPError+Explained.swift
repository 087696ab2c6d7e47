import Failures

extension HTTPError: ExplainedError {
    /// The code's name, e.g. `preconditionFailed`.
    public var errorCode: String { code.description }
    /// `.authentication` for refused credentials, so the command exits 5; `.failed` otherwise.
    public var kind: FailureKind { code == .authenticationFailed ? .authentication : .failed }
    /// The code, the HTTP status, the URL and the server's reason, in one line.
    public var details: [String] {
        var parts = [code.description]
        if let status { parts.append("HTTP \(status)") }
        if let url { parts.append(url.redactedString) }
        if let serverReason { parts.append("server: \(serverReason)") }
        return [parts.joined(separator: ", ")]
    }
}
