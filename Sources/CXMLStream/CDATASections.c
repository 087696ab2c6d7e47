#define _GNU_SOURCE  // memmem
#include "CDATASections.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char cdata_open[] = "<![CDATA[";
enum { CDATA_OPEN_LENGTH = 9 };
/// How much of a section's text is held, at most, until its `]]>` arrives: past it the section
/// goes to libxml2 as it is, and so does the rest of the document.
#define CXML_HELD_LIMIT ((size_t)8 << 20)

/// How much of a document's start is held, at most, to read its XML declaration.
enum { DECLARATION_LIMIT = 1024 };

// MARK: Buffers and the queue

static int reserve(cxml_buffer *buffer, size_t extra) {
    if (buffer->capacity - buffer->length >= extra) return 1;
    size_t capacity = buffer->capacity > 0 ? buffer->capacity : 256;
    while (capacity - buffer->length < extra) {
        if (capacity > SIZE_MAX / 2) return 0;
        capacity *= 2;
    }
    char *bytes = realloc(buffer->bytes, capacity);
    if (bytes == NULL) return 0;
    buffer->bytes = bytes;
    buffer->capacity = capacity;
    return 1;
}

static int append(cxml_buffer *buffer, const char *bytes, size_t length) {
    if (length == 0) return 1;
    if (!reserve(buffer, length)) return 0;
    memcpy(buffer->bytes + buffer->length, bytes, length);
    buffer->length += length;
    return 1;
}

static void release(cxml_buffer *buffer) {
    free(buffer->bytes);
    memset(buffer, 0, sizeof *buffer);
}

static int enqueue(cxml_sections *s, cxml_section section) {
    if (s->count == s->capacity) {
        size_t capacity = s->capacity > 0 ? s->capacity * 2 : 16;
        cxml_section *queue = malloc(capacity * sizeof *queue);
        if (queue == NULL) return 0;
        for (size_t i = 0; i < s->count; i++) queue[i] = s->queue[(s->first + i) % s->capacity];
        free(s->queue);
        s->queue = queue;
        s->first = 0;
        s->capacity = capacity;
    }
    s->queue[(s->first + s->count) % s->capacity] = section;
    s->count++;
    return 1;
}

static cxml_section dequeue(cxml_sections *s) {
    cxml_section section = s->queue[s->first];
    s->first = (s->first + 1) % s->capacity;
    s->count--;
    return section;
}

void cxml_sections_init(cxml_sections *s) {
    memset(s, 0, sizeof *s);
    s->state = CXML_SCAN_START;
}

void cxml_sections_free(cxml_sections *s) {
    while (s->count > 0) free(dequeue(s).owned);
    free(s->queue);
    free(s->reported);
    release(&s->head);
    release(&s->held);
    release(&s->out);
}

static int out_of_memory(cxml_sections *s) {
    snprintf(s->failure, sizeof s->failure, "out of memory while reading a CDATA section");
    s->failure_lines = 0;
    s->failure_offset = 0;
    return 1;
}

// MARK: The document's encoding

static int is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

typedef enum { ENCODING_UNKNOWN, ENCODING_UTF8, ENCODING_OTHER } encoding;

/// Whether an XML declaration's pseudo-attributes (between `<?xml` and `?>`) leave the document
/// in UTF-8: no encoding, or UTF-8 in any case. Anything not read plainly is not.
static encoding declared_encoding(const unsigned char *p, size_t length) {
    const unsigned char *end = p + length;
    const unsigned char *name = memmem(p, length, "encoding", 8);
    if (name == NULL) return ENCODING_UTF8;
    p = name + 8;
    while (p < end && is_space(*p)) p++;
    if (p == end || *p++ != '=') return ENCODING_OTHER;
    while (p < end && is_space(*p)) p++;
    if (p == end || (*p != '"' && *p != '\'')) return ENCODING_OTHER;
    unsigned char quote = *p++;
    const unsigned char *value = p;
    while (p < end && *p != quote) p++;
    if (p == end || p - value != 5) return ENCODING_OTHER;
    static const char utf8[] = "utf-8";
    for (int i = 0; i < 5; i++) {
        unsigned char c = value[i];
        if (c >= 'A' && c <= 'Z') c += 'a' - 'A';
        if (c != (unsigned char)utf8[i]) return ENCODING_OTHER;
    }
    return ENCODING_UTF8;
}

