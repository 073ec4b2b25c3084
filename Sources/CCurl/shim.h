#ifndef SIPWAKE_CCURL_H
#define SIPWAKE_CCURL_H
#include <curl/curl.h>

/* curl_easy_setopt, curl_multi_setopt and curl_easy_getinfo are variadic, which
   Swift cannot call: one typed wrapper per argument kind, nothing more. */

typedef size_t (*swk_curl_write_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode swk_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode swk_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode swk_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode swk_curl_easy_setopt_write_function(CURL *handle, swk_curl_write_callback value) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, value);
}

static inline CURLcode swk_curl_easy_setopt_header_function(CURL *handle, swk_curl_write_callback value) {
    return curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, value);
}

static inline CURLcode swk_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode swk_curl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode swk_curl_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
    return curl_multi_setopt(handle, option, value);
}

#endif
