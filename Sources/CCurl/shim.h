#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
#include <curl/curl.h>

// curl_easy_setopt / curl_easy_getinfo / curl_multi_setopt are variadic: one wrapper per argument type.
static inline CURLcode rc_curl_easy_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode rc_curl_easy_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode rc_curl_easy_setopt_ptr(CURL *h, CURLoption o, const void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode rc_curl_easy_setopt_write(CURL *h, CURLoption o, curl_write_callback v) {
    return curl_easy_setopt(h, o, v);
}
static inline CURLcode rc_curl_easy_setopt_debug(CURL *h, CURLoption o, curl_debug_callback v) {
    return curl_easy_setopt(h, o, v);
}
static inline CURLcode rc_curl_easy_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode rc_curl_easy_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v) {
    return curl_easy_getinfo(h, i, v);
}
static inline CURLcode rc_curl_easy_getinfo_ptr(CURL *h, CURLINFO i, void *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode rc_curl_easy_getinfo_string(CURL *h, CURLINFO i, char **v) { return curl_easy_getinfo(h, i, v); }
// CURLMsg.data is an anonymous union; reading it through C keeps Swift off the union's imported layout.
static inline CURLcode rc_curl_msg_result(const CURLMsg *m) { return m->data.result; }
// CURLVERSION_NOW is a macro naming an enum value, which Swift does not import.
static inline curl_version_info_data *rc_curl_version_info(void) { return curl_version_info(CURLVERSION_NOW); }
static inline CURLMcode rc_curl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }
static inline CURLMcode rc_curl_multi_setopt_ptr(CURLM *m, CURLMoption o, void *v) { return curl_multi_setopt(m, o, v); }
static inline CURLMcode rc_curl_multi_setopt_socket(CURLM *m, curl_socket_callback f) {
    return curl_multi_setopt(m, CURLMOPT_SOCKETFUNCTION, f);
}
static inline CURLMcode rc_curl_multi_setopt_timer(CURLM *m, curl_multi_timer_callback f) {
    return curl_multi_setopt(m, CURLMOPT_TIMERFUNCTION, f);
}
// CURL_SOCKET_TIMEOUT is a macro naming another macro: the socket to pass when a libcurl timer fires.
static const curl_socket_t rc_curl_socket_timeout = CURL_SOCKET_TIMEOUT;

#endif
