import Foundation
import HTTP

/// A server that takes no `If-None-Match` (Google's CalDAV guide: no `If*` header but
/// If-Match): a create, which calgw makes with `If-None-Match: *` so that it never replaces
/// an item another client made under the same name, is then refused, or made without the
/// guard. Refused, the create is made again without the header once the name is found free
/// (a PROPFIND of it answers 404); from then on, for the rest of the run, every create asks
/// first. A server that ignores the header cannot be told from one that honours it: the sync
/// engine also keeps creates off the names its listing found taken.
enum IfNoneMatchRefusal {
    /// Whether `response` to a create with `If-None-Match: *` may refuse the header rather than
    /// the item: 400 Bad Request or 501 Not Implemented (a taken name is 412, a refused item's
    /// content 403, 415 or 422 with its reason). The create without the header tells which.
    static func mayBe(_ response: HTTPResponse) -> Bool { [400, 501].contains(response.status) }
}

extension CalDAVClient {
    /// A create without `If-None-Match`, made only when a PROPFIND finds the name free.
    /// - Returns: the PUT's answer, or a 412 of calgw's own making when the name is taken, which
    ///   the caller takes as the server's (the name is taken: pick another).
    func createWithoutIfNoneMatch(_ url: URL, data: Data, headers: [(name: String, value: String)]) async throws
        -> HTTPResponse
    {
        let probe = try await davRequest(
            "PROPFIND", url, depth: "0", body: DAVRequestBodies.propfind([.empty("d:getetag")]))
        guard probe.status == 404 else {
            guard probe.status == 207 else {
                throw HTTPError.status(probe.status, method: "PROPFIND", url: url, body: probe.body)
            }
            return HTTPResponse(
                status: 412, headers: [],
                body: Data("the name is taken (found before a create without If-None-Match)".utf8),
                url: url)
        }
        let response = try await http.send(HTTPRequest(method: "PUT", url: url, headers: headers, body: data))
        traits.observe(response)
        return response
    }
}
