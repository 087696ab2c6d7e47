/* Counts the occurrences of a calendar in [FROM, TO) with libical's
 * icalcomponent_foreach_recurrence (icalrecur_iterator underneath, with RDATE/EXDATE).
 * usage: libical_expand FILE FROM TO   (dates as YYYYMMDD) */
#include <libical/ical.h>
#include <stdio.h>
#include <stdlib.h>

static long count = 0;
static void seen(icalcomponent *c, struct icaltime_span *span, void *data) { (void)c; (void)span; (void)data; count++; }

int main(int argc, char **argv) {
    if (argc < 4) return 2;
    FILE *f = fopen(argv[1], "rb");
    if (!f) return 1;
    fseek(f, 0, SEEK_END); long size = ftell(f); fseek(f, 0, SEEK_SET);
    char *text = malloc(size + 1);
    if (fread(text, 1, size, f) != (size_t)size) return 1;
    text[size] = 0; fclose(f);
    icalcomponent *cal = icalparser_parse_string(text);
    icaltimetype from = icaltime_from_string(argv[2]), to = icaltime_from_string(argv[3]);
    for (icalcomponent *e = icalcomponent_get_first_component(cal, ICAL_VEVENT_COMPONENT); e;
         e = icalcomponent_get_next_component(cal, ICAL_VEVENT_COMPONENT)) {
        if (icalcomponent_get_first_property(e, ICAL_RECURRENCEID_PROPERTY)) continue;
        icalcomponent_foreach_recurrence(e, from, to, seen, NULL);
    }
    printf("%ld\n", count);
    return 0;
}
