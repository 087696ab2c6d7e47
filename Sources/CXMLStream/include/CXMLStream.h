#ifndef CXMLSTREAM_H
#define CXMLSTREAM_H
/// A streaming XML reader over libxml2's push parser, for Swift: bytes are fed as they arrive
/// and elements and text are reported through three plain callbacks, so no document is ever
/// held whole. Namespaces are resolved (each element comes with its namespace URI).
///
/// It refuses what a WebDAV answer never needs and an attacker might use: a DTD (internal or
/// external subset), entity declarations and references to entities other than the five
/// predefined ones, processing instructions, and network access. A refusal stops the parser
/// with a message; so does any well-formedness error, with libxml2's message, line and column.
/// What libxml2 would print to stderr while the reader parses (a failed encoding conversion)
/// becomes that message instead.
///
/// The CDATA sections of a UTF-8 document are read by the reader itself, which checks their
/// text (UTF-8 of XML characters) in far fewer instructions than libxml2; libxml2 reads the
/// rest. Their text is reported as libxml2 would: as it is, CRs included, in document order.
#include <stddef.h>

/// An element starts: its local name and namespace URI ("" when none), NUL-terminated UTF-8,
/// and its `attribute_count` attributes as libxml2 gives them: five pointers each (local name,
/// prefix, namespace URI, value start, value end; the value is not NUL-terminated).
typedef void (*cxml_start_callback)(void *context, const char *name, const char *namespace_uri,
                                    int attribute_count, const char **attributes);
/// An element ends.
typedef void (*cxml_end_callback)(void *context);
/// Text (character data or CDATA) of the current element: `length` bytes of UTF-8, not
/// NUL-terminated. `crlf` is non-zero for the text of a CDATA section the reader read itself
/// whose line ends are all CRLF (it checked every byte of it already); 0 for any other text,
/// whatever its line ends.
typedef void (*cxml_text_callback)(void *context, const char *bytes, size_t length, int crlf);

typedef struct cxml_stream cxml_stream;

/// A new reader calling the given callbacks with `context`; NULL when libxml2 cannot make one.
cxml_stream *cxml_stream_create(cxml_start_callback start, cxml_end_callback end, cxml_text_callback text, void *context);

/// Parses the next `length` bytes; `final` non-zero marks the end of the document.
/// Returns 0, or non-zero once the document is found invalid or refused (see cxml_stream_error).
int cxml_stream_feed(cxml_stream *stream, const char *bytes, size_t length, int final);

/// Stops the reader from a callback with `message` (copied); the current feed returns non-zero.
void cxml_stream_stop(cxml_stream *stream, const char *message);

/// Why the reader stopped: a message (NULL when it did not), and where: line, column, and the
/// number of bytes fed before the error was found.
const char *cxml_stream_error(const cxml_stream *stream);
int cxml_stream_error_line(const cxml_stream *stream);
int cxml_stream_error_column(const cxml_stream *stream);
long long cxml_stream_bytes_fed(const cxml_stream *stream);

void cxml_stream_free(cxml_stream *stream);

#endif
