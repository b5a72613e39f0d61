/*
 * Reference echo server for bench/reference.sh: the smallest single-threaded epoll server we can think of, so that
 * loopbench's figures have a plain-C yardstick on the same machine.
 *
 *   echo_server [--udp] [HOST:PORT]      (default 127.0.0.1:0)
 *
 * Prints "port N" as its first stdout line once bound, then echoes until SIGTERM/SIGINT or EOF on stdin (when stdin
 * is a pipe or terminal: the script that started it can stop it by closing its end).
 * TCP: all that one readable event finds (up to BUF_BYTES) goes back in one write; what a partial write leaves is
 * kept and the connection stops reading until it is sent, so nothing is lost or reordered.
 * UDP: each datagram goes back to its sender as it came; one that cannot be sent at once is dropped, as UDP may.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define BUF_BYTES (256 * 1024)
#define MAX_EVENTS 256

struct conn {
    int fd;
    char *pending;       /* bytes read but not yet written back (after a partial write) */
    size_t pending_len;
    size_t pending_off;
};

static volatile sig_atomic_t stop;
static void on_signal(int sig) { (void) sig; stop = 1; }

static void die(const char *what) { perror(what); exit(1); }

/* Parses HOST:PORT (HOST may be [v6]) into a socket address. */
static struct addrinfo *resolve(const char *spec, int socktype) {
    char host[256];
    const char *colon = strrchr(spec, ':');
    if (!colon || (size_t) (colon - spec) >= sizeof host) { fprintf(stderr, "bad address %s\n", spec); exit(2); }
    memcpy(host, spec, colon - spec);
    host[colon - spec] = 0;
    char *h = host;
    if (h[0] == '[') { h++; h[strlen(h) - 1] = 0; }
    struct addrinfo hints = { .ai_socktype = socktype, .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE };
    struct addrinfo *ai;
    int rc = getaddrinfo(h, colon + 1, &hints, &ai);
    if (rc) { fprintf(stderr, "bad address %s: %s\n", spec, gai_strerror(rc)); exit(2); }
    return ai;
}

static void epoll_set(int ep, int op, int fd, uint32_t events, void *ptr) {
    struct epoll_event ev = { .events = events, .data.ptr = ptr };
    if (epoll_ctl(ep, op, fd, &ev) < 0) die("epoll_ctl");
}

static void conn_close(int ep, struct conn *c) {
    epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    free(c->pending);
    free(c);
}

/* Sends what is pending; returns 1 when all of it went, 0 when the socket is full, -1 on error. */
static int flush_pending(struct conn *c) {
    while (c->pending_off < c->pending_len) {
        ssize_t n = write(c->fd, c->pending + c->pending_off, c->pending_len - c->pending_off);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errno == EAGAIN ? 0 : -1;
        c->pending_off += n;
    }
    c->pending_len = c->pending_off = 0;
    return 1;
}

static void on_tcp_readable(int ep, struct conn *c, char *buf) {
    /* One read takes all there is up to BUF_BYTES: a short read means the socket had no more (the read that would
     * only say EAGAIN is saved, as Netty saves it), and level-triggered epoll brings us back for anything left. */
    ssize_t len;
    do len = read(c->fd, buf, BUF_BYTES); while (len < 0 && errno == EINTR);
    if (len == 0 || (len < 0 && errno != EAGAIN)) { conn_close(ep, c); return; }
    if (len < 0) return;
    ssize_t n;   /* the whole batch back in one write */
    do n = write(c->fd, buf, len); while (n < 0 && errno == EINTR);
    if (n < 0 && errno != EAGAIN) { conn_close(ep, c); return; }
    if (n < 0) n = 0;
    if (n < len) {
        /* The socket is full: keep the rest and stop reading until it is out, so that the peer's backlog waits in
         * the kernel rather than here. */
        c->pending = realloc(c->pending, len - n);
        if (!c->pending) die("realloc");
        memcpy(c->pending, buf + n, len - n);
        c->pending_len = len - n;
        c->pending_off = 0;
        epoll_set(ep, EPOLL_CTL_MOD, c->fd, EPOLLOUT, c);
    }
}

static void on_tcp_writable(int ep, struct conn *c) {
    int rc = flush_pending(c);
    if (rc < 0) conn_close(ep, c);
    else if (rc > 0) epoll_set(ep, EPOLL_CTL_MOD, c->fd, EPOLLIN, c);
}

