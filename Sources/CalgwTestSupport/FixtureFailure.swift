/// A fixture could not set up what a test asked for (a server answered a PUT with an error, a
/// command printed no JSON): thrown, so that the test stops there and fails with the reason.
public struct FixtureFailure: Error, CustomStringConvertible {
    /// What could not be set up, and why.
    public var description: String

    /// A failure saying `description`.
    public init(_ description: String) { self.description = description }
}
