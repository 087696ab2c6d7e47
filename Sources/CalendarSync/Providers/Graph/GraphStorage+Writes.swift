import CalDAV
import Crypto
import Foundation
import Graph
import HTTP
import ICalendar

extension GraphStorage {
    /// POSTs the event, then its exceptions and cancelled occurrences.
    ///
    /// The `transactionId` is made from this calendar and the item's bytes, so that a create
    /// sent again after a lost answer makes nothing new. Graph's ids are mailbox-wide and
    /// single-use: the same file in two calendars of an account gets two ids, and an id Graph
    /// refuses as used (`ErrorDuplicateTransactionId`: its event was deleted in Outlook, or
    /// lives elsewhere now) is answered by the item created here earlier, found by its UID,
    /// else by a create under a fresh id.
    public func create(_ data: Data, suggestedName: String, as intent: WriteIntent) async throws -> ItemVersion {
        let href = ItemHref(suggestedName)
        let write = try translated(data, href: href)
        try refuseMeetingCopy(write.master, intent: intent, href: href)
        var body = Self.keepingOriginal(data, of: write)
        body.transactionId = Self.transactionID(of: data, in: calendar)
        let events = URL(string: calendar.absoluteString + "/events")!
        let response: HTTPResponse
        do {
            response = try await client.send("POST", events, json: try GraphClient.json(body))
        } catch let error as GraphError where Self.isDuplicateTransaction(error) {
            if let uid = ItemContent(data).uid, let made = try await created(key: .uid(uid)) { return made.version }
            body.transactionId = Self.transactionID(of: data, in: calendar, nonce: UUID().uuidString)
            response = try await client.send("POST", events, json: try GraphClient.json(body))
        }
        let created = try client.decode(GraphEvent.self, response)
        guard let id = created.id else {
            throw GraphError(.unreadableAnswer, "Microsoft Graph created \(suggestedName) but gave no id")
        }
        let key = try await writeOccurrences(write, of: id) ?? created.changeKey ?? ""
        return ItemVersion(href: ItemHref(id), etag: ItemETag(key))
    }

    /// PATCHes what the item changes of the event, if its change key is still `etag`, then
    /// its exceptions and cancelled occurrences that changed.
    ///
    /// The event is read first (one GET): its change key is compared, as DavMail does, so that
    /// an edit made in Outlook since the listing is never written over, whether or not Graph
    /// honours `If-Match` on events (undocumented; it is sent too); and what it holds is what
    /// the write is compared with (``GraphChangedProperties``), so that only the properties
    /// the item changes are sent: a title edited keeps a Teams meeting's join block, and an
    /// edit that leaves a series' times alone mails nobody.
    public func update(href: ItemHref, data: Data, ifMatch etag: ItemETag, as intent: WriteIntent) async throws
        -> ItemVersion
    {
        if intent == .personsAction, let answered = try await answer(data, href: href, ifMatch: etag) {
            return answered
        }
        let write = try translated(data, href: href)
        try refuseMeetingCopy(write.master, intent: intent, href: href)
        let (held, body) = try await holding(href, ifMatch: etag)
        let master = Self.keepingOriginal(data, of: write)
        var changes = try GraphChangedProperties(write, master: master, held: held)
        // Notes edited over an online meeting keep its join block: without it the meeting is
        // no longer online.
        if changes.master["body"] != nil, let written = master.body,
            let block = body?.content.flatMap(OnlineMeetingBlock.init(in:))
        {
            changes.master["body"] = try JSONSerialization.jsonObject(with: GraphClient.json(block.kept(in: written)))
        }
        let response: HTTPResponse
        do {
            response = try await client.send(
                "PATCH", client.event(href.value), json: try changes.body, ifMatch: etag.value)
        } catch let error as GraphError where error.status == 412 || error.status == 409 {
            throw StorageError.preconditionFailed(href: href)
        } catch let error as GraphError where error.status == 404 {
            throw StorageError.preconditionFailed(href: href)
        }
        let patched = response.body.isEmpty ? GraphEvent() : try client.decode(GraphEvent.self, response)
        var occurrences = write
        occurrences.overrides = changes.overrides
        occurrences.cancelled = changes.cancelled
        let key = try await writeOccurrences(occurrences, of: href.value) ?? patched.changeKey ?? ""
        let stillCancelled = try await cancellationsKept(href, by: write)
        if !stillCancelled.isEmpty, let kept = try await fetch([href], for: .copy).first {
            rewritten.store(kept)
            let dates = stillCancelled.map { "\($0)" }.sorted().joined(separator: ", ")
            notes.add(
                "\(master.subject.map { "“\($0)”" } ?? href.value): Outlook cannot bring back an occurrence "
                    + "cancelled there (\(dates)); it stays cancelled, and the vdir's copy says so again")
        }
        return ItemVersion(href: href, etag: ItemETag(key))
    }

