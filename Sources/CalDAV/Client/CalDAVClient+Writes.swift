import Foundation
import HTTP

extension CalDAVClient {
    /// Writes a calendar object: creates it (`.createOnly`, `If-None-Match: *`) or replaces
    /// the version `etag` (`.ifMatch`). A `.copy` (the default) asks a scheduling server to
    /// send no invitation or update for it (see ``SchedulingIntent``).
    /// - Returns: the new etag; asked for when the PUT response has none (see ``write(_:data:condition:scheduling:)``).
    /// - Throws: `HTTPError` `.preconditionFailed` (412: taken, or changed since read),
    ///   `.forbidden` (403, with the server's precondition as `serverReason`),
    ///   `.insufficientStorage` (507), `.unexpectedStatus` (415 and others).
    @discardableResult
    public func put(_ url: URL, data: Data, condition: WriteCondition, scheduling: SchedulingIntent = .copy)
        async throws -> ETag
    {
        try await write(url, data: data, condition: condition, scheduling: scheduling).etag
    }

    /// Writes a calendar object as ``put(_:data:condition:scheduling:)`` does, and says what the
    /// server keeps of it. A server that changes what it stores answers the PUT without an
    /// ETag (RFC 4791 §5.3.4): one that schedules adds SCHEDULE-STATUS to each attendee of a
    /// meeting it sends invitations for (RFC 6638 §3.2). The stored version is then read back
    /// by GET (one request, as the PROPFIND for the etag alone would cost), so the caller can
    /// keep the server's version instead of the bytes it sent.
    public func write(_ url: URL, data: Data, condition: WriteCondition, scheduling: SchedulingIntent = .copy)
        async throws -> StoredWrite
    {
        let headers: [(name: String, value: String)] =
            [("Content-Type", "text/calendar; charset=utf-8")]
            + scheduling.headers(for: "PUT", scheduleReplySwitches: traits.scheduleReplySwitchesScheduling)
        var response: HTTPResponse
        switch condition {
        case .createOnly where traits.refusesIfNoneMatch:
            response = try await createWithoutIfNoneMatch(url, data: data, headers: headers)
        case .createOnly:
            response = try await http.send(
                HTTPRequest(method: "PUT", url: url, headers: headers + [("If-None-Match", "*")], body: data))
            traits.observe(response)
            if IfNoneMatchRefusal.mayBe(response) {
                let again = try await createWithoutIfNoneMatch(url, data: data, headers: headers)
                if again.isSuccess { traits.noteRefusesIfNoneMatch() }
                response = again
            }
        case .ifMatch(let etag):
            response = try await http.send(
                HTTPRequest(method: "PUT", url: url, headers: headers + [("If-Match", etag.value)], body: data))
        case .ifScheduleTagMatch(let tag):
            response = try await http.send(
                HTTPRequest(
                    method: "PUT", url: url, headers: headers + [("If-Schedule-Tag-Match", tag.value)], body: data))
        }
        traits.observe(response)
        guard response.isSuccess else {
            throw failure(response, method: "PUT", url: url)
        }
        if let etag = response.header("ETag"), !etag.isEmpty, !traits.readsBackWrites {
            return StoredWrite(etag: ETag(etag), scheduleTag: ScheduleTag(response.header("Schedule-Tag")))
        }
        let stored = try await get(url)
        guard !stored.etag.value.isEmpty else { return StoredWrite(etag: try await etag(of: url)) }
        return StoredWrite(
            etag: stored.etag, scheduleTag: stored.scheduleTag, rewritten: stored.data == data ? nil : stored.data)
    }

    /// The current etag of one resource (PROPFIND Depth 0).
    public func etag(of url: URL) async throws -> ETag {
        let (answer, _) = try await multistatus(
            "PROPFIND", url, depth: "0", body: DAVRequestBodies.propfind([.empty("d:getetag")]))
        guard let etag = answer.responses.first?.text(XMLNamespace.dav, "getetag") else {
            throw HTTPError(
                .invalidResponse, "the server gave no ETag for \(url.redactedString)",
                recovery: "this server cannot be synced safely without ETags", url: url)
        }
        return ETag(etag)
    }

