#ifndef CCURL_H
#define CCURL_H
/// Typed, non-variadic wrappers over libcurl for Swift (which cannot call variadic C).
#include <curl/curl.h>

/// The libcurl version string, e.g. "8.0.1".
const char *ccurl_version(void);

#endif