/// The encoding of a document starting with `length` bytes, as libxml2 would find it; unknown
/// while more bytes could tell (never when `final`).
static encoding document_encoding(const unsigned char *p, size_t length, int final) {
    encoding wait = final ? ENCODING_OTHER : ENCODING_UNKNOWN;
    if (length > 0 && p[0] == 0xEF) {  // UTF-8's byte order mark
        if (length < 3) return wait;
        if (p[1] != 0xBB || p[2] != 0xBF) return ENCODING_OTHER;
        p += 3;
        length -= 3;
    }
    // libxml2 tells UTF-16, UCS-4 and EBCDIC from the first four bytes: a NUL byte among them,
    // or a first byte that is neither `<` nor white space (a byte order mark, `L` for EBCDIC).
    if (length < 4) return wait;
    if (p[0] != '<' && !is_space(p[0])) return ENCODING_OTHER;
    if (memchr(p, 0, 4) != NULL) return ENCODING_OTHER;
    if (memcmp(p, "<?xm", 4) != 0) return ENCODING_UTF8;
    if (length < 6) return wait;
    if (p[4] != 'l' || !is_space(p[5])) return ENCODING_UTF8;  // a processing instruction
    const unsigned char *close = memmem(p, length, "?>", 2);
    if (close == NULL) return final || length > DECLARATION_LIMIT ? ENCODING_OTHER : ENCODING_UNKNOWN;
    return declared_encoding(p + 6, (size_t)(close - (p + 6)));
}

// MARK: A section's text

/// The length of the UTF-8 sequence at `p` when it is one XML character beyond ASCII (any code
/// point from U+0080 but the surrogates, U+FFFE and U+FFFF), else 0: not UTF-8 (a stray or
/// missing continuation byte, an overlong form) or not a character XML allows.
static size_t xml_character_length(const unsigned char *p, size_t available) {
#define CONTINUATION(c) (((c) & 0xC0) == 0x80)
    unsigned char c = p[0];
    if (c < 0xC2) return 0;
    if (c < 0xE0) return available >= 2 && CONTINUATION(p[1]) ? 2 : 0;
    if (c < 0xF0) {
        if (available < 3 || !CONTINUATION(p[1]) || !CONTINUATION(p[2])) return 0;
        if (c == 0xE0 && p[1] < 0xA0) return 0;                   // overlong
        if (c == 0xED && p[1] >= 0xA0) return 0;                  // a surrogate
        if (c == 0xEF && p[1] == 0xBF && p[2] >= 0xBE) return 0;  // U+FFFE, U+FFFF
        return 3;
    }
    if (c < 0xF5) {
        if (available < 4 || !CONTINUATION(p[1]) || !CONTINUATION(p[2]) || !CONTINUATION(p[3])) return 0;
        if (c == 0xF0 && p[1] < 0x90) return 0;   // overlong
        if (c == 0xF4 && p[1] >= 0x90) return 0;  // beyond U+10FFFF
        return 4;
    }
    return 0;
#undef CONTINUATION
}

// MARK: Eight bytes at a time

static const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;

static uint64_t load_word(const void *p) {
    uint64_t word;
    memcpy(&word, p, 8);
    return word;
}

/// Flags (the high bit of each byte) the bytes of `word` that are not printable ASCII: below
/// 0x20 or above 0x7F. The byte flagged first in memory is exact; bytes after it may be
/// flagged wrongly (a borrow), which is why only the first one counts.
static uint64_t unprintable_bytes(uint64_t word) {
    // A byte from 0x80 has its high bit set; one below 0x20 sets it in `word - 0x20…`.
    return (word | (word - 0x20 * ones)) & highs;
}

/// Flags the bytes of `word` equal to `byte`, the first one in memory exactly (as above).
static uint64_t bytes_equal(uint64_t word, unsigned char byte) {
    uint64_t zeroed = word ^ (byte * ones);
    return (zeroed - ones) & ~zeroed & highs;
}

/// The offset in its word of the byte flagged first in memory (`flags` not 0); 0 where the
/// byte order is not known, so a byte loop takes over there.
static size_t first_flagged(uint64_t flags) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return (size_t)__builtin_ctzll(flags) >> 3;
#else
    (void)flags;
    return 0;
#endif
}

