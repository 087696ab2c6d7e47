#ifndef CCURL_H
#define CCURL_H
/// Typed, non-variadic wrappers over libcurl for Swift (which cannot call variadic C).
/// Each wrapper fixes the type of the value that libcurl's variadic call takes, so Swift can
/// call it with type checking. Macros Swift cannot import are exposed as functions.
#include <curl/curl.h>
#include <stddef.h>

/// libcurl is loaded (dlopen of libcurl.so.4) the first time one of these needs it, not when
/// calgw starts: a command that makes no request never maps it and the libraries it needs.

/// Loads libcurl if it is not loaded; 1 when it is, 0 when it cannot be (`ccurl_load_error`).
int ccurl_load(void);

/// Why libcurl could not be loaded (the loader's words); empty when it was.
const char *ccurl_load_error(void);

/// The libcurl version string, e.g. "8.0.1" (loads libcurl; "not loaded" when it cannot be).
const char *ccurl_version(void);

/// `curl_global_init(CURL_GLOBAL_DEFAULT)`, once per process (thread-safe, idempotent), after
/// loading libcurl: `CURLE_FAILED_INIT` when it cannot be loaded.
CURLcode ccurl_global_init(void);

/// libcurl's functions of the same names (without `c`), called through the loaded library.
CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *handle);
void ccurl_easy_reset(CURL *handle);
const char *ccurl_easy_strerror(CURLcode code);
CURLM *ccurl_multi_init(void);
CURLMcode ccurl_multi_cleanup(CURLM *multi);
CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode ccurl_multi_perform(CURLM *multi, int *running);
/// `curl_multi_poll` without extra descriptors.
CURLMcode ccurl_multi_poll(CURLM *multi, int timeout_ms, int *ready_count);
CURLMcode ccurl_multi_wakeup(CURLM *multi);
struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *text);
void ccurl_slist_free_all(struct curl_slist *list);

/// A write or header callback: `size * nmemb` bytes at `data`; return the count consumed.
typedef size_t (*ccurl_data_callback)(char *data, size_t size, size_t nmemb, void *userdata);

/// A progress callback (CURLOPT_XFERINFOFUNCTION); return non-zero to abort the transfer.
typedef int (*ccurl_xferinfo_callback)(void *userdata, curl_off_t dltotal, curl_off_t dlnow,
                                       curl_off_t ultotal, curl_off_t ulnow);

/// A debug callback (CURLOPT_DEBUGFUNCTION): what libcurl sends and receives, by kind.
typedef int (*ccurl_debug_callback)(CURL *handle, curl_infotype type, char *data, size_t size, void *userdata);

/// Sets CURLOPT_DEBUGFUNCTION; libcurl calls it only while CURLOPT_VERBOSE is on.
CURLcode ccurl_easy_setopt_debug_callback(CURL *handle, ccurl_debug_callback callback);

CURLcode ccurl_easy_setopt_xferinfo_callback(CURL *handle, ccurl_xferinfo_callback callback);
CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ccurl_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode ccurl_easy_setopt_data_callback(CURL *handle, CURLoption option, ccurl_data_callback callback);

CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode ccurl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value);
CURLcode ccurl_easy_getinfo_double(CURL *handle, CURLINFO info, double *value);
CURLcode ccurl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value);

CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

/// The easy handle and result of a finished transfer from `curl_multi_info_read`;
/// returns 0 when no finished transfer is queued.
int ccurl_multi_next_done(CURLM *multi, CURL **handle, CURLcode *result);

/// The `CURLAUTH_*` bitmasks (macros that Swift cannot import).
unsigned long ccurl_auth_basic(void);
unsigned long ccurl_auth_digest(void);
unsigned long ccurl_auth_any(void);
unsigned long ccurl_auth_bearer(void);

#endif
