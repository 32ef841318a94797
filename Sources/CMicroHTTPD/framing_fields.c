// The framing guard's checks of single lines: request lines and header (or trailer) fields.
// RFC 9112 sections 3 and 5, RFC 9110 section 5, read strictly.
#include "framing.h"
#include <stdio.h>
#include <string.h>

/// tchar of RFC 9110: the characters of a token (method, field name, transfer coding).
static bool is_tchar(unsigned char c) {
    if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return true;
    return c != 0 && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

/// A byte a field value may hold: visible ASCII, obs-text (0x80-0xFF), space and tab.
static bool is_value_byte(unsigned char c) {
    return c == '\t' || (c >= 0x20 && c != 0x7F);
}

/// ASCII case-insensitive equality of `bytes[0..<length]` and the lowercase `name`.
static bool equals_lowercase(const unsigned char *bytes, size_t length, const char *name) {
    if (strlen(name) != length) return false;
    for (size_t i = 0; i < length; i++) {
        unsigned char c = bytes[i];
        if (c >= 'A' && c <= 'Z') c += 'a' - 'A';
        if (c != (unsigned char) name[i]) return false;
    }
    return true;
}

static bool is_space(unsigned char c) { return c == ' ' || c == '\t'; }

int framing_check_request_line(struct framing_conn *conn, const unsigned char *line, size_t length) {
    const unsigned char *first = memchr(line, ' ', length);
    if (first == NULL || first == line || first - line > 32) return V_REQUEST_LINE;
    for (const unsigned char *c = line; c < first; c++) {
        if (!is_tchar(*c)) return V_REQUEST_LINE;
    }
    const unsigned char *last = line + length;
    while (last > first + 1 && last[-1] != ' ') last--;
    if (last == first + 1) return V_REQUEST_LINE;          // a single space: no version
    const unsigned char *target = first + 1;
    size_t target_length = (size_t) (last - 1 - target);
    if (target_length == 0) return V_REQUEST_LINE;
    for (size_t i = 0; i < target_length; i++) {
        if (target[i] <= 0x20 || target[i] == 0x7F) return V_REQUEST_LINE;  // space or control
    }
    // libmicrohttpd keeps a record per query item in the connection's memory: they count
    // toward the field limit, like header fields.
    const unsigned char *query = memchr(target, '?', target_length);
    if (query != NULL) {
        uint32_t items = 1;
        for (const unsigned char *c = query; c < target + target_length; c++) items += *c == '&';
        conn->fields = items;
        if (items > conn->limits->max_fields) return V_TOO_MANY_PARAMETERS;
    }
    size_t version_length = (size_t) (line + length - last);
    if (version_length == 8 && memcmp(last, "HTTP/1.1", 8) == 0) {
        conn->http10 = false;
    } else if (version_length == 8 && memcmp(last, "HTTP/1.0", 8) == 0) {
        conn->http10 = true;
    } else if (version_length == 8 && memcmp(last, "HTTP/", 5) == 0
               && last[5] >= '0' && last[5] <= '9' && last[6] == '.' && last[7] >= '0' && last[7] <= '9') {
        return V_VERSION;
    } else {
        return V_REQUEST_LINE;
    }
    return 0;
}

/// Content-Length: one decimal number, at most 18 digits (so it fits in 64 bits).
static int check_length(struct framing_conn *conn, const unsigned char *value, size_t length, char canonical[64]) {
    if (conn->has_length) return V_LENGTH_REPEATED;
    if (conn->has_coding) return V_CODING_WITH_LENGTH;
    if (length == 0) return V_LENGTH_INVALID;
    uint64_t number = 0;
    for (size_t i = 0; i < length; i++) {
        if (value[i] < '0' || value[i] > '9') return V_LENGTH_INVALID;
    }
    size_t start = 0;
    while (start + 1 < length && value[start] == '0') start++;
    if (length - start > 18) return V_LENGTH_TOO_LARGE;
    for (size_t i = start; i < length; i++) number = number * 10 + (uint64_t) (value[i] - '0');
    conn->has_length = true;
    conn->remaining = number;
    snprintf(canonical, 64, "Content-Length: %llu", (unsigned long long) number);
    return 0;
}

/// Transfer-Encoding: exactly the coding "chunked" (case-insensitive), once.
static int check_coding(struct framing_conn *conn, const unsigned char *value, size_t length, char canonical[64]) {
    if (conn->http10) return V_CODING_IN_HTTP10;
    if (conn->has_coding) return V_CODING_REPEATED;
    if (conn->has_length) return V_CODING_WITH_LENGTH;
    int chunked = 0;
    bool other = false;
    size_t i = 0;
    while (i <= length) {
        size_t end = i;
        while (end < length && value[end] != ',') end++;
        size_t a = i, b = end;
        while (a < b && is_space(value[a])) a++;
        while (b > a && is_space(value[b - 1])) b--;
        if (b > a) {
            if (equals_lowercase(value + a, b - a, "chunked")) chunked++;
            else other = true;
        }
        i = end + 1;
    }
    if (chunked > 1) return V_CODING_REPEATED;
    if (other || chunked == 0) return V_CODING_UNKNOWN;
    conn->has_coding = true;
    snprintf(canonical, 64, "Transfer-Encoding: chunked");
    return 0;
}

/// Host: uri-host [":" port], as the characters of a reg-name, an IP literal or a port.
static int check_host(struct framing_conn *conn, const unsigned char *value, size_t length) {
    if (++conn->hosts > 1) return V_HOST_REPEATED;
    for (size_t i = 0; i < length; i++) {
        unsigned char c = value[i];
        bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
            || (c != 0 && strchr("-._~!$&'()*+,;=%:[]", c) != NULL);
        if (!ok) return V_HOST_INVALID;
    }
    return 0;
}

int framing_check_field(struct framing_conn *conn, const unsigned char *line, size_t length,
                        bool trailer, char canonical[64]) {
    canonical[0] = '\0';
    if (is_space(line[0])) return V_OBS_FOLD;
    const unsigned char *colon = memchr(line, ':', length);
    if (colon == NULL || colon == line) return V_FIELD_SYNTAX;
    size_t name_length = (size_t) (colon - line);
    for (size_t i = 0; i < name_length; i++) {
        if (is_space(line[i])) return V_SPACE_IN_NAME;
        if (!is_tchar(line[i])) return V_FIELD_SYNTAX;
    }
    const unsigned char *value = colon + 1;
    size_t value_length = length - name_length - 1;
    for (size_t i = 0; i < value_length; i++) {
        if (!is_value_byte(value[i])) return V_CONTROL_BYTE;
    }
    while (value_length > 0 && is_space(value[0])) { value++; value_length--; }
    while (value_length > 0 && is_space(value[value_length - 1])) value_length--;

    if (++conn->fields > conn->limits->max_fields) return V_HEAD_TOO_LARGE;
    if (equals_lowercase(line, name_length, "list-server-framing-violation")) return V_RESERVED_FIELD;
    if (trailer) return 0;
    // list-server reads no cookies, and libmicrohttpd's cookie parser needs the field's size
    // again plus a record per cookie in the connection's memory: the field is not passed on.
    if (equals_lowercase(line, name_length, "cookie")) return FIELD_DROPPED;
    if (equals_lowercase(line, name_length, "content-length")) return check_length(conn, value, value_length, canonical);
    if (equals_lowercase(line, name_length, "transfer-encoding")) return check_coding(conn, value, value_length, canonical);
    if (equals_lowercase(line, name_length, "host")) return check_host(conn, value, value_length);
    return 0;
}
