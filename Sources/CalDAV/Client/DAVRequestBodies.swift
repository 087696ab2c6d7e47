import Foundation

/// The XML bodies calgw sends.
enum DAVRequestBodies {
    typealias E = XMLBuilder.Element

    static let collectionProperties: [E] = collectionProperties(.all)

    /// A collection's own properties, with the change tokens `tokens` names.
    static func collectionProperties(_ tokens: CollectionTokens) -> [E] {
        var properties: [E] = [
            .empty("d:resourcetype"), .empty("d:displayname"), .empty("ic:calendar-color"),
            .empty("c:supported-calendar-component-set"), .empty("d:current-user-privilege-set"),
        ]
        if tokens.contains(.ctag) { properties.append(.empty("cs:getctag")) }
        if tokens.contains(.syncToken) { properties.append(.empty("d:sync-token")) }
        return properties
    }

    /// The principal's schedule Inbox and Outbox (RFC 6638 §2.1, §2.2), asked of a home's
    /// members so that those a server calls calendars can be left out.
    static let scheduleCollectionURLs: [E] = [.empty("c:schedule-inbox-URL"), .empty("c:schedule-outbox-URL")]

    static func propfind(_ properties: [E]) -> Data {
        XMLBuilder.document(.node("d:propfind", [.node("d:prop", properties)]))
    }

    static func syncCollection(token: SyncToken?) -> Data {
        XMLBuilder.document(
            .node(
                "d:sync-collection",
                [
                    .text("d:sync-token", token?.value ?? ""),
                    .text("d:sync-level", "1"),
                    .node("d:prop", [.empty("d:getetag")]),
                ]))
    }

    /// - Parameter scheduleTags: ask for each item's `CALDAV:schedule-tag` too.
    static func multiget(_ hrefs: [Href], scheduleTags: Bool = false) -> Data {
        XMLBuilder.document(
            .node(
                "c:calendar-multiget",
                [
                    .node(
                        "d:prop",
                        [.empty("d:getetag"), .empty("c:calendar-data")]
                            + (scheduleTags ? [.empty("c:schedule-tag")] : []))
                ]
                    + hrefs.map { .text("d:href", $0.path) }))
    }

    static func calendarQuery(component: String, start: Date, end: Date) -> Data {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return etagQuery(
            component: component,
            matching: .element(
                "c:time-range",
                attributes: [("start", formatter.string(from: start)), ("end", formatter.string(from: end))]))
    }

    /// A calendar-query for the etags of the `component`s that `test` (a time range, a property
    /// filter) matches.
    static func etagQuery(component: String, matching test: E) -> Data {
        XMLBuilder.document(
            .node(
                "c:calendar-query",
                [
                    .node("d:prop", [.empty("d:getetag")]),
                    .node(
                        "c:filter",
                        [
                            .element(
                                "c:comp-filter", attributes: [("name", "VCALENDAR")],
                                children: [
                                    .element("c:comp-filter", attributes: [("name", component)], children: [test])
                                ])
                        ]),
                ]))
    }

    static func collectionSettings(displayName: String?, color: String?, components: [String]) -> [E] {
        var props: [E] = []
        if let displayName { props.append(.text("d:displayname", displayName)) }
        if let color { props.append(.text("ic:calendar-color", color)) }
        if !components.isEmpty {
            props.append(
                .node(
                    "c:supported-calendar-component-set",
                    components.map { .element("c:comp", attributes: [("name", $0)]) }))
        }
        return props
    }

    static func mkcalendar(displayName: String?, color: String?, components: [String]) -> Data {
        let props = collectionSettings(displayName: displayName, color: color, components: components)
        return XMLBuilder.document(
            .node("c:mkcalendar", props.isEmpty ? [] : [.node("d:set", [.node("d:prop", props)])]))
    }

    static func proppatch(displayName: String?, color: String?) -> Data {
        let props = collectionSettings(displayName: displayName, color: color, components: [])
        return XMLBuilder.document(.node("d:propertyupdate", [.node("d:set", [.node("d:prop", props)])]))
    }
}
