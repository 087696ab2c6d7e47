import Failures
import Foundation
import Logging

/// An HTTP/1.1 and HTTP/2 client on libcurl's multi interface: connections are kept alive
/// and reused, at most `maxParallelTransfers` requests are in flight (more wait their turn),
/// responses are capped in size, safe requests are retried with backoff, and redirects of
/// reading requests are followed without leaking credentials.
///
/// Make one client per server and share it; it is safe to call from many tasks at once.
///
/// ```swift
/// let client = try HTTPClient(configuration: .init(authentication: .basic(username: "alice", password: secret)))
/// let response = try await client.send(HTTPRequest(method: "GET", url: eventURL))
/// ```
public final class HTTPClient: Sendable {
    /// The settings the client was made with.
    public let configuration: HTTPClientConfiguration
    /// Where requests leave for the wire: libcurl unless the client was made with another.
    private let transport: any HTTPTransport
    private let logger: Logger
    /// For `.any` credentials: whether the server turned out to want more than Basic.
    private let basicRefused = LockedFlag()

    /// - Parameters:
    ///   - configuration: credentials, TLS, limits and retry settings.
    ///   - logger: receives one debug line per request (method, URL without credentials,
    ///     status, size, time) and, at `.trace`, the header lines sent and received with
    ///     every credential blanked.
    /// - Throws: `HTTPError.invalidRequest` when libcurl cannot be initialised.
    public init(configuration: HTTPClientConfiguration = .init(), logger: Logger = Logger(label: "calgw.http")) throws {
        self.configuration = configuration
        self.logger = logger
        self.transport = try CurlTransport(maxParallel: configuration.maxParallelTransfers)
    }

    /// A client sending through `transport` instead of libcurl: everything the client decides
    /// (redirects, retries, credentials, errors) works as with libcurl, against whatever the
    /// transport answers. For tests, with the test support's `ScriptedTransport`.
    /// - Parameters:
    ///   - configuration: credentials, limits and retry settings; TLS and timeouts apply as
    ///     far as the transport honours them.
    ///   - transport: sends each attempt at a request.
    ///   - logger: as for `init(configuration:logger:)`.
    public init(
        configuration: HTTPClientConfiguration = .init(), transport: any HTTPTransport,
        logger: Logger = Logger(label: "calgw.http")
    ) {
        self.configuration = configuration
        self.logger = logger
        self.transport = transport
    }

