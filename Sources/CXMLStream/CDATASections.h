#ifndef CDATA_SECTIONS_H
#define CDATA_SECTIONS_H
/// The CDATA sections of a document, taken out of what the reader gives libxml2.
///
/// libxml2's push parser spends some 25 instructions a byte on a CDATA section: it looks for
/// `]]>`, checks each character and counts lines, byte by byte, each in a pass of its own. A
/// CalDAV server such as Cyrus sends every calendar-data as a CDATA section, so most of a
/// multistatus is CDATA. The reader takes each section's text out itself, checks it at a few
/// instructions a byte, and gives libxml2 a marker in its place: `<![CDATA[#`, one LF for each
/// LF of the text (libxml2's line numbers stay right), `]]>`. When libxml2 reports a marker,
/// the reader reports the text it stands for instead: texts keep their place in the document.
///
/// Only a document in UTF-8 is read so: without a byte order mark or with UTF-8's, and with no
/// encoding declared or UTF-8 declared. Any other goes to libxml2 untouched. The sections are
/// found by a small scanner that knows where a `<![CDATA[` is not one (in a comment, a
/// processing instruction, a quoted attribute value); at any other `<!` (a DOCTYPE, which the
/// reader refuses anyway, or markup libxml2 rejects) it stops and passes the rest on untouched.
///
/// The bytes fed may be split anywhere: the scanner's state carries over, and a section not
/// closed yet is held until its `]]>` arrives, up to 8 MB of its text: a longer one (or one never
/// closed) goes to libxml2 as it is, with the rest of the document. libxml2's
/// line numbers stay right after a marker; its columns on the line the marker ends stay right
/// when the section's text ends with an LF (as iCalendar data does).
#include <stddef.h>

/// A growable run of bytes.
typedef struct {
    char *bytes;
    size_t length;
    size_t capacity;
} cxml_buffer;

/// A section's text waiting for libxml2 to reach its marker.
typedef struct {
    const char *text;
    size_t length;
    /// The text's own copy, or NULL while `text` points into the bytes being fed.
    char *owned;
    /// How many bytes of marker libxml2 reports for it: "#" and the LFs.
    size_t marker;
    /// Non-zero when every line end of the text is a CRLF (none is an LF or a CR alone).
    int crlf;
} cxml_section;

/// Where the scanner is in the document.
typedef enum {
    CXML_SCAN_START,       // the document's encoding is not known yet
    CXML_SCAN_CONTENT,     // in character data (or between the prolog's markup)
    CXML_SCAN_LT,          // after `<`
    CXML_SCAN_BANG,        // after `<!`
    CXML_SCAN_DASH,        // after `<!-`
    CXML_SCAN_CDATA_OPEN,  // within `<![CDATA[` (`progress` bytes of it read)
    CXML_SCAN_SECTION,     // in a section's text
    CXML_SCAN_COMMENT,     // in a comment (`progress`: the `-` just read, up to 2)
    CXML_SCAN_PI,          // in a processing instruction (`progress`: 1 after a `?`)
    CXML_SCAN_TAG,         // in a start or end tag, outside quotes
    CXML_SCAN_DOUBLE_QUOTED,
    CXML_SCAN_SINGLE_QUOTED,
    CXML_SCAN_OFF,         // everything goes to libxml2 untouched
} cxml_scan_state;

typedef struct {
    cxml_scan_state state;
    int progress;
    /// The document's first bytes, held until its encoding is known.
    cxml_buffer head;
    /// The text of a section not closed yet.
    cxml_buffer held;
    /// What libxml2 is to read for the bytes last scanned.
    cxml_buffer out;
    /// Sections whose marker libxml2 has not reported yet, oldest first.
    cxml_section *queue;
    size_t first;
    size_t count;
    size_t capacity;
    /// Bytes of the marker being reported that libxml2 has still to report.
    size_t marker_left;
    /// The copy of the text last reported, freed at the next.
    char *reported;
    /// Why a scan failed, and where: the LFs in the section before the bad byte, and the bytes
    /// before it on its line (from the section's start when there is no LF before it).
    char failure[128];
    size_t failure_lines;
    size_t failure_offset;
} cxml_sections;

void cxml_sections_init(cxml_sections *sections);
void cxml_sections_free(cxml_sections *sections);

/// Scans the next `length` bytes of the document into `out` (emptied first), queueing the
/// texts of the sections closed; `final` non-zero marks the end of the document (a section
/// left open then goes to libxml2 as it was, for libxml2 to say what is wrong).
/// Returns 0, or non-zero when a section's text is not UTF-8 of XML characters or memory ran
/// out (see `failure`): `out` then holds what libxml2 is to read before that is reported.
int cxml_sections_scan(cxml_sections *sections, const char *bytes, size_t length, int final);

/// Copies the texts queued that still point into the bytes scanned last: called once libxml2
/// has read `out`, before those bytes go away. Returns non-zero when memory ran out.
int cxml_sections_keep(cxml_sections *sections);

/// What to report for a CDATA block libxml2 reports (`*bytes`, `*length`): the text of the
/// section whose marker starts with it, nothing (a length of 0) for the rest of a marker, or
/// the block itself for a section libxml2 read on its own. `*crlf` is set non-zero when the
/// text is a section's whose line ends are all CRLF (as checked while it was scanned), else 0.
void cxml_sections_block(cxml_sections *sections, const char **bytes, size_t *length, int *crlf);

#endif