static void on_udp_readable(int fd, char *buf) {
    for (;;) {
        struct sockaddr_storage from;
        socklen_t fromlen = sizeof from;
        ssize_t n = recvfrom(fd, buf, BUF_BYTES, 0, (struct sockaddr *) &from, &fromlen);
        if (n < 0) {
            if (errno == EINTR) continue;
            return;   /* EAGAIN, or an ICMP error from an earlier send: either way wait for the next event */
        }
        sendto(fd, buf, n, 0, (struct sockaddr *) &from, fromlen);
    }
}

int main(int argc, char **argv) {
    int udp = 0;
    const char *spec = "127.0.0.1:0";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--udp")) udp = 1;
        else if (argv[i][0] == '-') { fprintf(stderr, "usage: %s [--udp] [HOST:PORT]\n", argv[0]); return 2; }
        else spec = argv[i];
    }
    struct sigaction sa = { .sa_handler = on_signal };   /* no SA_RESTART: epoll_wait returns EINTR */
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);   /* a peer that vanished must not kill the server */

    struct addrinfo *ai = resolve(spec, udp ? SOCK_DGRAM : SOCK_STREAM);
    int lfd = socket(ai->ai_family, (udp ? SOCK_DGRAM : SOCK_STREAM) | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (lfd < 0) die("socket");
    int one = 1;
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (udp) {
        /* The buffer sizes loopbench requests on its UDP sockets: room for every client's window at once. */
        int receive = 4 << 20, send = 64 << 10;
        setsockopt(lfd, SOL_SOCKET, SO_RCVBUF, &receive, sizeof receive);
        setsockopt(lfd, SOL_SOCKET, SO_SNDBUF, &send, sizeof send);
    }
    if (bind(lfd, ai->ai_addr, ai->ai_addrlen) < 0) die("bind");
    freeaddrinfo(ai);
    if (!udp && listen(lfd, 1024) < 0) die("listen");
    struct sockaddr_storage bound;
    socklen_t boundlen = sizeof bound;
    getsockname(lfd, (struct sockaddr *) &bound, &boundlen);
    int port = ntohs(bound.ss_family == AF_INET6 ? ((struct sockaddr_in6 *) &bound)->sin6_port
                                                 : ((struct sockaddr_in *) &bound)->sin_port);
    printf("port %d\n", port);
    fflush(stdout);

    int ep = epoll_create1(EPOLL_CLOEXEC);
    if (ep < 0) die("epoll_create1");
    static struct conn listener, input;   /* markers: data.ptr tells the listener and stdin from connections */
    epoll_set(ep, EPOLL_CTL_ADD, lfd, EPOLLIN, &listener);
    /* stdin counts only where epoll can watch it (a pipe or terminal; not /dev/null or a file). */
    struct epoll_event sev = { .events = EPOLLIN, .data.ptr = &input };
    epoll_ctl(ep, EPOLL_CTL_ADD, 0, &sev);

    char *buf = malloc(BUF_BYTES);
    if (!buf) die("malloc");
    struct epoll_event events[MAX_EVENTS];
    while (!stop) {
        int n = epoll_wait(ep, events, MAX_EVENTS, -1);
        if (n < 0) {
            if (errno == EINTR) continue;
            die("epoll_wait");
        }
        for (int i = 0; i < n; i++) {
            void *p = events[i].data.ptr;
            if (p == &input) {
                char sink[256];
                ssize_t r = read(0, sink, sizeof sink);
                if (r <= 0 && !(r < 0 && (errno == EAGAIN || errno == EINTR))) stop = 1;
            } else if (p == &listener) {
                if (udp) { on_udp_readable(lfd, buf); continue; }
                int fd;
                while ((fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
                    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);   /* echoes must not wait for Nagle */
                    struct conn *c = calloc(1, sizeof *c);
                    if (!c) die("calloc");
                    c->fd = fd;
                    epoll_set(ep, EPOLL_CTL_ADD, fd, EPOLLIN, c);
                }
            } else {
                struct conn *c = p;
                if (c->pending_len) on_tcp_writable(ep, c);
                else on_tcp_readable(ep, c, buf);
            }
        }
    }
    return 0;
}
