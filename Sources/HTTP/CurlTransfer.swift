import CCurl
import Foundation

/// What one libcurl transfer ended with: libcurl's result code and what it knows of the
/// transfer. The response itself went to the transfer's `HTTPResponseReceiver`.
struct CurlOutcome: Sendable {
    var code: CURLcode
    /// The status of the final response (libcurl's CURLINFO_RESPONSE_CODE).
    var status = 0
    /// libcurl's description of `code`, when it is an error.
    var errorText: String
    /// What was said on the wire, when the transfer was traced.
    var trace = WireTrace()
    /// Seconds from the start of the transfer to its end (libcurl's total time).
    var seconds: Double = 0
}

/// One transfer in flight on the engine thread: owns its header list and hands the response
/// to its receiver. Touched only on the engine thread once submitted.
final class CurlTransfer: @unchecked Sendable {
    /// What to send, decided by `HTTPClient` (which strips credentials where they must not go).
    let options: HTTPTransfer
    /// Where the status line, headers and body go as they arrive.
    let receiver: HTTPResponseReceiver
    let completion: @Sendable (CurlOutcome) -> Void
    var trace = WireTrace()
    private let cancelLock = NSLock()
    private var cancelled = false
    private var headerList: UnsafeMutablePointer<curl_slist>?

    init(options: HTTPTransfer, receiver: HTTPResponseReceiver, completion: @escaping @Sendable (CurlOutcome) -> Void) {
        self.options = options
        self.receiver = receiver
        self.completion = completion
    }

    deinit { freeHeaderList() }

    /// Asks the engine to abort the transfer at its next progress callback.
    func cancel() {
        cancelLock.lock()
        cancelled = true
        cancelLock.unlock()
    }

    var isCancelled: Bool {
        cancelLock.lock()
        defer { cancelLock.unlock() }
        return cancelled
    }

    func freeHeaderList() {
        if let headerList { ccurl_slist_free_all(headerList) }
        headerList = nil
    }

    /// Sets every option of `handle` (a reset easy handle) for this transfer.
    /// - Returns: the first setup error, if any.
    func configure(_ handle: UnsafeMutableRawPointer) -> CURLcode {
        let request = options.request
        let config = options.configuration
        var failure = CURLE_OK
        func check(_ code: CURLcode) { if failure == CURLE_OK && code != CURLE_OK { failure = code } }
        func setLong(_ option: CURLoption, _ value: Int) { check(ccurl_easy_setopt_long(handle, option, value)) }
        func setString(_ option: CURLoption, _ value: String) { check(ccurl_easy_setopt_string(handle, option, value)) }

        setString(CURLOPT_URL, request.url.absoluteString)
        // libcurl speaks file, gopher, dict, … too; calgw asks only HTTP(S) of it, whatever a
        // configuration or a server's answer names.
        setString(CURLOPT_PROTOCOLS_STR, "http,https")
        setLong(CURLOPT_NOSIGNAL, 1)
        setLong(CURLOPT_TCP_KEEPALIVE, 1)
        setLong(CURLOPT_FOLLOWLOCATION, 0)
        setString(CURLOPT_USERAGENT, config.userAgent)
        setLong(CURLOPT_CONNECTTIMEOUT_MS, Int(config.connectTimeout * 1000))
        setLong(CURLOPT_TIMEOUT_MS, Int(config.requestTimeout * 1000))
        if config.acceptCompressedResponses { setString(CURLOPT_ACCEPT_ENCODING, "") }
        setLong(CURLOPT_SSL_VERIFYPEER, config.verifyTLS ? 1 : 0)
        setLong(CURLOPT_SSL_VERIFYHOST, config.verifyTLS ? 2 : 0)
        if let caFile = config.caFile { setString(CURLOPT_CAINFO, caFile) }
        if let pin = config.pinnedPublicKey { setString(CURLOPT_PINNEDPUBLICKEY, pin) }
        if config.maxResponseBytes > 0 && !receiver.streamsBody {
            check(ccurl_easy_setopt_off_t(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(config.maxResponseBytes)))
        }

        switch options.authentication {
        case .none, .bearer: break
        case .basic(let user, let password):
            setLong(CURLOPT_HTTPAUTH, Int(bitPattern: UInt(ccurl_auth_basic())))
            setString(CURLOPT_USERNAME, user)
            setString(CURLOPT_PASSWORD, password)
        case .digest(let user, let password):
            setLong(CURLOPT_HTTPAUTH, Int(bitPattern: UInt(ccurl_auth_digest())))
            setString(CURLOPT_USERNAME, user)
            setString(CURLOPT_PASSWORD, password)
        case .any(let user, let password):
            setLong(CURLOPT_HTTPAUTH, Int(bitPattern: UInt(ccurl_auth_any())))
            setString(CURLOPT_USERNAME, user)
            setString(CURLOPT_PASSWORD, password)
        }

        var list: UnsafeMutablePointer<curl_slist>?
        for header in request.headers {
            list = ccurl_slist_append(list, "\(header.name): \(header.value)")
        }
        if let token = options.bearerToken {
            list = ccurl_slist_append(list, "Authorization: Bearer \(token)")
        }
        list = ccurl_slist_append(list, "Expect:")
        headerList = list
        check(ccurl_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, list))