    /// What the event `href` holds now, as calgw would write it (nil when calgw cannot read it
    /// back as a write: every property is then sent), and its body as Graph holds it.
    /// - Throws: `StorageError.preconditionFailed` when its change key is no longer `etag` (an
    ///   edit in Outlook since the listing) or it is gone.
    private func holding(_ href: ItemHref, ifMatch etag: ItemETag) async throws -> (GraphEventWrite?, GraphItemBody?) {
        let now: GraphEvent
        do {
            now = try await client.get(client.event(href.value, query: Self.readQuery), as: GraphEvent.self)
        } catch let error as GraphError where error.status == 404 {
            throw StorageError.preconditionFailed(href: href)
        }
        guard now.changeKey == etag.value else { throw StorageError.preconditionFailed(href: href) }
        guard let item = item(href, now, cancelled: Self.cancelled(of: now)) else { return (nil, now.body) }
        return (try? translated(item.data, href: href), now.body)
    }

    /// The dates of the occurrences of series `href` that Outlook holds cancelled, after the
    /// write, and `write` does not cancel: Graph has no way to bring one back (a PATCH of the
    /// series' times starts it afresh, one of its other fields does not). None for a single event.
    private func cancellationsKept(_ href: ItemHref, by write: GraphEventWrite) async throws -> [LocalDate] {
        guard write.master.recurrence != nil else { return [] }
        let now = try await client.get(
            client.event(href.value, query: "?$select=id,cancelledOccurrences"), as: GraphEvent.self)
        let written = Set(write.cancelled.map(\.date))
        return (now.cancelledOccurrences ?? []).compactMap(GraphEvent.occurrenceDate(ofID:)).filter {
            !written.contains($0)
        }
    }

    /// DELETEs the event if its change key is still `etag`; one already gone is no error. A
    /// meeting the account organizes is deleted only as the person's action (Graph mails
    /// every attendee a cancellation).
    public func delete(href: ItemHref, ifMatch etag: ItemETag, as intent: WriteIntent) async throws {
        if intent == .copy {
            let event: GraphEvent
            do {
                event = try await client.get(
                    client.event(href.value, query: "?$select=id,isOrganizer,attendees"), as: GraphEvent.self)
            } catch let error as GraphError where error.status == 404 {
                return
            }
            if event.isOrganizer != false, !(event.attendees ?? []).isEmpty {
                throw MeetingCopyNotSent(href: href, deleting: true, facts: Self.facts)
            }
        }
        do {
            try await client.send("DELETE", client.event(href.value), ifMatch: etag.value)
        } catch let error as GraphError where error.status == 404 {
            return
        } catch let error as GraphError where error.status == 412 || error.status == 409 {
            throw StorageError.preconditionFailed(href: href)
        }
    }

    /// The master's body with `data` kept beside it (``GraphKeptOriginal``); an empty value
    /// replaces one kept before when `data` is too large to keep.
    static func keepingOriginal(_ data: Data, of write: GraphEventWrite) -> GraphEvent {
        var master = write.master
        let kept = GraphKeptOriginal(fingerprint: GraphKeptOriginal.fingerprint(of: write), text: data)
        let value = data.count <= GraphKeptOriginal.largest ? kept.value : ""
        master.singleValueExtendedProperties =
            (master.singleValueExtendedProperties ?? [])
            + [GraphExtendedProperty(id: GraphExtendedProperty.originalID, value: value)]
        return master
    }

    /// `data` as Graph's write; what Graph cannot hold refused for this item, naming the part.
    private func translated(_ data: Data, href: ItemHref) throws -> GraphEventWrite {
        if let component = ComponentNotTaken.component(of: data) {
            throw ComponentNotTaken(href: href, component: component, serverLine: "Graph's calendars hold events only")
        }
        guard let parsed = try? ICalendarParser().parse(data), let calendar = parsed.calendar else {
            throw StorageError.rejected(href: href, reason: "not iCalendar calgw can read")
        }
        do {
            return try calendar.graphEventWrite()
        } catch let error as GraphMappingError {
            throw StorageError.rejected(href: href, reason: "\(error.message) (not sent to Graph)")
        }
    }

    /// Refuses to write a copy of a meeting: Graph mails its attendees whenever one is made or
    /// moved, and has no way not to.
    private func refuseMeetingCopy(_ event: GraphEvent, intent: WriteIntent, href: ItemHref) throws {
        guard intent == .copy, !(event.attendees ?? []).isEmpty else { return }
        throw MeetingCopyNotSent(href: href, deleting: false, facts: Self.facts)
    }