    /// Sends `request` and returns the final response, whatever its status, except:
    /// - Throws: `CancellationError` when the task is cancelled (the transfer is aborted).
    /// - Throws: `HTTPError` with `.authenticationFailed` on 401 (after one bearer refresh),
    ///   `.connectionFailed` / `.tlsVerificationFailed` when no response came (after retries),
    ///   `.responseTooLarge` past the body cap, `.redirectRefused` for an unsafe or endless redirect
    ///   (https → http, or to a URL that is not http or https).
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await send(request, sink: nil)
    }

    /// Sends `request` as `send(_:)` does, handing a 2xx body to `sink` as it arrives: the
    /// returned response then has an empty body, and no size cap applies. A request whose
    /// body has begun to reach the sink is never retried (the sink would see bytes twice): a
    /// connection lost midway throws `.connectionFailed`, and the caller drops what it read.
    /// - Throws: as `send(_:)`, and what the sink threw.
    public func send(_ request: HTTPRequest, streamingTo sink: HTTPBodySink) async throws -> HTTPResponse {
        try await send(request, sink: sink)
    }

    private func send(_ request: HTTPRequest, sink: HTTPBodySink?) async throws -> HTTPResponse {
        var current = request
        var sameOrigin = true
        var refreshedToken = false
        var hops = 0
        while true {
            let response = try await sendWithRetries(
                current, withCredentials: sameOrigin, refreshToken: false, sink: sink)
            var final = response
            if final.status == 401, case .bearer = configuration.authentication, sameOrigin, !refreshedToken {
                refreshedToken = true
                final = try await sendWithRetries(current, withCredentials: true, refreshToken: true, sink: sink)
            }
            if final.status == 401, sameOrigin, case .any = configuration.authentication, !basicRefused.value,
                Self.sendsBasicFirst(current.url)
            {
                // Basic was sent up front and refused: from now on let libcurl answer the
                // server's challenge (Digest), and repeat this request once that way.
                basicRefused.set()
                final = try await sendWithRetries(current, withCredentials: true, refreshToken: false, sink: sink)
            }
            if final.status == 401 {
                throw HTTPError.status(
                    401, method: current.method, url: current.url, body: final.body,
                    reason: ServerText.firstMeaningfulLine(of: final.body))
            }
            guard [301, 302, 303, 307, 308].contains(final.status), let location = final.header("Location") else {
                return final
            }
            guard current.followsRedirects else {
                // A write is made where it was meant or not at all.
                throw HTTPError(
                    .redirectRefused,
                    "\(current.method) \(current.url.redactedString) was redirected (\(final.status)) to \(location); "
                        + "calgw does not send a write again to another place",
                    recovery: "the calendar has moved: point the pair at its new URL (calgw discover shows it)",
                    status: final.status, url: current.url)
            }
            guard let target = URL(string: location, relativeTo: current.url)?.absoluteURL else {
                throw HTTPError(
                    .redirectRefused,
                    "\(current.method) \(current.url.redactedString) redirected to an unreadable location",
                    status: final.status, url: current.url)
            }
            hops += 1
            if hops > configuration.maxRedirects {
                throw HTTPError(
                    .redirectRefused,
                    "\(request.method) \(request.url.redactedString) was redirected more than \(configuration.maxRedirects) times",
                    recovery: "the server redirects in a loop; use the final URL of the collection directly",
                    status: final.status, url: request.url)
            }
            // libcurl speaks file:, gopher:, smtp: and more: a server's Location must not reach them.
            guard let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
                throw HTTPError(
                    .redirectRefused,
                    "\(current.url.redactedString) redirected to \(target.redactedString), which is not an HTTP URL",
                    recovery: "use the http or https URL the server serves directly", status: final.status,
                    url: current.url)
            }
            if current.url.scheme?.lowercased() == "https" && target.scheme?.lowercased() != "https" {
                throw HTTPError(
                    .redirectRefused,
                    "\(current.url.redactedString) redirected from https to \(target.redactedString); calgw does not downgrade to plain HTTP",
                    recovery: "use an https URL the server serves directly", status: final.status, url: current.url)
            }
            if !Self.keepsCredentials(from: request.url, to: target) { sameOrigin = false }
            logger.debug(
                "following redirect",
                metadata: ["from": "\(current.url.redactedString)", "to": "\(target.redactedString)"])
            current.url = target
        }
    }

    /// The credentials a request carries. `.any` sends Basic with the first request where the
    /// password cannot be overheard (https, or loopback), saving the 401 round trip libcurl's
    /// negotiation costs on every request; a server that refuses Basic gets negotiation.
    func effectiveAuthentication(for url: URL) -> HTTPAuthentication {
        guard case .any(let user, let password) = configuration.authentication, !basicRefused.value,
            Self.sendsBasicFirst(url)
        else { return configuration.authentication }
        return .basic(username: user, password: password)
    }

    static func sendsBasicFirst(_ url: URL) -> Bool {
        if url.scheme?.lowercased() == "https" { return true }
        let host = url.host?.lowercased() ?? ""
        return host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    /// Whether the credentials for `origin` may follow a redirect to `target`: within one
    /// origin, or from http to https on the same host and default ports (a server that moves
    /// every client to TLS), where they travel better protected than before.
    static func keepsCredentials(from origin: URL, to target: URL) -> Bool {
        if sameOrigin(target, origin) { return true }
        guard origin.scheme?.lowercased() == "http", target.scheme?.lowercased() == "https",
            let host = origin.host?.lowercased(), host == target.host?.lowercased()
        else { return false }
        return (origin.port ?? 80) == 80 && (target.port ?? 443) == 443
    }

    public static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        func port(_ url: URL) -> Int? {
            url.port ?? (url.scheme?.lowercased() == "https" ? 443 : url.scheme?.lowercased() == "http" ? 80 : nil)
        }
        return a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
            && port(a) == port(b)
    }

    private func sendWithRetries(
        _ request: HTTPRequest, withCredentials: Bool, refreshToken: Bool,
        sink: HTTPBodySink?
    ) async throws -> HTTPResponse {
        var attempt = 0
        while true {
            var token: String?
            if withCredentials, case .bearer(let provider) = configuration.authentication {
                do {
                    token = try await provider.token(refresh: refreshToken && attempt == 0)
                } catch let error as any ExplainedError {
                    throw error  // a sign-in's own error names its remedy (calgw login)
                } catch {
                    throw HTTPError(
                        .authenticationFailed, "the bearer token could not be obtained: \(error.localizedDescription)",
                        recovery: "check the token command")
                }
            }
            let transfer = HTTPTransfer(
                request: request,
                authentication: withCredentials ? effectiveAuthentication(for: request.url) : .none,
                bearerToken: token, configuration: configuration,
                tracesWire: logger.logLevel <= .trace)
            let receiver = HTTPResponseReceiver(
                url: request.url, sink: sink, maxBodyBytes: configuration.maxResponseBytes)
            try Task.checkCancellation()
            let outcome = try await transport.send(transfer, to: receiver)
            logWire(outcome.trace, bearerToken: token)
            if let error = receiver.sinkError { throw error }
            let retryable: Bool
            var serverDelay: TimeInterval?
            if let failure = outcome.failure {
                let error = Self.transportError(
                    failure, exceededCap: receiver.exceededCap, request: request, configuration: configuration)
                guard error.code == .connectionFailed, request.isRetrySafe, attempt < configuration.maxRetries,
                    receiver.streamedBytes == 0
                else { throw error }
                logger.debug(
                    "HTTP transport error, retrying",
                    metadata: ["url": "\(request.url.redactedString)", "error": "\(failure.text)"])
            } else {
                logger.debug(
                    "HTTP",
                    metadata: [
                        "method": "\(request.method)", "url": "\(request.url.redactedString)",
                        "status": "\(receiver.status)", "bytes": "\(receiver.body.count + receiver.streamedBytes)",
                        "seconds": "\(String(format: "%.3f", outcome.seconds))",
                    ])
                // A rate limit refuses the request before doing it: asking again is safe for any.
                let rateLimited = RateLimitAnswer.matches(
                    status: receiver.status, body: receiver.body, bareDAVError: configuration.bareDAVErrorIsRateLimit)
                retryable = rateLimited || [502, 503, 504].contains(receiver.status)
                if retryable { serverDelay = Self.retryAfter(receiver.headers) }
                if !retryable || !(request.isRetrySafe || rateLimited) || attempt >= configuration.maxRetries
                    || receiver.streamedBytes > 0
                {
                    return HTTPResponse(
                        status: receiver.status, headers: receiver.headers, body: receiver.body, url: request.url,
                        rateLimited: rateLimited)
                }
            }
            attempt += 1
            let backoff = configuration.retryBaseDelay * pow(2, Double(attempt - 1)) * Double.random(in: 0.75...1.25)
            let delay = min(configuration.maxRetryDelay, max(serverDelay ?? 0, backoff))
            try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
        }
    }

    /// Logs a traced transfer's header lines at `.trace`, credentials blanked twice over: by
    /// header name, and by the secrets themselves wherever else they might stand.
    private func logWire(_ trace: WireTrace, bearerToken: String?) {
        guard !trace.lines.isEmpty else { return }
        var secrets = [bearerToken].compactMap { $0 }
        switch configuration.authentication {
        case .basic(_, let password), .digest(_, let password), .any(_, let password): secrets.append(password)
        case .none, .bearer: break
        }
        for line in trace.scrubbed(of: secrets) { logger.trace("\(line)") }
    }

    /// Seconds to wait from a Retry-After header (delta-seconds or an HTTP date).
    static func retryAfter(_ headers: [(name: String, value: String)]) -> TimeInterval? {
        guard let value = headers.first(where: { $0.name.caseInsensitiveCompare("Retry-After") == .orderedSame })?.value
        else { return nil }
        if let seconds = Double(value.trimmingCharacters(in: .whitespaces)) { return max(0, seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: value).map { max(0, $0.timeIntervalSinceNow) }
    }

    /// The error for a transfer that ended without a complete response.
    /// - Parameter exceededCap: the body passed the size cap (the receiver stopped the transfer).
    static func transportError(
        _ failure: HTTPTransferOutcome.Failure, exceededCap: Bool, request: HTTPRequest,
        configuration: HTTPClientConfiguration
    ) -> HTTPError {
        let target = "\(request.method) \(request.url.redactedString)"
        switch exceededCap ? .responseTooLarge : failure.kind {
        case .responseTooLarge:
            return HTTPError(
                .responseTooLarge,
                "the response to \(target) is larger than the \(configuration.maxResponseBytes) byte limit",
                recovery: "raise the response size limit, or sync a smaller collection or time window", url: request.url
            )
        case .tls:
            return HTTPError(
                .tlsVerificationFailed, "the TLS connection for \(target) failed: \(failure.text)",
                recovery: "if the server uses a private CA, give its certificate as ca_file; check verify_fingerprint",
                url: request.url)
        case .invalidRequest:
            return HTTPError(.invalidRequest, "\(target) could not be sent: \(failure.text)", url: request.url)
        case .connection:
            return HTTPError(
                .connectionFailed, "\(target) failed: \(failure.text)",
                recovery: "check the network and that the server is running; rerunning is safe", url: request.url)
        }
    }
}

/// A flag set once, read from any thread.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var state = false
    var value: Bool { lock.withLock { state } }
    func set() { lock.withLock { state = true } }
}
