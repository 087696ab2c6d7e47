import ICalendar

/// Expansion of recurring calendar components (RFC 5545 §3.3.10, §3.8.5).
public enum RecurrenceEngine {}