    /// The exceptions and cancellations of `write` made on the series `id`. An occurrence
    /// Outlook does not hold (outside the window, or cancelled there already) is said in a
    /// note, never skipped unsaid.
    /// - Returns: the master's change key after them; nil when there were none.
    private func writeOccurrences(_ write: GraphEventWrite, of id: String) async throws -> String? {
        guard !write.overrides.isEmpty || !write.cancelled.isEmpty else { return nil }
        let instances = Instances(try await instanceList(of: id), allDay: write.master.isAllDay == true)
        var missing: [String] = []
        for cancelled in write.cancelled {
            guard let instance = instances.id(of: cancelled) else {
                missing.append("cancel \(cancelled.date)")
                continue
            }
            do { try await client.send("DELETE", client.event(instance)) } catch let error as GraphError
                where error.status == 404
            {}
        }
        for override in write.overrides {
            guard let instance = instances.id(of: override.occurrence) else {
                missing.append("change \(override.occurrence.date)")
                continue
            }
            try await client.send("PATCH", client.event(instance), json: try GraphClient.json(override.patch))
        }
        if !missing.isEmpty {
            notes.add(
                "\(write.master.subject.map { "“\($0)”" } ?? id): Outlook holds no such occurrence to "
                    + missing.joined(separator: ", ") + " (outside the pair's window, or cancelled there); not sent")
        }
        return try await changeKeys(of: [id])[id]
    }

    /// A series' occurrences as Outlook lists them, found by what the vdir names them by: the
    /// instant they were due at, or for an all-day series their date in the series' zone
    /// (Graph writes such an occurrence's `originalStart` as local midnight in UTC).
    private struct Instances {
        var byInstant: [String: String] = [:]
        var byDate: [LocalDate: String] = [:]
        let allDay: Bool

        init(_ events: [GraphEvent], allDay: Bool) {
            self.allDay = allDay
            for event in events {
                guard let instance = event.id, let start = event.originalStart else { continue }
                byInstant[GraphStorage.instant(start)] = instance
                if let date = GraphOccurrenceStart.date(ofOriginalStart: start, zone: event.originalStartTimeZone) {
                    byDate[date] = instance
                }
            }
        }

        func id(of occurrence: GraphOccurrenceStart) -> String? {
            allDay ? byDate[occurrence.date] : byInstant[GraphStorage.instant(occurrence.originalStart)]
        }
    }

    /// The series' occurrences and exceptions in the window.
    private func instanceList(of id: String) async throws -> [GraphEvent] {
        var found: [GraphEvent] = []
        var next: URL? = client.event(id, query: "/instances?" + window.query)
        while let url = next {
            let page = try await client.get(url, as: GraphPage<GraphEvent>.self)
            found += page.value
            next = page.nextLink.flatMap(URL.init(string:))
        }
        return found
    }

    /// An instant Graph wrote, as `yyyy-MM-ddTHH:mm:ss` in UTC, to compare two spellings.
    static func instant(_ text: String) -> String {
        guard let stamp = GraphTimestamp(parsing: text) else { return text }
        var local = stamp.local
        if let offset = stamp.offset, offset != 0 { local = local.adding(seconds: Int64(-offset)) }
        return "\(local)"
    }

    /// Whether Graph refused a create because its `transactionId` was used before (400 or 409
    /// `ErrorDuplicateTransactionId`, as clients report both).
    static func isDuplicateTransaction(_ error: GraphError) -> Bool {
        (error.status == 400 || error.status == 409)
            && (error.graphCode ?? "").lowercased() == "errorduplicatetransactionid"
    }

    /// A `transactionId` for a create of `data` in `calendar`: the same content in the same
    /// calendar gives the same id (from its ``ContentHash``, which a DTSTAMP stamped anew does
    /// not change), so a create sent again after its answer was lost, or after the run was
    /// stopped, makes nothing new; another calendar, or a `nonce`, gives another.
    static func transactionID(of data: Data, in calendar: URL, nonce: String = "") -> String {
        let seed = calendar.lastPathComponent + "\n" + ContentHash.of(data).value + "\n" + nonce
        let hex = SHA256.hash(data: Data(seed.utf8)).map { String(format: "%02x", $0) }.joined()
        let cut = [8, 4, 4, 4, 12]
        var parts: [Substring] = []
        var rest = hex[...]
        for length in cut {
            parts.append(rest.prefix(length))
            rest = rest.dropFirst(length)
        }
        return parts.joined(separator: "-")
    }
}
