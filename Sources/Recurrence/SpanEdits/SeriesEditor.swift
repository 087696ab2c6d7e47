import ICalendar

/// Which occurrences an edit of one occurrence reaches, as calendar apps offer it.
public enum EditSpan: String, Sendable, CaseIterable {
    /// Only the occurrence: an override, or an EXDATE when deleting.
    case thisEvent = "this"
    /// The occurrence and every later one: the series is split there.
    case futureEvents = "future"
}

/// What an edit leaves behind: the edited resource (nil when the whole event was deleted)
/// and, after a this-and-future split, the new series' resource.
public struct SpanEditResult: Sendable {
    /// The edited resource; nil when the whole event was deleted.
    public var resource: Component?
    /// After a this-and-future split, the new series' resource (a new UID); nil otherwise.
    public var newSeries: Component?

    /// A result of `resource` and, after a split, `newSeries`.
    public init(resource: Component?, newSeries: Component?) {
        self.resource = resource
        self.newSeries = newSeries
    }
}

/// Edits and deletes events in one calendar resource (a VCALENDAR holding a series' master and
/// its overrides), with the whole-series, this-event and this-and-future semantics of
/// DESIGN.md's span-edit table. Pure: the caller supplies the clock, the new UID and the
/// series' instances.
///
/// RANGE=THISANDFUTURE is never written: few clients support it. A split is written as two
/// series instead, the new one pointing at the old one with RELATED-TO.
public struct SeriesEditor: Sendable {
    /// The resource edited: a VCALENDAR holding the series' master and overrides.
    public let calendar: Component
    /// The UID of the event edited.
    public let uid: String
    /// DTSTAMP, LAST-MODIFIED and CREATED of what the edit writes.
    public let now: DateTimeValue
    let frame: DateTimeFrame

    /// An editor of `uid` in `calendar`, stamping what it writes with `now`.
    public init(calendar: Component, uid: String, now: DateTimeValue) throws {
        guard calendar.components.contains(where: { $0.name == "VEVENT" && $0["UID"]?.text == uid }) else {
            if let other = calendar.components.first(where: { $0["UID"]?.text == uid }),
                let kind = ["VTODO": "a task (VTODO)", "VJOURNAL": "a journal entry (VJOURNAL)"][other.name]
            {
                throw SpanEditError.notAnEvent(uid: uid, kind: kind)
            }
            throw SpanEditError.noSuchEvent(uid: uid)
        }
        self.calendar = calendar
        self.uid = uid
        self.now = now
        self.frame = DateTimeFrame(resolver: TimeZoneResolver(calendar: calendar))
    }

    // MARK: Whole series

    /// Changes every occurrence. When DTSTART moves, overrides' RECURRENCE-IDs and EXDATEs move
    /// by the same amount, so no occurrence is orphaned or brought back.
    public func editSeries(_ changes: EventChanges) throws -> Component {
        var resource = calendar
        guard let m = masterIndex(in: resource) else { throw SpanEditError.noMaster(uid: uid) }
        try editWholeSeries(in: &resource, masterAt: m, changes: changes)
        return resource
    }

    /// Deletes the whole event: nothing of the resource is left.
    public func deleteSeries() -> SpanEditResult { SpanEditResult(resource: nil, newSeries: nil) }

    // MARK: One occurrence

    /// Edits one occurrence (`.thisEvent`) or it and every later one (`.futureEvents`).
    /// - Parameters:
    ///   - recurrenceID: the occurrence's original start, in any form; it is matched by instant.
    ///   - newUID: the UID of the new series a this-and-future split creates.
    public func editOccurrence(
        _ recurrenceID: DateTimeValue, span: EditSpan, changes: EventChanges,
        instances: some SeriesInstanceIndex, newUID: String
    ) throws -> SpanEditResult {
        guard let m = masterIndex(in: calendar) else { throw SpanEditError.noMaster(uid: uid) }
        let rid = try occurrenceID(recurrenceID, master: calendar.components[m], instances: instances)
        switch span {
        case .thisEvent:
            if changes.recurrenceRule != nil {
                throw SpanEditError.notApplicableToOccurrence(
                    "a single occurrence cannot get its own RRULE; use --span future")
            }
            return SpanEditResult(resource: try overriding(rid, masterAt: m, changes: changes), newSeries: nil)
        case .futureEvents:
            if isFirst(rid, master: calendar.components[m]) {
                return SpanEditResult(resource: try editSeries(changes), newSeries: nil)
            }
            return try split(at: rid, masterAt: m, changes: changes, instances: instances, newUID: newUID)
        }
    }

