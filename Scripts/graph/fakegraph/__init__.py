"""A stateful fake of Microsoft Graph v1.0's calendar endpoints for one mailbox, written from
Graph's documentation, for testing calgw's Graph storage without a Microsoft tenant.
Modules: server (HTTP, auth, throttling, $batch), api (routes), mailbox and events (state and
writes), recurrence (patternedRecurrence), delta (calendarView delta rounds), render (JSON),
zones (time zones), ledger (mails Graph would send), faults and control (the /_fake/ API).
See ../README.md."""
