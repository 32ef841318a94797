#include "CMicroHTTPD.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

_Static_assert(sizeof(intptr_t) == sizeof(void *), "MHD_OptionItem carries pointers in intptr_t");

const uint64_t CMicroHTTPD_SIZE_UNKNOWN = MHD_SIZE_UNKNOWN;
const ssize_t CMicroHTTPD_CONTENT_READER_END_OF_STREAM = MHD_CONTENT_READER_END_OF_STREAM;
const ssize_t CMicroHTTPD_CONTENT_READER_END_WITH_ERROR = MHD_CONTENT_READER_END_WITH_ERROR;

struct MHD_OptionItem CMicroHTTPD_option_uint(enum MHD_OPTION option, unsigned int value) {
    struct MHD_OptionItem item = { option, (intptr_t) value, NULL };
    return item;
}

struct MHD_OptionItem CMicroHTTPD_option_size(enum MHD_OPTION option, size_t value) {
    struct MHD_OptionItem item = { option, (intptr_t) value, NULL };
    return item;
}

struct MHD_OptionItem CMicroHTTPD_option_sock_addr(const struct sockaddr *address) {
    struct MHD_OptionItem item = { MHD_OPTION_SOCK_ADDR, 0, (void *) address };
    return item;
}

struct MHD_OptionItem CMicroHTTPD_option_notify_completed(MHD_RequestCompletedCallback callback, void *cls) {
    struct MHD_OptionItem item = { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t) callback, cls };
    return item;
}

struct MHD_OptionItem CMicroHTTPD_option_uri_log(CMicroHTTPD_URILogCallback callback, void *cls) {
    struct MHD_OptionItem item = { MHD_OPTION_URI_LOG_CALLBACK, (intptr_t) callback, cls };
    return item;
}

struct MHD_OptionItem CMicroHTTPD_option_unescape(CMicroHTTPD_UnescapeCallback callback, void *cls) {
    struct MHD_OptionItem item = { MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t) callback, cls };
    return item;
}

/// The Swift callback and its argument, set once by `CMicroHTTPD_option_logger`.
struct CMicroHTTPD_Logger {
    CMicroHTTPD_LogCallback callback;
    void *cls;
};

static void CMicroHTTPD_format_log(void *cls, const char *format, va_list arguments) {
    const struct CMicroHTTPD_Logger *logger = cls;
    char message[1024];
    vsnprintf(message, sizeof message, format, arguments);
    size_t length = strlen(message);
    while (length > 0 && (message[length - 1] == '\n' || message[length - 1] == '\r')) {
        message[--length] = '\0';
    }
    logger->callback(logger->cls, message);
}

struct MHD_OptionItem CMicroHTTPD_option_logger(CMicroHTTPD_LogCallback callback, void *cls) {
    // One logger per process is all list-server needs; a static keeps the shim allocation-free.
    static struct CMicroHTTPD_Logger logger;
    logger.callback = callback;
    logger.cls = cls;
    struct MHD_OptionItem item = { MHD_OPTION_EXTERNAL_LOGGER, (intptr_t) CMicroHTTPD_format_log, &logger };
    return item;
}

struct MHD_OptionItem CMicroHTTPD_option_end(void) {
    struct MHD_OptionItem item = { MHD_OPTION_END, 0, NULL };
    return item;
}

struct MHD_Daemon *CMicroHTTPD_start_daemon(unsigned int flags, uint16_t port,
                                            MHD_AcceptPolicyCallback accept_policy, void *accept_policy_cls,
                                            MHD_AccessHandlerCallback handler, void *handler_cls,
                                            const struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, port, accept_policy, accept_policy_cls, handler, handler_cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

enum MHD_Result CMicroHTTPD_response_http10_compatible(struct MHD_Response *response) {
    return MHD_set_response_options(response, MHD_RF_HTTP_1_0_COMPATIBLE_STRICT, MHD_RO_END);
}

uint16_t CMicroHTTPD_daemon_bind_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

int CMicroHTTPD_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}
