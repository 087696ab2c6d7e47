#!/usr/bin/env python3
"""Counts the occurrences of a calendar in [FROM, TO) with recurring-ical-events.

usage: python_expand.py FILE FROM TO      (dates as YYYY-MM-DD)
"""
import datetime as dt
import sys

import icalendar
import recurring_ical_events

with open(sys.argv[1], "rb") as f:
    cal = icalendar.Calendar.from_ical(f.read())
n = sum(1 for _ in recurring_ical_events.of(cal).between(dt.date.fromisoformat(sys.argv[2]), dt.date.fromisoformat(sys.argv[3])))
print(n)
