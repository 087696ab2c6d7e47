import Testing
@testable import ICalendar

@Suite struct DateTimeValueTests {
    @Test func parsesTheThreeDateTimeFormsAndDates() throws {
        let utc = try #require(DateTimeValue(parsing: "19980119T070000Z"))
        #expect(utc.form == .utc)
        #expect(utc.local == LocalDateTime(year: 1998, month: 1, day: 19, hour: 7))
        let zoned = try #require(DateTimeValue(parsing: "19980119T020000", tzid: "America/New_York"))
        #expect(zoned.form == .zoned(tzid: "America/New_York"))
        #expect(DateTimeValue(parsing: "19980118T230000")?.form == .floating)
        let date = try #require(DateTimeValue(parsing: "19970714"))
        #expect(date.isDate && date.date == LocalDate(year: 1997, month: 7, day: 14))
        #expect(utc.description == "19980119T070000Z")
        #expect(date.description == "19970714")
    }

    @Test(arguments: ["20260230", "20261301", "20260101T250000", "2026-01-01", "20260101T1000", "", "20260101X100000"])
    func refusesInvalidDates(_ text: String) {
        #expect(DateTimeValue(parsing: text) == nil)
    }

    /// A date's ISO text, written in place for years 0 to 9999, is what zero-padding gives, and
    /// a year outside them is written as before (a sign, or more digits).
    @Test func isoTextIsZeroPadded() {
        for (year, month, day) in [(0, 1, 1), (7, 3, 9), (999, 12, 31), (2026, 3, 1), (9999, 12, 31)] {
            let text = LocalDate(year: year, month: month, day: day).isoString
            let year4 = String(repeating: "0", count: 4 - String(year).count) + String(year)
            #expect(text == "\(year4)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)")
        }
        #expect(LocalDate(year: 10_000, month: 1, day: 2).isoString == "10000-01-02")
        #expect(LocalDate(year: -44, month: 3, day: 15).isoString == "-0044-03-15")
    }

    @Test func civilDayArithmeticMatchesKnownDays() {
        #expect(LocalDate(year: 1970, month: 1, day: 1).daysSinceEpoch == 0)
        #expect(LocalDate(year: 2000, month: 3, day: 1).daysSinceEpoch == 11_017)
        #expect(LocalDate(daysSinceEpoch: -1) == LocalDate(year: 1969, month: 12, day: 31))
        #expect(LocalDate(year: 2026, month: 11, day: 22).weekday == .sunday)
        #expect(LocalDate(year: 2024, month: 12, day: 31).dayOfYear == 366)
        for days in stride(from: -800_000, through: 800_000, by: 997) {
            #expect(LocalDate(daysSinceEpoch: days).daysSinceEpoch == days)
        }
    }
}

@Suite struct DurationTests {
    @Test func parsesNominalAndExactParts() throws {
        let d = try #require(ICalDuration(parsing: "P15DT5H0M20S"))
        #expect(d.nominalDays == 15 && d.exactSeconds == 5 * 3600 + 20)
        #expect(ICalDuration(parsing: "P7W")?.nominalDays == 49)
        #expect(ICalDuration(parsing: "-PT15M")?.exactSeconds == -900)
        #expect(ICalDuration(parsing: "+P1D")?.nominalDays == 1)
        #expect(ICalDuration(parsing: "pt1h")?.exactSeconds == 3600)
    }

    @Test(arguments: ["P", "PT", "P1H", "PT1D", "1D", "P1DT", "P-1D", "PT1H2"])
    func refusesMalformedDurations(_ text: String) {
        #expect(ICalDuration(parsing: text) == nil)
    }

    @Test func writesCanonicalText() {
        #expect(ICalDuration(parsing: "P1W")?.description == "P1W")
        #expect(ICalDuration(parsing: "PT90M")?.description == "PT90M")
        #expect(ICalDuration(weeks: 1, days: 1).description == "P8D")
        #expect(ICalDuration().description == "PT0S")
    }
}

@Suite struct OtherValueTests {
    /// A property's TZID is the first value of its TZID parameter, however its parameters are
    /// written: alone, among others, quoted, caret-escaped, listed, or absent.
    @Test func aTZIDIsTheFirstValueOfItsParameter() {
        let cases: [[Parameter]] = [
            [Parameter(name: "TZID", values: ["Europe/Berlin"])],
            [Parameter(name: "VALUE", values: ["DATE-TIME"]), Parameter(name: "TZID", values: ["America/New_York"])],
            [Parameter(name: "TZID", values: ["Zone; with, \"quotes\" and ^"])],
            [Parameter(name: "TZID", values: ["A", "B"])], [Parameter(name: "TZID", values: [""])],
            [Parameter(name: "X-TZID", values: ["no"])], [],
        ]
        for parameters in cases {
            let property = Property(name: "DTSTART", parameters: parameters, value: "20260101T100000")
            #expect(property.tzid == property[parameter: "TZID"], "\(parameters)")
            #expect(property.tzid == parameters.first { $0.name == "TZID" }?.values.first, "\(parameters)")
        }
    }