    /// Deletes one occurrence (an EXDATE, and its override dropped) or it and every later one
    /// (the series ends before it; deleting from the first occurrence deletes the series).
    public func deleteOccurrence(
        _ recurrenceID: DateTimeValue, span: EditSpan,
        instances: some SeriesInstanceIndex
    ) throws -> SpanEditResult {
        guard let m = masterIndex(in: calendar) else { throw SpanEditError.noMaster(uid: uid) }
        let master = calendar.components[m]
        let rid = try occurrenceID(recurrenceID, master: master, instances: instances)
        var resource = calendar
        switch span {
        case .thisEvent:
            resource.components.removeAll { isOverride($0, of: rid) }
            let i = masterIndex(in: resource)!
            var exdate = Property.dateTime("EXDATE", rid)
            if rid.isDate { exdate.setParameter("VALUE", "DATE") }
            resource.components[i].append(exdate)
            touch(&resource.components[i], bumpSequence: true)
        case .futureEvents:
            if isFirst(rid, master: master) { return deleteSeries() }
            resource = truncated(resource, before: rid, instances: instances).kept
        }
        return SpanEditResult(resource: resource, newSeries: nil)
    }

    // MARK: Building blocks

    /// The master that is edited: of several versions of the event in one resource, the
    /// newest (`EventVersion`), the one `Series` expands; the older ones are left as written.
    private func masterIndex(in resource: Component) -> Int? {
        let masters = resource.components.indices.filter {
            let c = resource.components[$0]
            return c.name == "VEVENT" && c["UID"]?.text == uid && c["RECURRENCE-ID"] == nil
        }
        return EventVersion.newest(of: masters.map { resource.components[$0] }).map { masters[$0] }
    }

    private func isOverride(_ c: Component, of rid: DateTimeValue) -> Bool {
        guard c.name == "VEVENT", c["UID"]?.text == uid, let r = c["RECURRENCE-ID"]?.dateTime else { return false }
        return frame.same(r, rid)
    }

    private func isFirst(_ rid: DateTimeValue, master: Component) -> Bool {
        guard let start = master["DTSTART"]?.dateTime else { return false }
        return frame.same(start, rid)
    }

    /// The RECURRENCE-ID in the master DTSTART's form, checked to name an occurrence.
    private func occurrenceID(_ given: DateTimeValue, master: Component, instances: some SeriesInstanceIndex) throws
        -> DateTimeValue
    {
        guard let start = master["DTSTART"]?.dateTime else { throw SpanEditError.noMaster(uid: uid) }
        let isRecurring = master["RRULE"] != nil || master["RDATE"] != nil
        guard isRecurring else { throw SpanEditError.notRecurring(uid: uid) }
        let rid = frame.convert(given, to: start.form)
        let hasOverride = calendar.components.contains { isOverride($0, of: rid) }
        guard hasOverride || instances.isInstance(rid) else {
            throw SpanEditError.noSuchOccurrence(uid: uid, recurrenceID: given.description)
        }
        // The rule makes an instance there, but an EXDATE took it out of the series.
        let excluded = master.properties.lazy.filter { $0.name == "EXDATE" }.flatMap(\.dateTimes).contains {
            frame.same($0, rid)
        }
        if excluded && !hasOverride {
            throw SpanEditError.excludedOccurrence(uid: uid, recurrenceID: given.description)
        }
        // Named as the rule names it, so a series split there keeps the rule's clock times.
        return instances.ruleTime(of: rid)
    }

    /// The resource with the occurrence at `rid` overridden: its existing override edited, or
    /// a new one made from the master's properties.
    private func overriding(_ rid: DateTimeValue, masterAt m: Int, changes: EventChanges) throws -> Component {
        var resource = calendar
        if let o = resource.components.firstIndex(where: { isOverride($0, of: rid) }) {
            try changes.apply(to: &resource.components[o], frame: frame)
            touch(&resource.components[o], bumpSequence: true)
            return resource
        }
        let master = resource.components[m]
        var override = Component(name: "VEVENT", properties: [], components: master.components)
        let seriesOnly: Set<String> = ["RRULE", "RDATE", "EXDATE", "EXRULE", "RECURRENCE-ID"]
        for property in master.properties where !seriesOnly.contains(property.name) {
            switch property.name {
            case "DTSTART":
                override.append(.dateTime("DTSTART", rid, parameters: property.parameters))
                override.append(.dateTime("RECURRENCE-ID", rid))
            case "DTEND":
                if let start = master["DTSTART"]?.dateTime, let end = property.dateTime {
                    override.append(
                        .dateTime(
                            "DTEND", frame.end(ofInstanceAt: rid, seriesStart: start, seriesEnd: end),
                            parameters: property.parameters))
                } else {
                    override.append(property)
                }
            default:
                override.append(property)
            }
        }
        try changes.apply(to: &override, frame: frame)
        touch(&override, bumpSequence: true)
        // Overrides follow their master, in RECURRENCE-ID order among themselves.
        var insertAt = m + 1
        while insertAt < resource.components.count, let r = resource.components[insertAt]["RECURRENCE-ID"]?.dateTime,
            resource.components[insertAt]["UID"]?.text == uid, !frame.atOrAfter(r, rid)
        {
            insertAt += 1
        }
        resource.components.insert(override, at: insertAt)
        return resource
    }