        let method = request.method.uppercased()
        if method == "HEAD" {
            setLong(CURLOPT_NOBODY, 1)
        } else if method == "GET" && request.body == nil {
            setLong(CURLOPT_HTTPGET, 1)
        } else {
            setString(CURLOPT_CUSTOMREQUEST, method)
        }
        if let body = request.body {
            check(ccurl_easy_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
            body.withUnsafeBytes { raw in
                // COPYPOSTFIELDS copies the bytes, so the buffer need not outlive this call.
                let base = raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
                check(
                    ccurl_easy_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: base)))
            }
        }

        let me = Unmanaged.passUnretained(self).toOpaque()
        check(ccurl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, me))
        check(ccurl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, me))
        check(ccurl_easy_setopt_pointer(handle, CURLOPT_XFERINFODATA, me))
        setLong(CURLOPT_NOPROGRESS, 0)
        check(
            ccurl_easy_setopt_xferinfo_callback(handle) { user, _, _, _, _ in
                Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue().isCancelled ? 1 : 0
            })
        check(
            ccurl_easy_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION) { data, size, count, user in
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue()
                let length = size * count
                return transfer.receiver.receive(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
            })
        check(
            ccurl_easy_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION) { data, size, count, user in
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue()
                let length = size * count
                guard let data else { return length }
                transfer.receivedHeaderLine(
                    UnsafeRawBufferPointer(start: data, count: length).bindMemory(to: UInt8.self))
                return length
            })
        if options.tracesWire {
            setLong(CURLOPT_VERBOSE, 1)
            check(ccurl_easy_setopt_pointer(handle, CURLOPT_DEBUGDATA, me))
            check(
                ccurl_easy_setopt_debug_callback(handle) { _, type, data, size, user in
                    let transfer = Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue()
                    if let data { transfer.trace.record(type, UnsafeRawBufferPointer(start: data, count: size)) }
                    return 0
                })
        }
        return failure
    }

    /// A status line starts a new response (after 100 Continue or an auth challenge); other
    /// lines are `name: value`. Parsed on bytes: this runs for every header of every response.
    func receivedHeaderLine(_ line: UnsafeBufferPointer<UInt8>) {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        if line.count >= 5 && line[0] == UInt8(ascii: "H") && line[1] == UInt8(ascii: "T")
            && line[2] == UInt8(ascii: "T")
            && line[3] == UInt8(ascii: "P") && line[4] == UInt8(ascii: "/")
        {
            receiver.startResponse(status: Self.statusCode(line))
            return
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return }
        var nameEnd = colon
        while nameEnd > 0 && isSpace(line[nameEnd - 1]) { nameEnd -= 1 }
        var valueStart = colon + 1
        var valueEnd = line.count
        while valueStart < valueEnd && isSpace(line[valueStart]) { valueStart += 1 }
        while valueEnd > valueStart && isSpace(line[valueEnd - 1]) { valueEnd -= 1 }
        let name = String(decoding: UnsafeBufferPointer(rebasing: line[0..<nameEnd]), as: UTF8.self)
        let value = String(decoding: UnsafeBufferPointer(rebasing: line[valueStart..<valueEnd]), as: UTF8.self)
        receiver.addHeader(name: name, value: value)
    }

    /// The code in a status line (`HTTP/1.1 207 Multi-Status`, `HTTP/2 200`); 0 when unreadable.
    static func statusCode(_ line: UnsafeBufferPointer<UInt8>) -> Int {
        guard let space = line.firstIndex(of: UInt8(ascii: " ")) else { return 0 }
        var code = 0, digits = 0, i = space + 1
        while i < line.count, digits < 3, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(line[i]) {
            code = code * 10 + Int(line[i] - UInt8(ascii: "0"))
            digits += 1
            i += 1
        }
        return digits == 3 ? code : 0
    }

    func outcome(code: CURLcode, handle: UnsafeMutableRawPointer) -> CurlOutcome {
        var status = 0
        _ = ccurl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var seconds = 0.0
        _ = ccurl_easy_getinfo_double(handle, CURLINFO_TOTAL_TIME, &seconds)
        let text = code == CURLE_OK ? "" : String(cString: ccurl_easy_strerror(code))
        return CurlOutcome(code: code, status: status, errorText: text, trace: trace, seconds: seconds)
    }
}
