import ICalendar

/// Local storage: a directory of `.ics` files, one calendar object per file.
public enum VDirLayout {}