    /// Applies `changes` to the master at `m` and moves what is pinned to the old DTSTART.
    private func editWholeSeries(in resource: inout Component, masterAt m: Int, changes: EventChanges) throws {
        let oldStart = resource.components[m]["DTSTART"]?.dateTime
        let oldMaster = resource.components[m]
        let shift = try changes.apply(to: &resource.components[m], frame: frame)
        touch(&resource.components[m], bumpSequence: true)
        inheritTextChanges(in: &resource, from: oldMaster, to: resource.components[m])
        guard let oldStart, let newStart = resource.components[m]["DTSTART"]?.dateTime,
            shift != 0 || oldStart.form != newStart.form
        else { return }
        let move = { (value: DateTimeValue) -> DateTimeValue in
            self.frame.shifted(
                self.frame.convert(self.frame.convert(value, to: oldStart.form), to: newStart.form), bySeconds: shift)
        }
        // EXDATEs and overrides' RECURRENCE-IDs move with the series.
        var master = resource.components[m]
        master.properties = master.properties.flatMap { property -> [Property] in
            guard property.name == "EXDATE" else { return [property] }
            return property.dateTimes.map { value in
                var p = Property.dateTime("EXDATE", move(value), parameters: property.parameters)
                if newStart.isDate { p.setParameter("VALUE", "DATE") }
                return p
            }
        }
        resource.components[m] = master
        for i in resource.components.indices where i != m {
            var c = resource.components[i]
            guard c.name == "VEVENT", c["UID"]?.text == uid, let rid = c["RECURRENCE-ID"]?.dateTime else { continue }
            let newRID = move(rid)
            // An override that was not moved stays on its (moved) slot.
            if let start = c["DTSTART"]?.dateTime, frame.same(start, rid) {
                let end = c["DTEND"]?.dateTime
                c.set(.dateTime("DTSTART", newRID, parameters: c["DTSTART"]!.parameters))
                if let end, let endProperty = c["DTEND"] {
                    c.set(
                        .dateTime(
                            "DTEND",
                            frame.end(ofInstanceAt: newRID, seriesStart: start, seriesEnd: end, in: newRID.form),
                            parameters: endProperty.parameters))
                }
            }
            c.set(.dateTime("RECURRENCE-ID", newRID, parameters: c["RECURRENCE-ID"]!.parameters))
            touch(&c, bumpSequence: false)
            resource.components[i] = c
        }
    }

    /// Overrides follow the series in what they did not change themselves: a property an
    /// override has with the master's old value takes the master's new value.
    private func inheritTextChanges(in resource: inout Component, from oldMaster: Component, to newMaster: Component) {
        for name in ["SUMMARY", "LOCATION", "DESCRIPTION", "STATUS"] where oldMaster[name] != newMaster[name] {
            for i in resource.components.indices {
                var c = resource.components[i]
                guard c.name == "VEVENT", c["UID"]?.text == uid, c["RECURRENCE-ID"] != nil, c[name] == oldMaster[name]
                else { continue }
                if let value = newMaster[name] { c.set(value) } else { c.remove(name) }
                resource.components[i] = c
            }
        }
    }

