import CalDAV
import Foundation

extension GraphClient {
    /// Requests in one `$batch` at most (Graph's limit).
    static let batchLimit = 20

    /// The mailbox's address below the API's root, and that root: `…/v1.0/me/` is
    /// `/me/` below `…/v1.0`. `$batch` is posted to the root and names its requests below it.
    var batchRoot: (root: URL, below: String) {
        let text = mailbox.absoluteString
        let cut = text.range(of: "/me/", options: .backwards) ?? text.range(of: "/users/", options: .backwards)
        guard let cut else { return (mailbox, "/") }
        return (URL(string: String(text[..<cut.lowerBound]))!, String(text[cut.lowerBound...]))
    }

    /// GETs each of `paths` (below the mailbox: `events/{id}?…`) through `$batch`, twenty to a
    /// request, each stating the client's preferences and `prefer`. An answer throttled or failed for a while (429, 503, 504), or a read refused with
    /// a spurious 412, is asked again after
    /// the wait it names (else the HTTP client's backoff, doubling), up to ``batchAttempts`` times and
    /// ``batchWaitLimit`` seconds of waiting in all: a storm is waited out, not ridden forever.
    /// - Returns: each path's status and JSON body, in the order of `paths`.
    /// - Throws: ``GraphError`` when a batch itself is refused, or an answer stays throttled.
    func batchGET(_ paths: [String], prefer: [String] = []) async throws -> [(status: Int, body: Data)] {
        var results = [(status: Int, body: Data)?](repeating: nil, count: paths.count)
        var waited: TimeInterval = 0
        var start = 0
        while start < paths.count {
            var waiting = Array(start..<min(start + Self.batchLimit, paths.count))
            for attempt in 1...Self.batchAttempts {
                let answers = try await batch(waiting.map { (String($0), paths[$0]) }, prefer: prefer)
                var again: [Int] = []
                var wait = min(8, http.configuration.retryBaseDelay * pow(2, Double(attempt - 1)))
                for index in waiting {
                    guard let answer = answers[String(index)] else {
                        throw GraphError(.unreadableAnswer, "Microsoft Graph's $batch answer left out a request")
                    }
                    results[index] = (answer.status, answer.body)
                    // A spurious 412 on a read (Graph answers a few percent so) is asked again too.
                    if [412, 429, 503, 504].contains(answer.status) {
                        again.append(index)
                        wait = max(wait, answer.retryAfter ?? 0)
                    }
                }
                wait = min(wait, 30)
                if again.isEmpty || attempt == Self.batchAttempts || waited + wait > Self.batchWaitLimit { break }
                try await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000))
                waited += wait
                waiting = again
            }
            start += Self.batchLimit
        }
        return results.map { $0 ?? (0, Data()) }
    }

    /// Times a throttled request inside a `$batch` is asked in all.
    static let batchAttempts = 8
    /// Seconds one listing waits out throttled requests inside its `$batch`es at most.
    static let batchWaitLimit: TimeInterval = 120

    /// One `$batch` of GETs `(id, path below the mailbox)`, each stating `extra` preferences
    /// beside the client's own: each answer by its id.
    private func batch(_ requests: [(id: String, path: String)], prefer extra: [String]) async throws
        -> [String: BatchAnswer]
    {
        let (root, below) = batchRoot
        let prefer = (Self.preferences + extra).joined(separator: ", ")
        let body: [String: Any] = [
            "requests": requests.map { request in
                ["id": request.id, "method": "GET", "url": below + request.path, "headers": ["Prefer": prefer]]
            }
        ]
        let response = try await send(
            "POST", root.appendingPathComponent("$batch"), json: try JSONSerialization.data(withJSONObject: body),
            writesNothing: true)
        guard let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
            let answers = object["responses"] as? [[String: Any]]
        else {
            throw GraphError(.unreadableAnswer, "Microsoft Graph's $batch answer is not what calgw expects")
        }
        var byID: [String: BatchAnswer] = [:]
        for answer in answers {
            guard let id = answer["id"].map({ "\($0)" }), let status = answer["status"] as? Int else { continue }
            let headers = answer["headers"] as? [String: Any] ?? [:]
            let retry = headers.first { $0.key.lowercased() == "retry-after" }.flatMap { TimeInterval("\($0.value)") }
            let json =
                (answer["body"] as? [String: Any]).flatMap { try? JSONSerialization.data(withJSONObject: $0) } ?? Data()
            byID[id] = BatchAnswer(status: status, body: json, retryAfter: retry)
        }
        return byID
    }
}

/// One answer inside a `$batch` answer.
private struct BatchAnswer {
    var status: Int
    var body: Data
    var retryAfter: TimeInterval?
}
