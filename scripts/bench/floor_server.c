// The floor of fan-out on this machine, measured the way fanout.py measures list-server.
//
// A minimal event-stream server: every `GET` gets an event-stream head and a `reset` event and is
// kept; a `PUT` is answered 200 with the next version in ETag at once, then its body is sent as
// one `event: patch` to every kept connection, one non-blocking send each, from THREADS threads.
// Nothing else: no HTTP library, no list, no JSON, no allocation per subscriber. fanout.py's
// client (kernel receive timestamps) measures it exactly as it measures list-server, so the gap
// between the two is what list-server adds to the kernel's own work.
//
//     cc -O2 -pthread -o floor_server floor_server.c && ./floor_server THREADS
// prints "floor server ready at http://127.0.0.1:PORT/" and serves until killed.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_FDS 65536
static int subscribers[MAX_FDS];
static int subscriber_count;
static char request_bytes[MAX_FDS][512];
static int request_length[MAX_FDS];
static int threads = 1;
static char event[4096];
static size_t event_length;
static pthread_barrier_t start_barrier, done_barrier;

static void send_share(int worker) {
    for (int index = worker; index < subscriber_count; index += threads) {
        (void) send(subscribers[index], event, event_length, MSG_DONTWAIT | MSG_NOSIGNAL);
    }
}

static void *worker_main(void *argument) {
    int worker = (int) (long) argument;
    for (;;) {
        pthread_barrier_wait(&start_barrier);
        send_share(worker);
        pthread_barrier_wait(&done_barrier);
    }
    return NULL;
}

static void write_all(int fd, const char *bytes, size_t length) {
    while (length > 0) {
        ssize_t sent = send(fd, bytes, length, MSG_NOSIGNAL);
        if (sent <= 0) return;
        bytes += sent;
        length -= (size_t) sent;
    }
}

int main(int argc, char **argv) {
    threads = argc > 1 ? atoi(argv[1]) : 1;
    if (threads < 1) threads = 1;
    pthread_barrier_init(&start_barrier, NULL, (unsigned) threads);
    pthread_barrier_init(&done_barrier, NULL, (unsigned) threads);
    for (int worker = 1; worker < threads; worker++) {
        pthread_t thread;
        pthread_create(&thread, NULL, worker_main, (void *) (long) worker);
    }
    int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    int on = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (bind(listener, (struct sockaddr *) &address, sizeof address) != 0 || listen(listener, 4096) != 0) {
        perror("listen");
        return 1;
    }
    socklen_t length = sizeof address;
    getsockname(listener, (struct sockaddr *) &address, &length);
    printf("floor server ready at http://127.0.0.1:%d/\n", ntohs(address.sin_port));
    fflush(stdout);
    int poller = epoll_create1(0);
    struct epoll_event watch = {.events = EPOLLIN, .data.fd = listener};
    epoll_ctl(poller, EPOLL_CTL_ADD, listener, &watch);
    int version = 1;
    struct epoll_event ready[256];
    for (;;) {
        int count = epoll_wait(poller, ready, 256, -1);
        for (int n = 0; n < count; n++) {
            int fd = ready[n].data.fd;
            if (fd == listener) {
                int client;
                while ((client = accept4(listener, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    if (client >= MAX_FDS) { close(client); continue; }
                    setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
                    request_length[client] = 0;
                    struct epoll_event client_watch = {.events = EPOLLIN, .data.fd = client};
                    epoll_ctl(poller, EPOLL_CTL_ADD, client, &client_watch);
                }
                continue;
            }
            char *buffer = request_bytes[fd];
            ssize_t got = recv(fd, buffer + request_length[fd], sizeof request_bytes[fd] - 1 - (size_t) request_length[fd], 0);
            if (got <= 0) {
                epoll_ctl(poller, EPOLL_CTL_DEL, fd, NULL);
                close(fd);
                continue;
            }
            request_length[fd] += (int) got;
            buffer[request_length[fd]] = 0;
            char *end = strstr(buffer, "\r\n\r\n");
            if (end == NULL) continue;
            if (strncmp(buffer, "GET ", 4) == 0) {
                char head[256];
                int size = snprintf(head, sizeof head,
                                    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"
                                    "event: reset\nid: %d\ndata: {}\n\n", version);
                write_all(fd, head, (size_t) size);
                epoll_ctl(poller, EPOLL_CTL_DEL, fd, NULL);
                subscribers[subscriber_count++] = fd;
                continue;
            }
            // A PUT: its body (Content-Length) becomes the event.
            char *field = strcasestr(buffer, "Content-Length:");
            long body_length = field ? strtol(field + 15, NULL, 10) : 0;
            char *body = end + 4;
            if (body + body_length > buffer + request_length[fd]) continue;
            version++;
            char answer[128];
            int size = snprintf(answer, sizeof answer, "HTTP/1.1 200 OK\r\nETag: \"%d\"\r\nContent-Length: 0\r\n\r\n", version);
            write_all(fd, answer, (size_t) size);
            event_length = (size_t) snprintf(event, sizeof event, "event: patch\nid: %d\ndata: [{\"op\":\"replace\",\"value\":%.*s}]\n\n",
                                             version, (int) body_length, body);
            request_length[fd] = 0;
            if (threads > 1) {
                pthread_barrier_wait(&start_barrier);
                send_share(0);
                pthread_barrier_wait(&done_barrier);
            } else {
                send_share(0);
            }
        }
    }
}
