import Testing
import ICalendar
@testable import Recurrence

@Suite struct RecurrenceSmokeTests {
    @Test func dependsOnICalendar() {
        #expect(Parameter("value", "DATE").value == "DATE")
    }
}