    /// A date is read the same from a string and from a part of one.
    @Test func aDateReadsTheSameFromAStringOrAPartOfOne() {
        for text in ["20260310", "20260310T101500", "20260310t101500z", "20261310", "2026031", "20260310X101500"] {
            let whole = DateTimeValue(parsing: text, tzid: "Europe/Berlin")
            #expect(DateTimeValue(parsing: ("x" + text + "y").dropFirst().dropLast(), tzid: "Europe/Berlin") == whole)
        }
        #expect(DateTimeValue(parsing: "20260310T101500Z")?.form == .utc)
        #expect(DateTimeValue(parsing: "20261310") == nil)
    }

    @Test func periodsWithEndOrDuration() throws {
        let p = try #require(Period(parsing: "19970101T180000Z/19970102T070000Z"))
        #expect(p.extent == .end(DateTimeValue(parsing: "19970102T070000Z")!))
        let q = try #require(Period(parsing: "19970101T180000Z/PT5H30M"))
        #expect(q.extent == .duration(ICalDuration(hours: 5, minutes: 30)))
        #expect(Period(parsing: "19970101/19970102") == nil)
    }

    @Test func utcOffsets() {
        #expect(UTCOffset(parsing: "-0500")?.seconds == -18_000)
        #expect(UTCOffset(parsing: "+002946")?.seconds == 29 * 60 + 46)
        #expect(UTCOffset(parsing: "+0530")?.description == "+0530")
        #expect(UTCOffset(parsing: "0500") == nil)
        #expect(UTCOffset(seconds: 3600).rfc3339 == "+01:00")
    }

    @Test func valueCheckerAcceptsAndRefusesEachType() {
        let cases: [(ValueType, String, Bool)] = [
            (.boolean, "TRUE", true), (.boolean, "yes", false),
            (.integer, "-3", true), (.integer, "3.5", false),
            (.float, "37.386013;-122.082932", true), (.float, "north", false),
            (.date, "19970714", true), (.date, "19970714T000000", false),
            (.dateTime, "19970714T173000Z", true), (.dateTime, "19970714", false),
            (.duration, "PT1H", true), (.duration, "1H", false),
            (.period, "19970101T180000Z/PT5H30M", true), (.period, "19970101T180000Z", false),
            (.recur, "FREQ=DAILY;COUNT=3", true), (.recur, "FREQ=SOMETIMES", false),
            (.utcOffset, "+0100", true), (.utcOffset, "+1", false),
            (.time, "230000", true), (.time, "230000Z", true), (.time, "2300", false),
            (.binary, "AAABAAEAEBAQAAEABAAoAQAAFgAAACgAAAAQAAAAIAAAAAEABAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", true),
            (.binary, "not base64!", false),
            (.uri, "http://example.com/x", true), (.uri, "", false),
            (.calAddress, "mailto:jane@example.com", true), (.calAddress, "jane", false),
            (.text, "anything, at all", true),
        ]
        for (type, text, valid) in cases {
            #expect((ValueChecker.problem(with: text, as: type) == nil) == valid, "\(type) \(text)")
        }
    }
}

@Suite struct TextValueTests {
    /// A combining mark (U+0301) right after a delimiter joins it into one Character; escaping
    /// and splitting still see the delimiter.
    @Test func delimitersFollowedByACombiningMark() {
        let mark = "\u{301}", backslash = "\\"
        let text = "a," + mark + "b;" + mark + "c" + backslash + mark + "d\r\ne\rf\ng"
        let escaped = TextValue.escape(text)
        let expected = "a\\," + mark + "b\\;" + mark + "c" + backslash + backslash + mark + "d\\ne\\nf\\ng"
        #expect(escaped == expected)
        let back = TextValue.unescape(escaped)
        let expectedBack = "a," + mark + "b;" + mark + "c" + backslash + mark + "d\ne\nf\ng"
        #expect(back == expectedBack)
        let lone = TextValue.unescape("x" + backslash + mark)
        #expect(lone == "x" + mark)
        let items = TextValue.splitList("a," + mark + "b,c" + backslash + "," + mark + "d")
        #expect(items == ["a", mark + "b", "c," + mark + "d"])
    }

    @Test func escapesAndUnescapesBothWays() {
        let text = "a,b;c\\d\ne"
        #expect(TextValue.escape(text) == "a\\,b\\;c\\\\d\\ne")
        #expect(TextValue.unescape(TextValue.escape(text)) == text)
        #expect(TextValue.unescape("line\\Nbreak") == "line\nbreak")
        #expect(TextValue.unescape("a\\:b") == "a:b")
    }

    @Test func splitsListsOnUnescapedCommasOnly() {
        #expect(TextValue.splitList("APPOINTMENT,EDUCATION") == ["APPOINTMENT", "EDUCATION"])
        #expect(TextValue.splitList("a\\,b,c") == ["a,b", "c"])
        #expect(TextValue.joinList(["a,b", "c"]) == "a\\,b,c")
    }
}

