import ICalendar

extension GraphEvent {
    /// Appends what master and exceptions share: SUMMARY, DESCRIPTION (and X-ALT-DESC), LOCATION,
    /// CATEGORIES, TRANSP (and X-MICROSOFT-CDO-BUSYSTATUS), CLASS, PRIORITY, STATUS, ORGANIZER,
    /// ATTENDEEs and the VALARM.
    func appendContent(to c: inout Component) {
        if let subject, !subject.isEmpty { c.append(Property.text("SUMMARY", subject)) }
        appendBody(to: &c)
        if let place = placeName { c.append(Property.text("LOCATION", place)) }
        if let categories, !categories.isEmpty {
            c.append(Property(name: "CATEGORIES", value: TextValue.joinList(categories)))
        }
        if let showAs, showAs.isKnown, showAs != .unknown {
            c.append(Property(name: "TRANSP", value: showAs == .free ? "TRANSPARENT" : "OPAQUE"))
            if showAs != .free && showAs != .busy {
                c.append(Property(name: "X-MICROSOFT-CDO-BUSYSTATUS", value: showAs.rawValue.uppercased()))
            }
        }
        if let sensitivity, let value = Self.classValue[sensitivity] {
            c.append(Property(name: "CLASS", value: value))
        }
        if importance == .high { c.append(Property(name: "PRIORITY", value: "1")) }
        if importance == .low { c.append(Property(name: "PRIORITY", value: "9")) }
        if isCancelled == true { c.append(Property(name: "STATUS", value: "CANCELLED")) }
        if let organizer = organizer?.emailAddress, let address = organizer.address, !address.isEmpty {
            c.append(Property(name: "ORGANIZER", parameters: Self.nameParameter(organizer), value: "mailto:" + address))
        }
        for attendee in attendees ?? [] {
            guard let who = attendee.emailAddress, let address = who.address, !address.isEmpty else { continue }
            var parameters = Self.nameParameter(who)
            if attendee.type == .resource {
                parameters.append(Parameter("CUTYPE", "RESOURCE"))
                parameters.append(Parameter("ROLE", "NON-PARTICIPANT"))
            } else {
                parameters.append(Parameter("ROLE", attendee.type == .optional ? "OPT-PARTICIPANT" : "REQ-PARTICIPANT"))
            }
            parameters.append(Parameter("PARTSTAT", Self.partstat(attendee.status?.response)))
            c.append(Property(name: "ATTENDEE", parameters: parameters, value: "mailto:" + address))
        }
        if isReminderOn == true {
            let minutes = max(0, reminderMinutesBeforeStart ?? 15)
            var alarm = Component(name: "VALARM")
            alarm.append(Property(name: "ACTION", value: "DISPLAY"))
            alarm.append(Property.text("DESCRIPTION", subject.flatMap { $0.isEmpty ? nil : $0 } ?? "Reminder"))
            alarm.append(
                Property(name: "TRIGGER", value: ICalDuration(isNegative: minutes > 0, minutes: minutes).description))
            c.components.append(alarm)
        }
    }

    /// DESCRIPTION as text. An HTML body also goes whole into `X-ALT-DESC;FMTTYPE=text/html`
    /// (as Outlook's own exports carry it), so that a body nobody edited goes back to Graph as
    /// the same HTML; a body that is only an empty HTML page gives neither.
    private func appendBody(to c: inout Component) {
        guard let content = body?.content, !content.isEmpty else { return }
        if body?.contentType == .html {
            let text = HTMLText.plainText(content)
            guard !text.isEmpty else { return }
            c.append(Property.text("DESCRIPTION", text))
            c.append(Property.text("X-ALT-DESC", content, parameters: [Parameter("FMTTYPE", "text/html")]))
        } else {
            c.append(Property.text("DESCRIPTION", content))
        }
    }

    /// `location`'s name, else the names of `locations` joined by "; ".
    var placeName: String? {
        if let name = location?.displayName, !name.isEmpty { return name }
        let names = (locations ?? []).compactMap(\.displayName).filter { !$0.isEmpty }
        return names.isEmpty ? nil : names.joined(separator: "; ")
    }

    static let classValue: [GraphSensitivity: String] = [
        .private: "PRIVATE", .confidential: "CONFIDENTIAL", .personal: "X-PERSONAL",
    ]

    static func nameParameter(_ address: GraphEmailAddress) -> [Parameter] {
        guard let name = address.name, !name.isEmpty, name != address.address else { return [] }
        return [Parameter("CN", name)]
    }

    static func partstat(_ response: GraphResponse?) -> String {
        switch response {
        case .accepted?, .organizer?: "ACCEPTED"
        case .tentativelyAccepted?: "TENTATIVE"
        case .declined?: "DECLINED"
        default: "NEEDS-ACTION"
        }
    }
}
