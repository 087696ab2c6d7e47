#include "CXMLStream.h"
#include "CDATASections.h"
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cxml_stream {
    xmlParserCtxtPtr parser;
    cxml_start_callback start;
    cxml_end_callback end;
    cxml_text_callback text;
    void *context;
    char *error;
    int error_line;
    int error_column;
    long long fed;
    int started;
    // What libxml2 reported through its generic error handler while this reader fed it
    // (encoding errors have no parser context): kept for the message, never printed.
    char generic[512];
    size_t generic_length;
    /// The CDATA sections taken out of what libxml2 reads (see CDATASections.h).
    cxml_sections sections;
};

static void set_error(cxml_stream *stream, const char *message) {
    if (stream->error != NULL) return;  // the first cause is the one to report
    stream->error = strdup(message != NULL ? message : "unknown XML error");
    if (stream->parser != NULL) {
        stream->error_line = xmlSAX2GetLineNumber(stream->parser);
        stream->error_column = xmlSAX2GetColumnNumber(stream->parser);
    }
}

void cxml_stream_stop(cxml_stream *stream, const char *message) {
    set_error(stream, message);
    if (stream->parser != NULL) xmlStopParser(stream->parser);
}

static void on_generic_error(void *ctx, const char *format, ...) {
    cxml_stream *stream = (cxml_stream *)ctx;
    size_t room = sizeof stream->generic - stream->generic_length;
    if (room <= 1) return;
    va_list args;
    va_start(args, format);
    int n = vsnprintf(stream->generic + stream->generic_length, room, format, args);
    va_end(args);
    if (n > 0) stream->generic_length += (size_t)n < room ? (size_t)n : room - 1;
}

/// The first line libxml2 reported through its generic handler, without its trailing spaces;
/// NULL when it reported nothing.
static const char *generic_reason(cxml_stream *stream) {
    if (stream->generic_length == 0) return NULL;
    char *end = strchr(stream->generic, '\n');
    if (end != NULL) *end = '\0';
    size_t n = strlen(stream->generic);
    while (n > 0 && stream->generic[n - 1] == ' ') stream->generic[--n] = '\0';
    return n > 0 ? stream->generic : NULL;
}

static cxml_stream *from(void *ctx) {
    xmlParserCtxtPtr parser = (xmlParserCtxtPtr)ctx;
    return (cxml_stream *)parser->_private;
}

static void on_start(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri,
                     int nb_namespaces, const xmlChar **namespaces, int nb_attributes, int nb_defaulted,
                     const xmlChar **attributes) {
    (void)prefix; (void)nb_namespaces; (void)namespaces; (void)nb_defaulted;
    cxml_stream *stream = from(ctx);
    if (stream->error != NULL) return;
    stream->started = 1;
    stream->start(stream->context, (const char *)localname, uri != NULL ? (const char *)uri : "",
                  nb_attributes, (const char **)attributes);
}

static void on_end(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri) {
    (void)localname; (void)prefix; (void)uri;
    cxml_stream *stream = from(ctx);
    if (stream->error != NULL) return;
    stream->end(stream->context);
}

static void on_text(void *ctx, const xmlChar *bytes, int length) {
    cxml_stream *stream = from(ctx);
    if (stream->error != NULL || length <= 0) return;
    stream->text(stream->context, (const char *)bytes, (size_t)length, 0);
}

/// A CDATA block: libxml2 reports the markers standing for the sections taken out, and the
/// text each stands for goes to the text callback in its place.
static void on_cdata(void *ctx, const xmlChar *bytes, int length) {
    cxml_stream *stream = from(ctx);
    const char *text = (const char *)bytes;
    size_t text_length = length > 0 ? (size_t)length : 0;
    int crlf;
    cxml_sections_block(&stream->sections, &text, &text_length, &crlf);
    if (stream->error != NULL || text_length == 0) return;
    stream->text(stream->context, text, text_length, crlf);
}

static void on_subset(void *ctx, const xmlChar *name, const xmlChar *external_id, const xmlChar *system_id) {
    (void)name; (void)external_id; (void)system_id;
    cxml_stream_stop(from(ctx), "the document declares a DTD, which calgw refuses to load");
}

static void on_entity_decl(void *ctx, const xmlChar *name, int type, const xmlChar *public_id,
                           const xmlChar *system_id, xmlChar *content) {
    (void)name; (void)type; (void)public_id; (void)system_id; (void)content;
    cxml_stream_stop(from(ctx), "the document declares entities, which calgw refuses to expand");
}

static xmlEntityPtr on_get_entity(void *ctx, const xmlChar *name) {
    xmlEntityPtr predefined = xmlGetPredefinedEntity(name);
    if (predefined == NULL) cxml_stream_stop(from(ctx), "the document refers to an entity that is not one of XML's five");
    return predefined;
}

static void on_processing_instruction(void *ctx, const xmlChar *target, const xmlChar *data) {
    (void)target; (void)data;  // data may be NULL (<?x?>): never read
    cxml_stream_stop(from(ctx), "the document holds a processing instruction, which calgw refuses");
}

static void on_structured_error(void *ctx, xmlErrorPtr error) {
    xmlParserCtxtPtr parser = (xmlParserCtxtPtr)ctx;
    if (parser == NULL || parser->_private == NULL || error == NULL) return;
    if (error->level < XML_ERR_ERROR) return;  // warnings are not failures
    cxml_stream *stream = (cxml_stream *)parser->_private;
    char message[512];
    const char *text = error->message != NULL ? error->message : "not well-formed";
    size_t n = strlen(text);
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == ' ')) n--;  // libxml2 ends messages with a newline
    snprintf(message, sizeof message, "%.*s", (int)n, text);
    if (stream->error == NULL) {
        stream->error = strdup(message);
        stream->error_line = error->line;
        stream->error_column = error->int2;
    }
}