    /// Splits the series at `rid`: the resource keeps the earlier occurrences, a new resource
    /// with `newUID` holds `rid` and the later ones, with the change applied.
    private func split(
        at rid: DateTimeValue, masterAt m: Int, changes: EventChanges,
        instances: some SeriesInstanceIndex, newUID: String
    ) throws -> SpanEditResult {
        let master = calendar.components[m]
        let (kept, moved) = truncated(calendar, before: rid, instances: instances)

        var newMaster = master
        newMaster.set(Property(name: "UID", value: newUID))
        newMaster.set(.dateTime("DTSTART", rid, parameters: master["DTSTART"]!.parameters))
        if let start = master["DTSTART"]?.dateTime, let endProperty = master["DTEND"], let end = endProperty.dateTime {
            newMaster.set(
                .dateTime(
                    "DTEND", frame.end(ofInstanceAt: rid, seriesStart: start, seriesEnd: end),
                    parameters: endProperty.parameters))
        }
        newMaster.properties = newMaster.properties.compactMap { property in
            switch property.name {
            case "RRULE":
                guard var rule = try? property.recurrenceRule(tzid: rid.tzid) else { return property }
                if let count = rule.count { rule.count = max(count - instances.ruleInstanceCount(before: rid), 1) }
                return Property(name: "RRULE", parameters: property.parameters, value: rule.description)
            case "RDATE", "EXDATE", "RELATED-TO":
                return nil
            default:
                return property
            }
        }
        newMaster.properties.append(contentsOf: moved.datesAtOrAfter)
        newMaster.append(Property(name: "RELATED-TO", value: uid))
        newMaster.set(Property(name: "SEQUENCE", value: "0"))
        newMaster.set(.dateTime("CREATED", now))
        touch(&newMaster, bumpSequence: false)

        var newResource = calendar
        newResource.components = calendar.components.filter { $0.name == "VTIMEZONE" }
        newResource.components.append(newMaster)
        for var override in moved.overrides {
            override.set(Property(name: "UID", value: newUID))
            newResource.components.append(override)
        }
        // The change applies to the new series as a whole.
        let newEditor = try SeriesEditor(calendar: newResource, uid: newUID, now: now)
        var edited = newResource
        if !changes.isEmpty {
            try newEditor.editWholeSeries(
                in: &edited,
                masterAt: edited.components.firstIndex { $0["UID"]?.text == newUID && $0["RECURRENCE-ID"] == nil }!,
                changes: changes)
        }
        return SpanEditResult(resource: kept, newSeries: edited)
    }

    /// What ends a series before `rid`: the resource with the master's rule bounded (COUNT or
    /// UNTIL), and the RDATEs, EXDATEs and overrides at or after `rid` taken out of it.
    private func truncated(
        _ resource: Component, before rid: DateTimeValue,
        instances: some SeriesInstanceIndex
    ) -> (kept: Component, moved: (datesAtOrAfter: [Property], overrides: [Component])) {
        var resource = resource
        let m = masterIndex(in: resource)!
        var master = resource.components[m]
        var later: [Property] = []
        let until = frame.untilBefore(rid)
        master.properties = master.properties.flatMap { property -> [Property] in
            switch property.name {
            case "RRULE":
                guard var rule = try? property.recurrenceRule(tzid: rid.tzid) else { return [property] }
                if rule.count != nil {
                    rule.count = instances.ruleInstanceCount(before: rid)
                } else if rule.until.map({ frame.atOrAfter($0, rid) }) ?? true {
                    rule.until = until
                }
                return [Property(name: "RRULE", parameters: property.parameters, value: rule.description)]
            case "RDATE", "EXDATE":
                let isPeriod = property[parameter: "VALUE"]?.uppercased() == "PERIOD"
                let starts = isPeriod ? property.periods.map(\.start) : property.dateTimes
                let values = property.value.split(separator: ",", omittingEmptySubsequences: false)
                guard starts.count == values.count else { return [property] }
                var before: [Substring] = [], after: [Substring] = []
                for (start, text) in zip(starts, values) {
                    if frame.atOrAfter(start, rid) { after.append(text) } else { before.append(text) }
                }
                if !after.isEmpty {
                    later.append(
                        Property(
                            name: property.name, parameters: property.parameters, value: after.joined(separator: ",")))
                }
                return before.isEmpty
                    ? []
                    : [
                        Property(
                            name: property.name, parameters: property.parameters, value: before.joined(separator: ","))
                    ]
            default:
                return [property]
            }
        }
        touch(&master, bumpSequence: true)
        resource.components[m] = master
        var overrides: [Component] = []
        resource.components.removeAll { c in
            guard c.name == "VEVENT", c["UID"]?.text == uid, let r = c["RECURRENCE-ID"]?.dateTime,
                frame.atOrAfter(r, rid)
            else {
                return false
            }
            overrides.append(c)
            return true
        }
        return (resource, (later, overrides))
    }

    /// Stamps a component this edit wrote: DTSTAMP and LAST-MODIFIED now, SEQUENCE up by one.
    private func touch(_ component: inout Component, bumpSequence: Bool) {
        component.set(.dateTime("DTSTAMP", now))
        component.set(.dateTime("LAST-MODIFIED", now))
        if bumpSequence {
            component.set(Property(name: "SEQUENCE", value: String((component["SEQUENCE"]?.integer ?? 0) + 1)))
        }
    }
}
