import CalDAV
import Foundation
import HTTP

/// A CalDAV request's failure, as the engine asks of any storage's (``StorageFailure``).
extension HTTPError: StorageFailure {
    public var mayHaveLanded: Bool { code == .connectionFailed || status == 502 || status == 504 }

    public var isServerFailure: Bool { code == .connectionFailed || (status ?? 0) >= 500 }

    public var concernsEveryWrite: Bool { code == .insufficientStorage }

    public var failsInServerCode: Bool { status == 500 }

    public var serverLine: String {
        let answered = status.map { "answered \($0)" } ?? "failed"
        return serverReason.map { "\(answered): \($0)" } ?? answered
    }
}