/// Checks that a section's text is UTF-8 of XML 1.0 characters (#x9 | #xA | #xD | [#x20-#xD7FF]
/// | [#xE000-#xFFFD] | [#x10000-#x10FFFF]), counting its LFs (those before its first bad byte,
/// if any) into `*lines`, and its line ends that are not CRLF (an LF without its CR, a CR
/// without its LF) into `*unpaired`. Printable ASCII goes eight bytes at a time, and a CRLF
/// at once. Returns the length of its valid start: `length` when it is all valid.
static size_t check_text(const unsigned char *text, size_t length, size_t *lines, size_t *unpaired) {
    const unsigned char *p = text, *end = text + length;
    size_t lfs = 0, lone = 0;
    while (p < end) {
        while (end - p >= 8) {
            uint64_t flags = unprintable_bytes(load_word(p));
            if (flags != 0) {
                p += first_flagged(flags);
                break;
            }
            p += 8;
        }
        if (p == end) break;
        unsigned char c = *p;
        if (c >= 0x20 && c < 0x80) {
            p++;
        } else if (c == '\r' && end - p >= 2 && p[1] == '\n') {
            lfs++;
            p += 2;
        } else if (c == '\n' || c == '\r' || c == '\t') {
            lfs += c == '\n';
            lone += c != '\t';  // a CR followed by its LF was taken with it above
            p++;
        } else {
            size_t n = c < 0x20 ? 0 : xml_character_length(p, (size_t)(end - p));
            if (n == 0) break;
            p += n;
        }
    }
    *lines = lfs;
    *unpaired = lone;
    return (size_t)(p - text);
}

/// Records why the text of a section fails at `bad`, and where.
static void fail_text(cxml_sections *s, const unsigned char *text, size_t bad, size_t length, size_t lines) {
    const unsigned char *line = text;
    for (size_t i = bad; i > 0; i--) {
        if (text[i - 1] == '\n') {
            line = text + i;
            break;
        }
    }
    s->failure_lines = lines;
    s->failure_offset = (size_t)(text + bad - line);
    unsigned char c = text[bad];
    if (c < 0x20) {
        snprintf(s->failure, sizeof s->failure,
                 "a CDATA section holds the control character 0x%02X, which XML does not allow", c);
    } else {
        size_t n = length - bad < 4 ? length - bad : 4;
        char bytes[24] = "";
        for (size_t i = 0; i < n; i++) snprintf(bytes + 5 * i, sizeof bytes - 5 * i, " 0x%02X", text[bad + i]);
        snprintf(s->failure, sizeof s->failure,
                 "a CDATA section holds bytes that are not UTF-8 of XML characters:%s", bytes);
    }
}

/// Where the first `]]>` in `p` starts, or NULL.
static const char *find_close(const char *p, const char *end) {
    while (end - p >= 3) {
        const char *bracket = memchr(p, ']', (size_t)(end - p) - 2);
        if (bracket == NULL) return NULL;
        if (bracket[1] == ']' && bracket[2] == '>') return bracket;
        p = bracket + 1;
    }
    return NULL;
}

/// Queues a closed section's text (`owned`: a copy now the queue's, or NULL when `text` points
/// into the bytes being scanned) and puts its marker's text and `]]>` in `out`.
/// Returns non-zero when the text is not valid.
static int close_section(cxml_sections *s, const char *text, size_t length, char *owned) {
    size_t lines;  // in the text, or before its first bad byte
    size_t unpaired;
    size_t valid = check_text((const unsigned char *)text, length, &lines, &unpaired);
    if (valid < length) {
        fail_text(s, (const unsigned char *)text, valid, length, lines);
        free(owned);
        return 1;
    }
    cxml_section section = {text, length, owned, 1 + lines, unpaired == 0};
    if (!reserve(&s->out, lines + 4) || !enqueue(s, section)) {
        free(owned);
        return out_of_memory(s);
    }
    char *marker = s->out.bytes + s->out.length;
    marker[0] = '#';
    memset(marker + 1, '\n', lines);
    memcpy(marker + 1 + lines, "]]>", 3);
    s->out.length += lines + 4;
    return 0;
}

/// Reads the text of the open section from `p`: closes it when its `]]>` is there (ending where
/// `*after` says), else holds what is there. Returns non-zero on failure.
static int read_section(cxml_sections *s, const char *p, const char *end, const char **after) {
    cxml_buffer *held = &s->held;
    size_t h = held->length;
    // The `]]>` may have begun in the bytes held.
    size_t close_in_held = 0;
    if (h >= 2 && held->bytes[h - 2] == ']' && held->bytes[h - 1] == ']' && *p == '>') {
        close_in_held = 2;
        *after = p + 1;
    } else if (h >= 1 && held->bytes[h - 1] == ']' && end - p >= 2 && p[0] == ']' && p[1] == '>') {
        close_in_held = 1;
        *after = p + 2;
    }
    const char *close = p;
    if (close_in_held == 0) {
        close = find_close(p, end);
        if (close == NULL) {
            *after = NULL;
            if (!append(held, p, (size_t)(end - p))) return out_of_memory(s);
            if (held->length > CXML_HELD_LIMIT) {
                // A section this long, or one a server never closes, is not held whole: libxml2
                // reads it and the rest of the document as it reads them alone (the text in
                // blocks, which the reader's own bound on a response's text limits).
                if (!append(&s->out, held->bytes, held->length)) return out_of_memory(s);
                release(held);
                s->state = CXML_SCAN_OFF;
            }
            return 0;
        }
        *after = close + 3;
        if (h == 0) return close_section(s, p, (size_t)(close - p), NULL);
        if (!append(held, p, (size_t)(close - p))) return out_of_memory(s);
    }
    held->length -= close_in_held;
    size_t length = held->length;
    char *text = held->bytes;
    memset(held, 0, sizeof *held);  // the queue owns the text now
    return close_section(s, text, length, text);
}

