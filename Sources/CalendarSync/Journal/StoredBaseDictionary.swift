/// Dictionary 1 of ``StoredBase``: the text iCalendar objects repeat, which a base compressed
/// alone can then point back into. Frozen: a base packed with it is read with exactly these
/// bytes, so a change here is a new dictionary (a new form), never an edit.
///
/// What it holds: the component frame, the two VTIMEZONE shapes most calendars carry (Central
/// Europe's and North America's rules as clients write them), the properties and parameters
/// events, tasks and meetings use, and their common values. The commonest text comes last, where
/// references to it are shortest.
enum StoredBaseDictionary {
    static let bytes: [UInt8] = Array(text.utf8)

    private static let text =
        "BEGIN:VTODO\r\nDUE;VALUE=DATE:\r\nDUE;TZID=\r\nCOMPLETED:\r\nPERCENT-COMPLETE:100\r\nPRIORITY:\r\n"
        + "STATUS:NEEDS-ACTION\r\nSTATUS:COMPLETED\r\nRELATED-TO;RELTYPE=PARENT:\r\nEND:VTODO\r\n"
        + "BEGIN:VJOURNAL\r\nEND:VJOURNAL\r\nMETHOD:REQUEST\r\nMETHOD:PUBLISH\r\nCALSCALE:GREGORIAN\r\n"
        + "X-WR-CALNAME:\r\nX-WR-TIMEZONE:\r\nX-MICROSOFT-CDO-BUSYSTATUS:BUSY\r\nX-MOZ-GENERATION:\r\n"
        + "X-LIC-LOCATION:\r\nX-APPLE-STRUCTURED-LOCATION;VALUE=URI;\r\n"
        + "BEGIN:VTIMEZONE\r\nTZID:America/New_York\r\nBEGIN:DAYLIGHT\r\nTZOFFSETFROM:-0500\r\nTZOFFSETTO:-0400\r\n"
        + "TZNAME:EDT\r\nDTSTART:19700308T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU\r\nEND:DAYLIGHT\r\n"
        + "BEGIN:STANDARD\r\nTZOFFSETFROM:-0400\r\nTZOFFSETTO:-0500\r\nTZNAME:EST\r\nDTSTART:19701101T020000\r\n"
        + "RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n"
        + "BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\nBEGIN:DAYLIGHT\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\n"
        + "TZNAME:CEST\r\nDTSTART:19700329T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\nEND:DAYLIGHT\r\n"
        + "BEGIN:STANDARD\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nTZNAME:CET\r\nDTSTART:19701025T030000\r\n"
        + "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n"
        + "BEGIN:VALARM\r\nACTION:DISPLAY\r\nACTION:EMAIL\r\nTRIGGER;RELATED=END:\r\nTRIGGER;VALUE=DATE-TIME:\r\n"
        + "TRIGGER:-PT15M\r\nTRIGGER:-PT10M\r\nTRIGGER:-PT30M\r\nTRIGGER:-P1D\r\nDESCRIPTION:Reminder\r\n"
        + "DESCRIPTION:This is an event reminder\r\nEND:VALARM\r\n"
        + "ORGANIZER;CN=\r\nATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=TRUE;CN=\r\n"
        + "ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=OPT-PARTICIPANT;PARTSTAT=TENTATIVE;CN=\r\n"
        + "ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=DECLINED;CN=\r\n"
        + "ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE;CN=\r\n"
        + ";X-NUM-GUESTS=0:mailto:\r\nSCHEDULE-STATUS=\r\n"
        + "RRULE:FREQ=DAILY;COUNT=\r\nRRULE:FREQ=MONTHLY;BYMONTHDAY=\r\nRRULE:FREQ=YEARLY;INTERVAL=1\r\n"
        + "RRULE:FREQ=WEEKLY;WKST=MO;BYDAY=MO,TU,WE,TH,FR;UNTIL=\r\nEXDATE;TZID=\r\nRDATE;VALUE=DATE:\r\n"
        + "RECURRENCE-ID;TZID=\r\nRECURRENCE-ID;VALUE=DATE:\r\nURL:https://\r\nCATEGORIES:\r\n"
        + "CLASS:PUBLIC\r\nCLASS:PRIVATE\r\nSTATUS:CONFIRMED\r\nSTATUS:TENTATIVE\r\nSTATUS:CANCELLED\r\n"
        + "TRANSP:TRANSPARENT\r\nTRANSP:OPAQUE\r\nDTSTART;VALUE=DATE:\r\nDTEND;VALUE=DATE:\r\n"
        + "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//\r\nBEGIN:VEVENT\r\nUID:\r\nDTSTAMP:\r\nCREATED:\r\n"
        + "LAST-MODIFIED:\r\nSEQUENCE:0\r\nDTSTART;TZID=\r\nDTEND;TZID=\r\nDTSTART:\r\nDTEND:\r\nDURATION:PT1H\r\n"
        + "SUMMARY:\r\nLOCATION:\r\nDESCRIPTION:\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
}
