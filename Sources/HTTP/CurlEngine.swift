import CCurl
import Foundation

/// Runs transfers on one libcurl multi handle from a dedicated thread. The multi handle
/// keeps the connection cache, so connections are reused across requests; at most
/// `maxParallel` transfers run at once, the rest wait in order.
final class CurlEngine: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [CurlTransfer] = []
    private var stopping = false
    private let multi: UnsafeMutableRawPointer
    private let maxParallel: Int
    // Engine-thread state.
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    private var idle: [UnsafeMutableRawPointer] = []

    init(maxParallel: Int) throws {
        guard ccurl_global_init() == CURLE_OK, let multi = ccurl_multi_init() else {
            let why = String(cString: ccurl_load_error())
            throw HTTPError(
                .invalidRequest,
                why.isEmpty ? "libcurl could not be initialised" : "libcurl could not be loaded: \(why)",
                recovery: "install libcurl (Debian and Ubuntu: apt install libcurl4)")
        }
        self.multi = multi
        self.maxParallel = max(1, maxParallel)
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, self.maxParallel)
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, self.maxParallel * 2)
        let thread = Thread { [self] in self.run() }
        thread.name = "calgw-curl"
        thread.start()
    }

    /// Queues a transfer; its completion runs on the engine thread.
    func submit(_ transfer: CurlTransfer) {
        lock.lock()
        let refused = stopping
        if !refused { pending.append(transfer) }
        lock.unlock()
        if refused {
            transfer.completion(
                CurlOutcome(code: CURLE_ABORTED_BY_CALLBACK, errorText: "the HTTP client was shut down"))
            return
        }
        ccurl_multi_wakeup(multi)
    }

    /// Stops the thread once running transfers end; queued ones fail.
    func shutdown() {
        lock.lock()
        stopping = true
        lock.unlock()
        ccurl_multi_wakeup(multi)
    }

    private func run() {
        while true {
            lock.lock()
            let stop = stopping
            var starting: [CurlTransfer] = []
            if !stop {
                let room = maxParallel - active.count
                if room > 0 && !pending.isEmpty {
                    starting = Array(pending.prefix(room))
                    pending.removeFirst(starting.count)
                }
            }
            let abandoned = stop ? pending : []
            if stop { pending.removeAll() }
            lock.unlock()
            if stop {
                for transfer in abandoned {
                    transfer.completion(
                        CurlOutcome(code: CURLE_ABORTED_BY_CALLBACK, errorText: "the HTTP client was shut down"))
                }
                if active.isEmpty { break }
            }
            for transfer in starting { start(transfer) }

            var running: Int32 = 0
            ccurl_multi_perform(multi, &running)
            var handle: UnsafeMutableRawPointer?
            var result = CURLE_OK
            while ccurl_multi_next_done(multi, &handle, &result) != 0, let done = handle {
                finish(done, result)
            }
            if active.isEmpty && !stop {
                lock.lock()
                let more = !pending.isEmpty || stopping
                lock.unlock()
                if more { continue }
            }
            var ready: Int32 = 0
            ccurl_multi_poll(multi, 1000, &ready)
        }
        for handle in idle { ccurl_easy_cleanup(handle) }
        idle.removeAll()
        ccurl_multi_cleanup(multi)
    }

    private func start(_ transfer: CurlTransfer) {
        let handle: UnsafeMutableRawPointer
        if let reused = idle.popLast() {
            ccurl_easy_reset(reused)
            handle = reused
        } else if let fresh = ccurl_easy_init() {
            handle = fresh
        } else {
            transfer.completion(CurlOutcome(code: CURLE_FAILED_INIT, errorText: "libcurl could not create a handle"))
            return
        }
        let setup = transfer.configure(handle)
        if setup != CURLE_OK {
            transfer.freeHeaderList()
            idle.append(handle)
            transfer.completion(CurlOutcome(code: setup, errorText: String(cString: ccurl_easy_strerror(setup))))
            return
        }
        active[handle] = transfer
        ccurl_multi_add_handle(multi, handle)
    }

    private func finish(_ handle: UnsafeMutableRawPointer, _ result: CURLcode) {
        ccurl_multi_remove_handle(multi, handle)
        guard let transfer = active.removeValue(forKey: handle) else { return }
        let outcome = transfer.outcome(code: result, handle: handle)
        transfer.freeHeaderList()
        idle.append(handle)
        transfer.completion(outcome)
    }
}