// MARK: The scanner

/// Walks through a start or end tag to its `>`, stopping at a quote (a quoted `>` does not end
/// it). Returns the first byte not read.
static const char *walk_tag(cxml_sections *s, const char *p, const char *end) {
    while (end - p >= 8) {
        uint64_t word = load_word(p);
        uint64_t flags = bytes_equal(word, '>') | bytes_equal(word, '"') | bytes_equal(word, '\'');
        if (flags != 0) {
            p += first_flagged(flags);
            break;
        }
        p += 8;
    }
    for (; p < end; p++) {
        char c = *p;
        if (c == '>') {
            s->state = CXML_SCAN_CONTENT;
            return p + 1;
        }
        if (c == '"' || c == '\'') {
            s->state = c == '"' ? CXML_SCAN_DOUBLE_QUOTED : CXML_SCAN_SINGLE_QUOTED;
            return p + 1;
        }
    }
    return end;
}

/// Walks through a quoted attribute value to its closing quote.
static const char *walk_quoted(cxml_sections *s, const char *p, const char *end) {
    const char *quote = memchr(p, s->state == CXML_SCAN_DOUBLE_QUOTED ? '"' : '\'', (size_t)(end - p));
    if (quote == NULL) return end;
    s->state = CXML_SCAN_TAG;
    return quote + 1;
}

/// Walks through a comment to its `-->` (`progress`: the dashes just before).
static const char *walk_comment(cxml_sections *s, const char *p, const char *end) {
    for (; p < end; p++) {
        if (*p == '-') {
            if (s->progress < 2) s->progress++;
        } else if (*p == '>' && s->progress == 2) {
            s->state = CXML_SCAN_CONTENT;
            return p + 1;
        } else {
            s->progress = 0;
        }
    }
    return end;
}

/// Walks through a processing instruction or the XML declaration to its `?>` (`progress`: 1
/// just after a `?`).
static const char *walk_processing_instruction(cxml_sections *s, const char *p, const char *end) {
    for (; p < end; p++) {
        if (*p == '>' && s->progress == 1) {
            s->state = CXML_SCAN_CONTENT;
            return p + 1;
        }
        s->progress = *p == '?';
    }
    return end;
}

/// Reads one byte after a `<`, `<!`, `<!-` or part of `<![CDATA[`: the document may be split
/// anywhere. Any `<!` but a comment or a CDATA section (a DOCTYPE, or markup libxml2 rejects)
/// turns the scanner off. Returns the first byte not read.
static const char *read_markup_start(cxml_sections *s, const char *p) {
    char c = *p;
    cxml_scan_state next = CXML_SCAN_OFF;
    switch (s->state) {
    case CXML_SCAN_LT:
        if (c == '!') {
            next = CXML_SCAN_BANG;
        } else if (c == '?') {
            next = CXML_SCAN_PI;
            s->progress = 0;
        } else {
            s->state = CXML_SCAN_TAG;
            return p;  // the tag's first byte
        }
        break;
    case CXML_SCAN_BANG:
        if (c == '-') {
            next = CXML_SCAN_DASH;
        } else if (c == '[') {
            next = CXML_SCAN_CDATA_OPEN;
            s->progress = 3;
        }
        break;
    case CXML_SCAN_DASH:
        if (c == '-') {
            next = CXML_SCAN_COMMENT;
            s->progress = 0;
        }
        break;
    default:  // CXML_SCAN_CDATA_OPEN
        if (c == cdata_open[s->progress]) {
            s->progress++;
            next = s->progress == CDATA_OPEN_LENGTH ? CXML_SCAN_SECTION : CXML_SCAN_CDATA_OPEN;
        }
        break;
    }
    s->state = next;
    return next == CXML_SCAN_OFF ? p : p + 1;
}

