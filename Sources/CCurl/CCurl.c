#include "CCurl.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// libcurl's functions, found in libcurl.so.4 the first time one is needed. calgw is not linked
// against libcurl: mapping it and the thirty libraries it needs (TLS, Kerberos, LDAP, SSH,
// IDN...) took about 6 ms of every start, and most commands (list, event add, alarms, fmt)
// make no request. A command that does pays the same once, when it first asks.
static struct {
    CURLcode (*global_init)(long);
    curl_version_info_data *(*version_info)(CURLversion);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    void (*easy_reset)(CURL *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    const char *(*easy_strerror)(CURLcode);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd[], unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} api;

static int loaded = 0;
static char load_error[512] = "";
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

#define FIND(field, name)                                                                   \
    if ((*(void **)&api.field = dlsym(library, name)) == NULL) {                            \
        snprintf(load_error, sizeof load_error, "libcurl.so.4 has no %s", name);            \
        return;                                                                             \
    }

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "%s", why ? why : "libcurl.so.4 could not be loaded");
        return;
    }
    FIND(global_init, "curl_global_init")
    FIND(version_info, "curl_version_info")
    FIND(easy_init, "curl_easy_init")
    FIND(easy_cleanup, "curl_easy_cleanup")
    FIND(easy_reset, "curl_easy_reset")
    FIND(easy_setopt, "curl_easy_setopt")
    FIND(easy_getinfo, "curl_easy_getinfo")
    FIND(easy_strerror, "curl_easy_strerror")
    FIND(multi_init, "curl_multi_init")
    FIND(multi_cleanup, "curl_multi_cleanup")
    FIND(multi_add_handle, "curl_multi_add_handle")
    FIND(multi_remove_handle, "curl_multi_remove_handle")
    FIND(multi_perform, "curl_multi_perform")
    FIND(multi_poll, "curl_multi_poll")
    FIND(multi_wakeup, "curl_multi_wakeup")
    FIND(multi_setopt, "curl_multi_setopt")
    FIND(multi_info_read, "curl_multi_info_read")
    FIND(slist_append, "curl_slist_append")
    FIND(slist_free_all, "curl_slist_free_all")
    loaded = 1;
}

/// Loads libcurl once; true when every function was found.
static int ready(void) {
    pthread_once(&load_once, load);
    return loaded;
}

int ccurl_load(void) { return ready(); }

const char *ccurl_load_error(void) {
    ready();
    return load_error;
}

const char *ccurl_version(void) {
    return ready() ? api.version_info(CURLVERSION_NOW)->version : "not loaded";
}

static CURLcode global_init_result = CURLE_OK;
static pthread_once_t global_init_once = PTHREAD_ONCE_INIT;

static void global_init_run(void) {
    global_init_result = ready() ? api.global_init(CURL_GLOBAL_DEFAULT) : CURLE_FAILED_INIT;
}

CURLcode ccurl_global_init(void) {
    pthread_once(&global_init_once, global_init_run);
    return global_init_result;
}

// The functions calgw calls, each through libcurl's own once it is loaded. Before a successful
// `ccurl_global_init` nothing is called with a handle, so only the ones that make a handle or a
// list, or name an error, check that libcurl is there.
CURL *ccurl_easy_init(void) { return ready() ? api.easy_init() : NULL; }
void ccurl_easy_cleanup(CURL *handle) { api.easy_cleanup(handle); }
void ccurl_easy_reset(CURL *handle) { api.easy_reset(handle); }
const char *ccurl_easy_strerror(CURLcode code) { return ready() ? api.easy_strerror(code) : load_error; }
CURLM *ccurl_multi_init(void) { return ready() ? api.multi_init() : NULL; }
CURLMcode ccurl_multi_cleanup(CURLM *multi) { return api.multi_cleanup(multi); }
CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *handle) { return api.multi_add_handle(multi, handle); }
CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *handle) { return api.multi_remove_handle(multi, handle); }
CURLMcode ccurl_multi_perform(CURLM *multi, int *running) { return api.multi_perform(multi, running); }
CURLMcode ccurl_multi_poll(CURLM *multi, int timeout_ms, int *ready_count) {
    return api.multi_poll(multi, NULL, 0, timeout_ms, ready_count);
}
CURLMcode ccurl_multi_wakeup(CURLM *multi) { return api.multi_wakeup(multi); }
struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *text) {
    return ready() ? api.slist_append(list, text) : list;
}
void ccurl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }

CURLcode ccurl_easy_setopt_xferinfo_callback(CURL *handle, ccurl_xferinfo_callback callback) {
    return api.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

CURLcode ccurl_easy_setopt_debug_callback(CURL *handle, ccurl_debug_callback callback) {
    return api.easy_setopt(handle, CURLOPT_DEBUGFUNCTION, callback);
}

CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode ccurl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode ccurl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode ccurl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode ccurl_easy_setopt_data_callback(CURL *handle, CURLoption option, ccurl_data_callback callback) {
    return api.easy_setopt(handle, option, callback);
}

CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return api.easy_getinfo(handle, info, value);
}

CURLcode ccurl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return api.easy_getinfo(handle, info, value);
}

CURLcode ccurl_easy_getinfo_double(CURL *handle, CURLINFO info, double *value) {
    return api.easy_getinfo(handle, info, value);
}

CURLcode ccurl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return api.easy_getinfo(handle, info, value);
}

CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return api.multi_setopt(multi, option, value);
}

int ccurl_multi_next_done(CURLM *multi, CURL **handle, CURLcode *result) {
    int queued = 0;
    CURLMsg *message;
    while ((message = api.multi_info_read(multi, &queued)) != NULL) {
        if (message->msg == CURLMSG_DONE) {
            *handle = message->easy_handle;
            *result = message->data.result;
            return 1;
        }
    }
    return 0;
}

unsigned long ccurl_auth_basic(void) { return CURLAUTH_BASIC; }
unsigned long ccurl_auth_digest(void) { return CURLAUTH_DIGEST; }
unsigned long ccurl_auth_any(void) { return CURLAUTH_ANY; }
unsigned long ccurl_auth_bearer(void) { return CURLAUTH_BEARER; }
