#include "CCurl.h"

const char *ccurl_version(void) {
    return curl_version_info(CURLVERSION_NOW)->version;
}
