import CalDAV
import Failures
import Foundation
import HTTP

/// Why a request to Microsoft Graph failed: the status and the code of Graph's error envelope
/// (`{"error": {"code", "message"}}`), or an answer calgw cannot read.
public enum GraphFailure: Sendable, Equatable {
    /// Graph answered `status` with its error `code` (`ErrorIrresolvableConflict`,
    /// `syncStateNotFound`, `ErrorAccessDenied`…).
    case refused(status: Int, code: String)
    /// The answer is not the JSON the request expects.
    case unreadableAnswer
    /// A delta round gave a page it had given before: following it would never end (a fault
    /// Graph is known for on calendars with endless series).
    case repeatedPage
}

extension GraphFailure: FailureCode {
    public var kind: FailureKind {
        if case .refused(401, _) = self { return .authentication }
        return .failed
    }
}

/// A failed request to Microsoft Graph (see ``GraphFailure``).
public typealias GraphError = CodedError<GraphFailure>

extension CodedError where Code == GraphFailure {
    /// The HTTP status Graph answered; nil for an unreadable answer.
    public var status: Int? {
        if case .refused(let status, _) = code { return status }
        return nil
    }

    /// Graph's error code; nil for an unreadable answer.
    public var graphCode: String? {
        if case .refused(_, let code) = code { return code }
        return nil
    }

    /// The error Graph's answer `response` to `method` carries.
    static func answer(_ response: HTTPResponse, method: String) -> GraphError {
        let body = try? JSONDecoder().decode(GraphErrorEnvelope.self, from: response.body).error
        let code = body?.code ?? "\(response.status)"
        let said = body?.message.map { ": \($0)" } ?? ""
        let path = response.url.path
        return GraphError(
            .refused(status: response.status, code: code),
            "Microsoft Graph answered \(method) \(path) with \(response.status) \(code)\(said)",
            recovery: recovery(status: response.status, code: code))
    }

    private static func recovery(status: Int, code: String) -> String? {
        switch status {
        case 401: "sign in again: calgw login"
        case 403: "the account may not do this in that calendar (a calendar shared read-only?)"
        case 429, 503, 504: "Microsoft is throttling or busy; run again later"
        default: nil
        }
    }
}

extension CodedError: StorageFailure where Code == GraphFailure {
    public var mayHaveLanded: Bool { status == 502 || status == 504 }
    public var isServerFailure: Bool { (status ?? 0) >= 500 }
    public var concernsEveryWrite: Bool { status == 403 }
    public var failsInServerCode: Bool { false }
    public var serverLine: String {
        status.map { "answered \($0) \(graphCode ?? "")" } ?? "answered what calgw cannot read"
    }
}

/// Graph's error answer: `{"error": {"code", "message", "innerError": {…}}}`.
private struct GraphErrorEnvelope: Decodable {
    struct Body: Decodable {
        var code: String?
        var message: String?
    }
    var error: Body?
}