cxml_stream *cxml_stream_create(cxml_start_callback start, cxml_end_callback end, cxml_text_callback text, void *context) {
    cxml_stream *stream = calloc(1, sizeof *stream);
    if (stream == NULL) return NULL;
    stream->start = start;
    stream->end = end;
    stream->text = text;
    stream->context = context;
    cxml_sections_init(&stream->sections);

    xmlSAXHandler sax;
    memset(&sax, 0, sizeof sax);
    sax.initialized = XML_SAX2_MAGIC;
    sax.startElementNs = on_start;
    sax.endElementNs = on_end;
    sax.characters = on_text;
    sax.cdataBlock = on_cdata;
    sax.internalSubset = on_subset;
    sax.externalSubset = on_subset;
    sax.entityDecl = on_entity_decl;
    sax.getEntity = on_get_entity;
    sax.processingInstruction = on_processing_instruction;
    sax.serror = on_structured_error;

    stream->parser = xmlCreatePushParserCtxt(&sax, NULL, NULL, 0, NULL);
    if (stream->parser == NULL) { free(stream); return NULL; }
    stream->parser->_private = stream;
    // No network, no entity substitution, no DTD loading; libxml2's default limits on names and depth.
    xmlCtxtUseOptions(stream->parser, XML_PARSE_NONET | XML_PARSE_NOWARNING | XML_PARSE_NOERROR);
    return stream;
}

/// Gives libxml2 `length` bytes, in slices (xmlParseChunk takes an int length); `terminate`
/// marks the end of the document. Returns libxml2's first error code, or 0.
static int parse(cxml_stream *stream, const char *bytes, size_t length, int terminate) {
    const size_t slice = 1 << 20;
    do {
        size_t n = length < slice ? length : slice;
        int last = terminate && n == length;
        if (n == 0 && !last) return 0;
        int code = xmlParseChunk(stream->parser, bytes, (int)n, last);
        if (code != 0 || stream->error != NULL) return code;
        bytes += n;
        length -= n;
    } while (length > 0);
    return 0;
}

/// Fails the document for a CDATA section the reader found wrong, where libxml2 stands (at the
/// start of the section's text) moved on to the bad byte.
static void fail_section(cxml_stream *stream) {
    if (stream->error != NULL) return;
    const cxml_sections *sections = &stream->sections;
    set_error(stream, sections->failure);
    if (sections->failure_lines > 0) {
        stream->error_line += (int)sections->failure_lines;
        stream->error_column = (int)sections->failure_offset + 1;
    } else {
        stream->error_column += (int)sections->failure_offset;
    }
}

/// Reads the next `length` bytes (at most a slice): the CDATA sections taken out, the rest
/// given to libxml2. Returns non-zero once the document failed.
static int feed_slice(cxml_stream *stream, const char *bytes, size_t length, int final) {
    int section_failed = cxml_sections_scan(&stream->sections, bytes, length, final);
    const cxml_buffer *out = &stream->sections.out;
    int code = parse(stream, out->bytes, out->length, final && !section_failed);
    if (cxml_sections_keep(&stream->sections) != 0) set_error(stream, "out of memory while reading a CDATA section");
    if (stream->error != NULL) return 1;
    if (section_failed) {
        fail_section(stream);
        return 1;
    }
    if (code != 0) {
        const char *reason = generic_reason(stream);
        set_error(stream, reason != NULL ? reason : "the document is not well-formed XML");
        return 1;
    }
    return 0;
}

int cxml_stream_feed(cxml_stream *stream, const char *bytes, size_t length, int final) {
    if (stream->error != NULL) return 1;
    // libxml2 prints some errors (a failed encoding conversion) through its generic handler,
    // which writes to stderr: this thread's handler is this reader's while it parses.
    xmlGenericErrorFunc previous = xmlGenericError;
    void *previous_context = xmlGenericErrorContext;
    xmlSetGenericErrorFunc(stream, on_generic_error);
    // Large buffers are read in slices, so what is held for libxml2 stays small.
    const size_t slice = 1 << 20;
    int failed = 0;
    do {
        size_t n = length < slice ? length : slice;
        int last = final && n == length;
        stream->fed += (long long)n;
        if (feed_slice(stream, bytes, n, last) != 0) {
            failed = 1;
            break;
        }
        bytes += n;
        length -= n;
    } while (length > 0);
    xmlSetGenericErrorFunc(previous_context, previous);
    if (failed) return 1;
    if (final && !stream->started) {
        set_error(stream, "the document is empty");
        return 1;
    }
    return 0;
}

const char *cxml_stream_error(const cxml_stream *stream) { return stream->error; }
int cxml_stream_error_line(const cxml_stream *stream) { return stream->error_line; }
int cxml_stream_error_column(const cxml_stream *stream) { return stream->error_column; }
long long cxml_stream_bytes_fed(const cxml_stream *stream) { return stream->fed; }

void cxml_stream_free(cxml_stream *stream) {
    if (stream == NULL) return;
    if (stream->parser != NULL) {
        if (stream->parser->myDoc != NULL) xmlFreeDoc(stream->parser->myDoc);
        xmlFreeParserCtxt(stream->parser);
    }
    cxml_sections_free(&stream->sections);
    free(stream->error);
    free(stream);
}
