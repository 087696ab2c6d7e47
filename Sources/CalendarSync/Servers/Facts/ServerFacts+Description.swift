extension ServerFacts {
    /// What calgw does differently on this server, a clause each, for `calgw discover`; empty
    /// for a server that does what the RFCs say.
    public var differences: [String] {
        var said: [String] = []
        switch scheduling {
        case .always: said.append("it mails a meeting's attendees whenever the meeting is written or deleted")
        case .never: said.append("it sends no meeting messages, whatever it advertises: mail_command mails them")
        case .asAdvertised: break
        }
        switch meetingCopies {
        case .never: said.append("copies of meetings stay in the vdir, said once; only calgw event commands are sent")
        case .scheduleAgentClient:
            said.append(
                "copies of meetings are stored with SCHEDULE-AGENT=CLIENT, which it honours, so it sends nothing")
        case .scheduleReply: said.append("copies of meetings are written with Schedule-Reply: F, so it sends nothing")
        case .schedulingSwitch: break
        }
        if !writesScheduleStatus {
            said.append("it marks nothing of what it delivered, so calgw cannot say who was told")
        }
        if !honoursIfNoneMatch { said.append("every create asks first whether the name is free (it overwrites)") }
        if !honoursIfMatchOnDelete {
            said.append("every deletion first looks at the version (it deletes whatever If-Match says)")
        }
        if !keepsReplyComment { said.append("its replies to organizers leave out an answer's comment") }
        if case .never(let advice) = makesCalendars { said.append(advice) }
        if defersWithBare403 { said.append("a bare 403 means too many requests: waited out and retried") }
        if !queriesFindEverything {
            said.append("a first listing lists the members and reads them in batches (its queries miss items)")
        }
        if !addedProperties.isEmpty {
            said.append("it adds \(addedProperties.joined(separator: ", ")) to what it stores: each write is read back")
        }
        if let passwordAdvice { said.append(passwordAdvice) }
        return said
    }

    /// One line naming the server and what calgw does differently there.
    public var summary: String {
        guard self != .generic else {
            return "server: not one calgw knows by name; treated as RFC 4791 and RFC 6638 say "
                + "(name it with server = \"NAME\" in the pair: \(ServerFacts.names.dropFirst().joined(separator: ", ")))"
        }
        let said = differences
        return "server: \(title) (server = \"\(product.name)\")"
            + (said.isEmpty ? ": nothing done differently" : ": " + said.joined(separator: "; "))
    }
}
