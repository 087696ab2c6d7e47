import CCurl
import Foundation

/// The production ``HTTPTransport``: libcurl's multi interface on a thread of its own
/// (`CurlEngine`), keeping connections alive and running at most `maxParallel` transfers at
/// once. Cancelling the sending task aborts its transfer.
final class CurlTransport: HTTPTransport {
    private let engine: CurlEngine

    /// - Parameter maxParallel: most transfers in flight at once; more wait their turn.
    /// - Throws: `HTTPError.invalidRequest` when libcurl cannot be initialised.
    init(maxParallel: Int) throws {
        engine = try CurlEngine(maxParallel: maxParallel)
    }

    deinit { engine.shutdown() }

    /// Runs `transfer` on the engine thread, the response going to `receiver` as libcurl reads it.
    func send(_ transfer: HTTPTransfer, to receiver: HTTPResponseReceiver) async throws -> HTTPTransferOutcome {
        let holder = TransferHolder()
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let curl = CurlTransfer(options: transfer, receiver: receiver) { continuation.resume(returning: $0) }
                holder.set(curl)
                engine.submit(curl)
            }
        } onCancel: {
            holder.cancel()
        }
        if outcome.code == CURLE_ABORTED_BY_CALLBACK { throw CancellationError() }
        // libcurl's own reading of the final status line is the one kept.
        if outcome.code == CURLE_OK { receiver.status = outcome.status }
        var result = HTTPTransferOutcome(failure: Self.failure(outcome), seconds: outcome.seconds)
        result.trace = outcome.trace
        return result
    }

    /// The kind of failure a libcurl result code is; nil for success.
    static func failure(_ outcome: CurlOutcome) -> HTTPTransferOutcome.Failure? {
        switch outcome.code {
        case CURLE_OK:
            return nil
        case CURLE_FILESIZE_EXCEEDED:
            return .init(.responseTooLarge, outcome.errorText)
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM:
            return .init(.tls, outcome.errorText)
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL, CURLE_FAILED_INIT, CURLE_BAD_FUNCTION_ARGUMENT:
            return .init(.invalidRequest, outcome.errorText)
        default:
            return .init(.connection, outcome.errorText)
        }
    }
}

/// Lets a cancellation handler reach a transfer created inside the continuation.
private final class TransferHolder: @unchecked Sendable {
    private let lock = NSLock()
    private var transfer: CurlTransfer?
    private var cancelled = false

    func set(_ transfer: CurlTransfer) {
        lock.lock()
        self.transfer = transfer
        let cancel = cancelled
        lock.unlock()
        if cancel { transfer.cancel() }
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let transfer = self.transfer
        lock.unlock()
        transfer?.cancel()
    }
}
