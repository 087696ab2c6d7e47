// libxml2's push (SAX) parser, found through pkg-config (libxml-2.0).
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
