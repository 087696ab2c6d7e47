import ICalendar
import VDir
import CalDAV

/// Two-way sync of a vdir with a CalDAV collection.
public enum CalendarSyncEngine {}
