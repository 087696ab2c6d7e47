import Testing
@testable import ICalendar

@Suite struct ParameterTests {
    @Test func namesAreUpperCased() {
        #expect(Parameter("tzid", "Europe/Berlin").name == "TZID")
    }
}
