import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The loopback redirect of a browser sign-in (RFC 8252 §7.3): a listener bound to loopback
/// only, on a port the system picks. It takes one answer carrying the sign-in's `state`, shows
/// the browser a short page, and turns away anything else (a favicon, a forged answer).
///
/// The redirect names exactly the addresses listened on. `127.0.0.1` is one address. The name
/// `localhost` (Microsoft's registrations take no other http host) is two: a browser may try
/// [::1] first, so the listener holds the port on both 127.0.0.1 and [::1], trying other ports
/// while another program holds [::1] at the one picked. Where [::1] cannot be had (no IPv6 on
/// loopback, or every port tried is held there), the listener says `127.0.0.1` instead of a
/// name that may lead the browser, and the sign-in's code, to an address where calgw is not
/// listening, or another program is.
final class LoopbackListener: @unchecked Sendable {
    /// The host the redirect names: `127.0.0.1`, or `localhost` when both its addresses are held.
    let host: String
    let port: UInt16
    /// Why the host asked for could not be named (it is then `127.0.0.1`); nil when it is.
    let fallback: String?
    private let sockets: [Int32]

    /// How many ports a `localhost` listener tries while another program holds [::1] at them.
    static let portsTried = 8

    /// Binds the listener for `asked` (`127.0.0.1` or `localhost`).
    /// - Throws: ``SignInError`` `.misconfigured` when no loopback port can be had.
    init(host asked: String) throws {
        var (v4, port) = try Self.listenIPv4()
        var bound: (host: String, v6: Int32?, fallback: String?) = ("127.0.0.1", nil, nil)
        if asked == "localhost" {
            for attempt in 1...Self.portsTried {
                switch Self.listenIPv6(port: port) {
                case .listening(let v6):
                    bound = ("localhost", v6, nil)
                case .held where attempt < Self.portsTried:
                    // Another program has [::1] at this port: a browser resolving localhost
                    // there would hand it the code. Another port, then.
                    close(v4)
                    (v4, port) = try Self.listenIPv4()
                    continue
                case .held:
                    bound.fallback = "another program listens on [::1] at every port tried"
                case .unavailable(let why):
                    bound.fallback = "[::1] cannot be listened on here (\(why))"
                }
                break
            }
        }
        host = bound.host
        self.port = port
        fallback = bound.fallback
        sockets = [v4] + (bound.v6.map { [$0] } ?? [])
    }

    deinit { sockets.forEach { close($0) } }

    /// The redirect URI to register the sign-in with.
    var redirectURI: String { "http://\(host):\(port)/" }

    /// The browser's request that carried the answer, held open until the sign-in's outcome
    /// is known: the tab then says whether calgw is signed in, not only that the answer came.
    final class WaitingTab: @unchecked Sendable {
        private var connection: Int32

        init(_ connection: Int32) { self.connection = connection }
        deinit { close(signedIn: false, text: "The sign-in ended without an answer. See the terminal.") }

        /// Shows `text` in the tab (once) and closes the connection.
        func close(signedIn: Bool, text: String) {
            guard connection >= 0 else { return }
            LoopbackListener.respond(connection, status: signedIn ? "200 OK" : "400 Bad Request", text: text)
            Glibc.close(connection)
            connection = -1
        }
    }

    /// The answer's query parameters (`code` or `error`, and `state`), and the browser's tab
    /// waiting for the outcome.
    /// - Throws: ``SignInError`` `.timedOut` after `timeout` seconds without one.
    func answer(state: String, timeout: TimeInterval) async throws -> ([String: String], WaitingTab) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { [self] in
                continuation.resume(with: Result { try self.waitForAnswer(state: state, timeout: timeout) })
            }
        }
    }

    private func waitForAnswer(state: String, timeout: TimeInterval) throws -> ([String: String], WaitingTab) {
        let end = Date().addingTimeInterval(timeout)
        while true {
            let left = end.timeIntervalSinceNow
            guard left > 0 else {
                throw SignInError(
                    .timedOut, "no answer came from the browser within \(Int(timeout / 60)) minutes",
                    recovery: "run calgw login again; with --no-browser, paste the address the browser was sent to")
            }
            var polled = sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&polled, nfds_t(polled.count), Int32(min(left, 1) * 1000))
            guard ready > 0 else { continue }
            for entry in polled where entry.revents & Int16(POLLIN) != 0 {
                let connection = accept(entry.fd, nil, nil)
                guard connection >= 0 else { continue }
                guard let target = Self.requestTarget(connection) else {
                    close(connection)
                    continue
                }
                let parameters = Self.query(of: target)
                guard parameters["state"] == state, parameters["code"] != nil || parameters["error"] != nil else {
                    Self.respond(
                        connection, status: "400 Bad Request", text: "This is not the answer calgw is waiting for.")
                    close(connection)
                    continue
                }
                return (parameters, WaitingTab(connection))
            }
        }
    }

    /// The query of a redirected address (`code`, `state`, `error`, `error_description`),
    /// percent-decoded, `+` read as a space.
    static func query(of target: String) -> [String: String] {
        guard let start = target.firstIndex(of: "?") else { return [:] }
        var parameters: [String: String] = [:]
        for pair in target[target.index(after: start)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            if parts.count == 2, parameters[parts[0]] == nil { parameters[parts[0]] = parts[1] }
        }
        return parameters
    }

    /// The request line's target of a GET, read within 10 seconds; nil for anything else.
    private static func requestTarget(_ connection: Int32) -> String? {
        var limit = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.count < 16384 {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer[0..<count]
            if String(decoding: received, as: UTF8.self).contains("\r\n\r\n") { break }
        }
        let line = String(decoding: received, as: UTF8.self).split(separator: "\r\n", maxSplits: 1).first ?? ""
        let words = line.split(separator: " ")
        guard words.count >= 2, words[0] == "GET" else { return nil }
        return String(words[1])
    }

    static func respond(_ connection: Int32, status: String, text: String) {
        let escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        let body = "<!doctype html><meta charset=utf-8><title>calgw</title><p>\(escaped)</p>\n"
        let response =
            "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Cache-Control: no-store\r\nConnection: close\r\n\r\n" + body
        _ = response.utf8CString.withUnsafeBufferPointer {
            send(connection, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL))
        }
    }

    /// A listener on 127.0.0.1 at a port the system picks, and that port.
    private static func listenIPv4() throws -> (socket: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw failure("socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 8) == 0 else {
            let error = failure("bind 127.0.0.1")
            close(fd)
            throw error
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    /// What binding [::1] at a port came to.
    private enum IPv6Binding {
        case listening(Int32)
        /// Another socket has the port there.
        case held
        /// The machine has no IPv6 loopback to listen on (the system's words).
        case unavailable(String)
    }

    private static func listenIPv6(port: UInt16) -> IPv6Binding {
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .unavailable(String(cString: strerror(errno))) }
        var only: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &only, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = port.bigEndian
        address.sin6_addr = in6addr_loopback
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
        guard bound == 0, listen(fd, 8) == 0 else {
            let number = errno
            close(fd)
            return number == EADDRINUSE ? .held : .unavailable(String(cString: strerror(number)))
        }
        return .listening(fd)
    }

    private static func failure(_ step: String) -> SignInError {
        SignInError(
            .misconfigured, "cannot listen on loopback for the sign-in (\(step): \(String(cString: strerror(errno))))")
    }
}
