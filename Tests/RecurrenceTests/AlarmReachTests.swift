import CalgwTestSupport
import Foundation
import ICalendar
import Testing

@testable import Recurrence

/// A calendar's alarm reach (`CalendarAlarms.reach()`) holds every instant its alarms go off,
/// in any zone floating times are read in: `alarms` passes over a file whose reach misses the
/// window, so an instant outside it would never be shown.
@Suite struct AlarmReachTests {
    @Test func everyAlarmInstantIsWithinTheReach() throws {
        var generator = AlarmCalendarGenerator(seed: 0x68A1)
        var instants = 0
        for k in 0..<TestLoad.size(200, load: 3_000) {
            let text = generator.calendar(uid: "r\(k)")
            let alarms = CalendarAlarms(components: try ICalendarParser().parse(text).components)
            let reach = alarms.reach()
            for zone in ["Pacific/Kiritimati", "Pacific/Pago_Pago", "Europe/Berlin"] {
                let rules = try #require(SystemZone(identifier: zone))
                let found = alarms.alarms(
                    from: AlarmTests.utc(1990, 1, 1), to: AlarmTests.utc(2040, 1, 1), floatingZone: rules,
                    includeAcknowledged: true)
                instants += found.count
                for a in found {
                    #expect(reach.touches(from: a.trigger, to: a.trigger + 1), "\(a.trigger) in \(zone)\n\(text)")
                }
            }
        }
        #expect(instants > 0)
    }

    @Test func aSeriesWithoutAlarmsReachesNowhereAndAnAlarmADayBeforeReachesBack() throws {
        let plain = try AlarmTests.calendar(
            AlarmTests.component("UID:a\nDTSTART:20260310T090000Z\nRRULE:FREQ=WEEKLY;COUNT=3"))
        #expect(CalendarAlarms(components: plain).reach().spans.isEmpty)
        let early = try AlarmTests.calendar(
            AlarmTests.component(
                "UID:b\nDTSTART:20260310T090000Z\n" + AlarmTests.alarm("ACTION:DISPLAY\nDESCRIPTION:x\nTRIGGER:-P20D")))
        let reach = CalendarAlarms(components: early).reach()
        #expect(reach.touches(from: AlarmTests.utc(2026, 2, 18), to: AlarmTests.utc(2026, 2, 19)))
        #expect(!reach.touches(from: AlarmTests.utc(2026, 4, 1), to: AlarmTests.utc(2026, 5, 1)))
    }
}