    /// Deletes a resource only if its etag is still `etag`. A `.copy` (the default) asks a
    /// scheduling server to send no cancellation or decline for it (see ``SchedulingIntent``).
    /// - Throws: `HTTPError` `.preconditionFailed` (412), `.notFound` (already gone).
    public func delete(_ url: URL, ifMatch etag: ETag, scheduling: SchedulingIntent = .copy) async throws {
        let response = try await http.send(
            HTTPRequest(
                method: "DELETE", url: url,
                headers: [("If-Match", etag.value)] + scheduling.headers(for: "DELETE")))
        guard response.isSuccess else { throw failure(response, method: "DELETE", url: url) }
    }

    /// Deletes a collection (or resource) unconditionally; for tests and cleanup.
    public func deleteCollection(_ url: URL) async throws {
        let response = try await http.send(HTTPRequest(method: "DELETE", url: Self.collectionURL(url)))
        guard response.isSuccess || response.status == 404 else {
            throw HTTPError.status(response, method: "DELETE", url: url)
        }
    }

    /// Creates a calendar collection at `url` (MKCALENDAR, RFC 4791 §5.3.1).
    /// - Parameter components: the component types it accepts; empty leaves it to the server.
    public func makeCalendar(
        _ url: URL, displayName: String? = nil, color: String? = nil,
        components: [String] = ["VEVENT", "VTODO"]
    ) async throws {
        let target = Self.collectionURL(url)
        let body = DAVRequestBodies.mkcalendar(displayName: displayName, color: color, components: components)
        let response = try await davRequest("MKCALENDAR", target, depth: nil, body: body)
        guard response.isSuccess else {
            throw HTTPError.status(response, method: "MKCALENDAR", url: target)
        }
    }

    /// The calendar at `url`, when one is there (PROPFIND Depth 0 answered with a
    /// `C:calendar` resource type); nil when nothing is (404, or another kind of resource).
    /// Asked after a MKCALENDAR whose answer was lost or refused: the server may have made
    /// the calendar before the connection dropped, and a second MKCALENDAR is then refused
    /// because it exists.
    /// - Throws: `HTTPError` when the server cannot be asked (no answer, a failure other
    ///   than "not found").
    public func calendar(at url: URL) async throws -> CalendarCollection? {
        let target = Self.collectionURL(url)
        let answer: Multistatus
        do {
            (answer, _) = try await multistatus(
                "PROPFIND", target, depth: "0", body: DAVRequestBodies.propfind(DAVRequestBodies.collectionProperties))
        } catch let error as HTTPError where [404, 410].contains(error.status ?? 0) {
            return nil
        }
        guard let response = answer.responses.first, response.hasResourceType(XMLNamespace.caldav, "calendar")
        else { return nil }
        return Self.collection(from: response, url: target, href: HrefResolver.href(of: target))
    }

    /// Sets a collection's display name and/or color (PROPPATCH).
    /// - Throws: `HTTPError` when the server refuses either property.
    public func updateCollection(_ url: URL, displayName: String? = nil, color: String? = nil) async throws {
        let target = Self.collectionURL(url)
        let (answer, _) = try await multistatus(
            "PROPPATCH", target, depth: nil,
            body: DAVRequestBodies.proppatch(displayName: displayName, color: color))
        // A refused property comes back in a non-2xx propstat, so it is missing here.
        let accepted = answer.responses.first?.properties ?? []
        var wanted: [(String, String)] = []
        if displayName != nil { wanted.append((XMLNamespace.dav, "displayname")) }
        if color != nil { wanted.append((XMLNamespace.appleICal, "calendar-color")) }
        for (namespace, name) in wanted where !accepted.contains(where: { $0.is(namespace, name) }) {
            throw HTTPError(.forbidden, "the server refused to set \(name) on \(target.redactedString)", url: target)
        }
    }
}
