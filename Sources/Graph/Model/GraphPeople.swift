/// `emailAddress`: a person's (or room's) address and name.
public struct GraphEmailAddress: Hashable, Sendable, Codable {
    /// The SMTP address.
    public var address: String?
    /// The display name.
    public var name: String?

    /// `address`, named `name`.
    public init(address: String? = nil, name: String? = nil) {
        self.address = address
        self.name = name
    }
}

/// `organizer`: a recipient.
public struct GraphRecipient: Hashable, Sendable, Codable {
    /// Who.
    public var emailAddress: GraphEmailAddress?

    /// The recipient `emailAddress`.
    public init(emailAddress: GraphEmailAddress? = nil) { self.emailAddress = emailAddress }
}

/// `status` of an attendee, `responseStatus` of the mailbox owner: an answer and when it came.
public struct GraphResponseStatus: Hashable, Sendable, Codable {
    /// The answer.
    public var response: GraphResponse?
    /// When it was given (`0001-01-01T00:00:00Z` when never).
    public var time: String?

    /// An answer, given at `time`.
    public init(response: GraphResponse? = nil, time: String? = nil) {
        self.response = response
        self.time = time
    }
}

/// `attendees[]`: who is invited, how, and what they answered.
public struct GraphAttendee: Hashable, Sendable, Codable {
    /// Required, optional or a resource.
    public var type: GraphAttendeeType?
    /// The answer; set by Graph, ignored on write.
    public var status: GraphResponseStatus?
    /// Who.
    public var emailAddress: GraphEmailAddress?

    /// An attendee of `type`.
    public init(
        type: GraphAttendeeType? = nil, status: GraphResponseStatus? = nil, emailAddress: GraphEmailAddress? = nil
    ) {
        self.type = type
        self.status = status
        self.emailAddress = emailAddress
    }
}
