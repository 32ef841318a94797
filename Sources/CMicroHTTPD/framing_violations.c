// What the framing guard tells a client whose request it refused: a status and one sentence.
#include "framing.h"

const char *const CMicroHTTPD_VIOLATION_FIELD = "List-Server-Framing-Violation";

static const struct {
    unsigned int status;
    const char *detail;
} violations[V_COUNT] = {
    [V_REQUEST_LINE] = {400, "The request line must be METHOD, one space, a target without spaces or control characters, one space, and HTTP/1.1 or HTTP/1.0."},
    [V_VERSION] = {505, "Only HTTP/1.1 and HTTP/1.0 are served."},
    [V_TARGET_TOO_LONG] = {414, "The request line is too long."},
    [V_HEAD_TOO_LARGE] = {431, "The request head is too large, or has too many header fields (trailer fields and query items count too)."},
    [V_OBS_FOLD] = {400, "A header field line starts with a space or tab: obsolete line folding is not accepted."},
    [V_SPACE_IN_NAME] = {400, "A header field name holds whitespace (nothing may come between a field name and its colon)."},
    [V_FIELD_SYNTAX] = {400, "A header field line has no colon, an empty name, or a name with characters outside the token set."},
    [V_CONTROL_BYTE] = {400, "The request head holds a control character (a CR that does not end a line, a NUL, ...)."},
    [V_LENGTH_REPEATED] = {400, "Content-Length is sent more than once; the length of the body is ambiguous."},
    [V_LENGTH_INVALID] = {400, "Content-Length must be a single decimal number."},
    [V_LENGTH_TOO_LARGE] = {413, "The Content-Length is far larger than any body this server accepts."},
    [V_CODING_REPEATED] = {400, "Transfer-Encoding is sent more than once, or names chunked more than once."},
    [V_CODING_UNKNOWN] = {501, "The only transfer coding accepted in a request is chunked."},
    [V_CODING_WITH_LENGTH] = {400, "Transfer-Encoding and Content-Length are both sent; the length of the body is ambiguous."},
    [V_CODING_IN_HTTP10] = {400, "An HTTP/1.0 request cannot use Transfer-Encoding."},
    [V_HOST_MISSING] = {400, "An HTTP/1.1 request must carry a Host header field."},
    [V_HOST_REPEATED] = {400, "Host is sent more than once."},
    [V_HOST_INVALID] = {400, "The Host header field is not a host name or address with an optional port."},
    [V_CHUNK_SYNTAX] = {400, "The chunked body is malformed (a chunk size line, or the line end after a chunk's data)."},
    [V_CHUNK_TOO_LARGE] = {413, "A chunk size of the chunked body is far larger than any body this server accepts."},
    [V_TOO_MANY_PARAMETERS] = {414, "The query string has more items than this server accepts (they count toward the limit on header fields)."},
    [V_RESERVED_FIELD] = {400, "The header field List-Server-Framing-Violation is reserved for the server."},
};

unsigned int CMicroHTTPD_violation_status(unsigned int code) {
    return code > 0 && code < V_COUNT ? violations[code].status : 400;
}

const char *CMicroHTTPD_violation_detail(unsigned int code) {
    return code > 0 && code < V_COUNT ? violations[code].detail : "The request is malformed.";
}
