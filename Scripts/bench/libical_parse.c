/* Parse and serialize one .ics file with libical, as calgw's parse benchmark anchor.
 * usage: libical_parse FILE   (prints bytes read and bytes written) */
#include <libical/ical.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s FILE\n", argv[0]); return 2; }
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 1; }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = malloc((size_t)size + 1);
    if (fread(data, 1, (size_t)size, f) != (size_t)size) { perror("read"); return 1; }
    data[size] = 0;
    fclose(f);
    icalcomponent *c = icalparser_parse_string(data);
    if (!c) { fprintf(stderr, "libical could not parse %s\n", argv[1]); return 1; }
    char *out = icalcomponent_as_ical_string(c);
    printf("%ld %zu\n", size, out ? strlen(out) : 0);
    return 0;
}