@Suite struct RecurrenceRuleTests {
    @Test func parsesEveryPart() throws {
        let r = try RecurrenceRule(
            parsing:
                "FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU;BYMONTHDAY=1,-1;BYMONTH=1,2;BYSETPOS=-1;WKST=SU;BYHOUR=9;BYMINUTE=30;BYSECOND=0"
        )
        #expect(r.frequency == .monthly && r.interval == 2 && r.count == 10)
        #expect(r.byDay == [.init(.sunday, ordinal: 1), .init(.sunday, ordinal: -1)])
        #expect(r.byMonthDay == [1, -1] && r.byMonth == [1, 2] && r.bySetPos == [-1])
        #expect(r.weekStart == .sunday && r.byHour == [9] && r.byMinute == [30] && r.bySecond == [0])
        let y = try RecurrenceRule(parsing: "FREQ=YEARLY;BYWEEKNO=20,-1;BYYEARDAY=-1,100;UNTIL=20301231T235959Z")
        #expect(y.byWeekNo == [20, -1] && y.byYearDay == [-1, 100] && y.until?.form == .utc)
    }

    @Test func keepsPartsItDoesNotModel() throws {
        let r = try RecurrenceRule(parsing: "RSCALE=CHINESE;FREQ=YEARLY;SKIP=FORWARD")
        #expect(r.usesNonGregorianScale)
        #expect(r.description.contains("RSCALE=CHINESE") && r.description.contains("SKIP=FORWARD"))
    }

    @Test func untilWithoutZIsReadInTheStartZone() throws {
        let r = try RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20260101T100000", tzid: "Europe/Berlin")
        #expect(r.until?.form == .zoned(tzid: "Europe/Berlin"))
    }

    @Test(arguments: [
        ("INTERVAL=2", "FREQ is missing"), ("FREQ=DAILY;COUNT=0", "COUNT"), ("FREQ=DAILY;BYHOUR=24", "BYHOUR"),
        ("FREQ=DAILY;BYMONTHDAY=0", "BYMONTHDAY"), ("FREQ=WEEKLY;BYDAY=XX", "BYDAY"),
        ("FREQ=DAILY;COUNT=2;UNTIL=20260101", "COUNT and UNTIL"),
        ("FREQ=DAILY;FREQ=WEEKLY", "twice"), ("FREQ=YEARLY;BYWEEKNO=54", "BYWEEKNO"),
        ("FREQ=DAILY;INTERVAL=-1", "INTERVAL"),
    ])
    func refusesInvalidRulesSayingWhy(_ text: String, _ why: String) {
        let error = #expect(throws: RecurrenceRuleError.self) { try RecurrenceRule(parsing: text) }
        #expect(error?.message.contains(why) == true, "\(text): \(String(describing: error))")
    }

    @Test func reportsCombinationsTheRFCForbidsWithoutRefusingThem() throws {
        let r = try RecurrenceRule(parsing: "FREQ=WEEKLY;BYMONTHDAY=3")
        #expect(r.rfcViolations == ["BYMONTHDAY is not valid with FREQ=WEEKLY"])
    }

    @Test func canonicalTextRoundTrips() throws {
        let text = "FREQ=WEEKLY;UNTIL=20261231T000000Z;INTERVAL=2;BYDAY=MO,WE,FR;WKST=SU"
        #expect(try RecurrenceRule(parsing: text).description == text)
    }

    /// An ASCII rule is split over its bytes, any other over its scalars: the same rule with a
    /// part in another script added reads the same (that part aside), errors included.
    @Test(arguments: [
        "FREQ=WEEKLY;UNTIL=20261231T000000Z;INTERVAL=2;BYDAY=MO,WE,FR;WKST=SU", " freq = weekly ;\tbyday=mo\t",
        ";;FREQ=DAILY;;COUNT=3;", "FREQ=DAILY;COUNT", "FREQ=DAILY;=3", "FREQ=DAILY;freq=WEEKLY", "FREQ=DAILY;X-A=b=c",
        "INTERVAL=2", "FREQ=MONTHLY;BYMONTHDAY=1,-1;BYSETPOS=-1;UNTIL=20300101", "FREQ=YEARLY;BYMONTH=13", "",
        "FREQ=DAILY;UNTIL=20260101T100000;X-EMPTY=",
    ])
    func anASCIIRuleReadsAsItDoesAmongOtherScripts(_ text: String) {
        func outcome(_ text: String) -> String {
            do {
                var rule = try RecurrenceRule(parsing: text, tzid: "Europe/Berlin")
                rule.otherParts.removeAll { $0.name == "X-NOTE" }
                return rule.description + " \(rule.hasExplicitWeekStart)"
            } catch { return "\(error)" }
        }
        #expect(outcome(text) == outcome(text + ";X-NOTE=café"))
    }
}
