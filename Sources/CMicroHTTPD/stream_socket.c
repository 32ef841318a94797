// Socket calls for live streams that Swift cannot make itself (variadic `ioctl`, `fcntl` and
// `MHD_set_response_options`).
#include "CMicroHTTPD.h"
#include <linux/sockios.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <fcntl.h>
#include <sys/ioctl.h>

enum MHD_Result CMicroHTTPD_response_close_delimited(struct MHD_Response *response) {
    return MHD_set_response_options(response, MHD_RF_HTTP_1_0_COMPATIBLE_STRICT, MHD_RO_END);
}

int CMicroHTTPD_socket_unsent_bytes(int fd) {
    int unsent = 0;
    return ioctl(fd, SIOCOUTQ, &unsent) == 0 ? unsent : -1;
}

int CMicroHTTPD_socket_set_nodelay(int fd) {
    int on = 1;
    return setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

int CMicroHTTPD_socket_duplicate(int fd) {
    return fcntl(fd, F_DUPFD_CLOEXEC, 0);
}