/// Scans `length` bytes into `out` and the queue. Returns non-zero on failure.
static int scan(cxml_sections *s, const char *p, size_t length) {
    const char *end = p + length;
    const char *copied = p;  // the bytes before are in `out` or held
    while (p < end) {
        switch (s->state) {
        case CXML_SCAN_CONTENT: {
            const char *lt = memchr(p, '<', (size_t)(end - p));
            if (lt == NULL) {
                p = end;
                break;
            }
            p = lt + 1;
            s->state = CXML_SCAN_LT;
            // The common cases at once: a section's opening all there, a tag.
            if (end - p >= CDATA_OPEN_LENGTH - 1 && memcmp(p, cdata_open + 1, CDATA_OPEN_LENGTH - 1) == 0) {
                p += CDATA_OPEN_LENGTH - 1;
                s->state = CXML_SCAN_SECTION;
            } else if (p < end && *p != '!' && *p != '?') {
                s->state = CXML_SCAN_TAG;
                p = walk_tag(s, p, end);
            }
            break;
        }
        case CXML_SCAN_LT:
        case CXML_SCAN_BANG:
        case CXML_SCAN_DASH:
        case CXML_SCAN_CDATA_OPEN:
            p = read_markup_start(s, p);
            break;
        case CXML_SCAN_SECTION: {
            // What is not in `out` yet ends with the section's `<![CDATA[`.
            if (!append(&s->out, copied, (size_t)(p - copied))) return out_of_memory(s);
            copied = p;
            const char *after;
            if (read_section(s, p, end, &after) != 0) return 1;
            if (after == NULL) return 0;  // all held
            p = copied = after;
            s->state = CXML_SCAN_CONTENT;
            break;
        }
        case CXML_SCAN_TAG:
            p = walk_tag(s, p, end);
            break;
        case CXML_SCAN_DOUBLE_QUOTED:
        case CXML_SCAN_SINGLE_QUOTED:
            p = walk_quoted(s, p, end);
            break;
        case CXML_SCAN_COMMENT:
            p = walk_comment(s, p, end);
            break;
        case CXML_SCAN_PI:
            p = walk_processing_instruction(s, p, end);
            break;
        case CXML_SCAN_OFF:
        case CXML_SCAN_START:
            p = end;
            break;
        }
    }
    // All but a section's text, which is held (the input may end just after its `<![CDATA[`).
    return append(&s->out, copied, (size_t)(end - copied)) ? 0 : out_of_memory(s);
}

int cxml_sections_scan(cxml_sections *s, const char *bytes, size_t length, int final) {
    s->out.length = 0;
    if (s->state == CXML_SCAN_START) {
        if (!append(&s->head, bytes, length)) return out_of_memory(s);
        encoding found = document_encoding((const unsigned char *)s->head.bytes, s->head.length, final);
        if (found == ENCODING_UNKNOWN) return 0;
        s->state = found == ENCODING_UTF8 ? CXML_SCAN_CONTENT : CXML_SCAN_OFF;
        bytes = s->head.bytes;
        length = s->head.length;
    } else if (s->head.bytes != NULL) {
        release(&s->head);  // read at the scan before
    }
    if (scan(s, bytes, length) != 0) return 1;
    if (final && s->state == CXML_SCAN_SECTION) {
        // A section never closed: libxml2 reads what there is and says what is wrong.
        if (!append(&s->out, s->held.bytes, s->held.length)) return out_of_memory(s);
        s->state = CXML_SCAN_OFF;
    }
    return 0;
}

int cxml_sections_keep(cxml_sections *s) {
    for (size_t i = 0; i < s->count; i++) {
        cxml_section *section = &s->queue[(s->first + i) % s->capacity];
        if (section->owned != NULL || section->length == 0) continue;
        char *copy = malloc(section->length);
        if (copy == NULL) return 1;
        memcpy(copy, section->text, section->length);
        section->text = section->owned = copy;
    }
    return 0;
}

void cxml_sections_block(cxml_sections *s, const char **bytes, size_t *length, int *crlf) {
    *crlf = 0;
    if (s->marker_left > 0) {  // more of the marker being reported
        s->marker_left -= *length < s->marker_left ? *length : s->marker_left;
        *length = 0;
        return;
    }
    if (s->count == 0) return;  // a section libxml2 read on its own
    cxml_section section = dequeue(s);
    *crlf = section.crlf;
    s->marker_left = section.marker > *length ? section.marker - *length : 0;
    free(s->reported);
    s->reported = section.owned;
    *bytes = section.text;
    *length = section.length;
}
