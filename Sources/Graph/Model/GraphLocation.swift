/// `location` and `locations[]`: where the event is.
public struct GraphLocation: Hashable, Sendable, Codable {
    /// The name shown, the only part iCalendar's LOCATION holds.
    public var displayName: String?
    /// `default`, `conferenceRoom`, `streetAddress`, ...
    public var locationType: String?
    /// Graph's id for the place, when it knows one.
    public var uniqueId: String?
    /// What kind of id `uniqueId` is.
    public var uniqueIdType: String?
    /// The street address, when the place has one.
    public var address: GraphPhysicalAddress?
    /// Where on earth, when known.
    public var coordinates: GraphCoordinates?

    /// A location shown as `displayName`.
    public init(displayName: String? = nil) { self.displayName = displayName }
}

/// `location.address`.
public struct GraphPhysicalAddress: Hashable, Sendable, Codable {
    /// The street and number.
    public var street: String?
    /// The city.
    public var city: String?
    /// The state or province.
    public var state: String?
    /// The country or region.
    public var countryOrRegion: String?
    /// The postal code.
    public var postalCode: String?
}

/// `location.coordinates`.
public struct GraphCoordinates: Hashable, Sendable, Codable {
    /// Degrees north.
    public var latitude: Double?
    /// Degrees east.
    public var longitude: Double?
    /// Metres above sea level.
    public var altitude: Double?
    /// How far off latitude and longitude may be, in metres.
    public var accuracy: Double?
    /// How far off the altitude may be, in metres.
    public var altitudeAccuracy: Double?
}
