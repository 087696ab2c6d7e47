#!/usr/bin/env python3
"""Parse and serialize one .ics file with python `icalendar` (benchmark anchor)."""
import sys
from icalendar import Calendar

data = open(sys.argv[1], "rb").read()
out = Calendar.from_ical(data).to_ical()
print(len(data), len(out))
