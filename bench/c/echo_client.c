/*
 * Reference echo client for bench/reference.sh: single-threaded epoll, closed loop, the same work per message as
 * loopbench's client (arknet's message layout, every echo checked completely), so that the two can be compared.
 *
 *   echo_client --target HOST:PORT [--clients 16] [--window 16] [--payload 1024] [--seconds 3] [--warmup 1]
 *
 * Each connection keeps --window messages in flight (sliding: one new message per echo received); the new messages
 * made ready while handling one readable event go out in one write. Messages sent during the warm-up carry tag 0,
 * later ones tag 1; "messages" counts the tag-1 echoes received before the end, over "seconds" (warm-up end to end).
 * Prints one JSON line on stdout; exits 1 if any echo was wrong or a connection failed.
 *
 * Message: bytes 0-2 "ANB", 3 the tag, 4-7 the client id, 8-15 the sequence (big-endian), then byte i =
 * (sequence + 17 i + 31 id) mod 256. As 17 is odd (17 * 241 = 1 mod 256), that is P[k + i] with P[j] = 17 j mod 256
 * and k = (sequence + 31 id) * 241 mod 256, so a body is written and checked with one memcpy/memcmp against P.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define HEADER 16

struct conn {
    int fd;
    uint32_t id;
    uint64_t next_seq;     /* sequence of the next message to send */
    uint64_t expect_seq;   /* sequence of the next echo (TCP keeps order) */
    unsigned char *rx;     /* received bytes not yet consumed: at most a partial message between events */
    size_t rx_len;
    unsigned char *tx;     /* messages made ready but not yet written */
    size_t tx_off, tx_len;
    int blocked;           /* a write fell short: the rest waits for EPOLLOUT */
};

static size_t payload = 1024, window = 16;
static unsigned char *pattern;   /* P[j] = 17 j mod 256, payload + 256 bytes */
static unsigned long long measured, errors;

static void die(const char *what) { perror(what); exit(1); }

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static size_t body_offset(uint32_t id, uint64_t seq) {
    return (size_t) (((seq + 31u * (uint64_t) id) * 241u) & 255u);
}

static void put_message(struct conn *c, unsigned char tag) {
    unsigned char *m = c->tx + c->tx_len;
    uint64_t seq = c->next_seq++;
    m[0] = 'A'; m[1] = 'N'; m[2] = 'B'; m[3] = tag;
    for (int b = 0; b < 4; b++) m[4 + b] = (unsigned char) (c->id >> (24 - 8 * b));
    for (int b = 0; b < 8; b++) m[8 + b] = (unsigned char) (seq >> (56 - 8 * b));
    memcpy(m + HEADER, pattern + body_offset(c->id, seq) + HEADER, payload - HEADER);
    c->tx_len += payload;
}

/* Checks one echo against what this connection sent as its expect_seq-th message; returns its tag, or -1. */
static int check_message(struct conn *c, const unsigned char *m) {
    uint64_t seq = c->expect_seq++;
    uint32_t id = 0;
    uint64_t got = 0;
    for (int b = 0; b < 4; b++) id = id << 8 | m[4 + b];
    for (int b = 0; b < 8; b++) got = got << 8 | m[8 + b];
    if (memcmp(m, "ANB", 3) || m[3] > 1 || id != c->id || got != seq
        || memcmp(m + HEADER, pattern + body_offset(c->id, seq) + HEADER, payload - HEADER))
        return -1;
    return m[3];
}

/* Writes what tx holds; returns 1 when all of it went, 0 when the socket is full, -1 on error. */
static int flush_tx(struct conn *c) {
    while (c->tx_off < c->tx_len) {
        ssize_t n = write(c->fd, c->tx + c->tx_off, c->tx_len - c->tx_off);
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno == EAGAIN ? 0 : -1;
        }
        c->tx_off += n;
    }
    c->tx_off = c->tx_len = 0;
    return 1;
}

static void watch(int ep, struct conn *c, uint32_t events) {
    struct epoll_event ev = { .events = events, .data.ptr = c };
    if (epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev) < 0) die("epoll_ctl");
}

/* Writes what tx holds, or leaves it for EPOLLOUT while the socket is full; returns -1 on error. */
static int send_ready(int ep, struct conn *c) {
    int rc = flush_tx(c);
    if (rc == 0 && !c->blocked) watch(ep, c, EPOLLIN | EPOLLOUT);
    if (rc > 0 && c->blocked) watch(ep, c, EPOLLIN);
    c->blocked = rc == 0;
    return rc < 0 ? -1 : 0;
}

/* Handles one readable event: read all there is, check each whole echo, one new message per echo, one write. */
static int on_readable(int ep, struct conn *c, unsigned char tag) {
    /* At most a window's bytes can be on the way back, so with one message more of room a read never fills rx
     * and the first short read is the last one. */
    size_t cap = (window + 1) * payload;
    for (;;) {
        size_t room = cap - c->rx_len;
        ssize_t n = read(c->fd, c->rx + c->rx_len, room);
        if (n == 0) { fprintf(stderr, "echo_client: connection %u closed by the server\n", c->id); return -1; }
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN) break;
            perror("read");
            return -1;
        }
        c->rx_len += n;
        size_t off = 0;
        if (c->tx_off) {   /* make room at the end of tx: the unsent part of an earlier batch moves to the front */
            memmove(c->tx, c->tx + c->tx_off, c->tx_len - c->tx_off);
            c->tx_len -= c->tx_off;
            c->tx_off = 0;
        }
        for (; c->rx_len - off >= payload; off += payload) {
            int got = check_message(c, c->rx + off);
            if (got < 0) errors++;
            else if (got == 1) measured++;
            put_message(c, tag);
        }
        memmove(c->rx, c->rx + off, c->rx_len - off);
        c->rx_len -= off;
        if ((size_t) n < room) break;   /* a short read drained the socket: no need for the EAGAIN call */
    }
    return c->blocked ? 0 : send_ready(ep, c);
}

static void usage(const char *prog) {
    fprintf(stderr, "usage: %s --target HOST:PORT [--clients N] [--window N] [--payload BYTES] [--seconds S] "
                    "[--warmup S]\n", prog);
    exit(2);
}

int main(int argc, char **argv) {
    const char *target = NULL;
    size_t clients = 16;
    double seconds = 3, warmup = 1;
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc) usage(argv[0]);
        const char *v = argv[++i], *k = argv[i - 1];
        if (!strcmp(k, "--target")) target = v;
        else if (!strcmp(k, "--clients")) clients = strtoul(v, NULL, 10);
        else if (!strcmp(k, "--window")) window = strtoul(v, NULL, 10);
        else if (!strcmp(k, "--payload")) payload = strtoul(v, NULL, 10);
        else if (!strcmp(k, "--seconds")) seconds = strtod(v, NULL);
        else if (!strcmp(k, "--warmup")) warmup = strtod(v, NULL);
        else usage(argv[0]);
    }
    if (!target || clients < 1 || window < 1 || payload < HEADER || seconds <= 0 || warmup < 0) usage(argv[0]);
    signal(SIGPIPE, SIG_IGN);

    pattern = malloc(payload + 256);
    if (!pattern) die("malloc");
    for (size_t j = 0; j < payload + 256; j++) pattern[j] = (unsigned char) (17 * j);

    char host[256];
    const char *colon = strrchr(target, ':');
    if (!colon || (size_t) (colon - target) >= sizeof host) usage(argv[0]);
    memcpy(host, target, colon - target);
    host[colon - target] = 0;
    char *h = host;
    if (h[0] == '[') { h++; h[strlen(h) - 1] = 0; }
    struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai;
    int rc = getaddrinfo(h, colon + 1, &hints, &ai);
    if (rc) { fprintf(stderr, "echo_client: %s: %s\n", target, gai_strerror(rc)); return 2; }

    int ep = epoll_create1(EPOLL_CLOEXEC);
    if (ep < 0) die("epoll_create1");
    struct conn *conns = calloc(clients, sizeof *conns);
    if (!conns) die("calloc");
    int one = 1;
    for (size_t i = 0; i < clients; i++) {
        struct conn *c = &conns[i];
        c->id = (uint32_t) i;
        c->fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (c->fd < 0) die("socket");
        if (connect(c->fd, ai->ai_addr, ai->ai_addrlen) < 0) die("connect");   /* blocking: setup, not measured */
        fcntl(c->fd, F_SETFL, O_NONBLOCK);
        setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        c->rx = malloc((window + 1) * payload);
        c->tx = malloc(window * payload);
        if (!c->rx || !c->tx) die("malloc");
        struct epoll_event ev = { .events = EPOLLIN, .data.ptr = c };
        if (epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev) < 0) die("epoll_ctl");
    }
    freeaddrinfo(ai);

    double start = now_s(), warm_end = start + warmup, end = warm_end + seconds;
    unsigned char tag = warmup > 0 ? 0 : 1;
    for (size_t i = 0; i < clients; i++) {
        for (size_t w = 0; w < window; w++) put_message(&conns[i], tag);
        if (send_ready(ep, &conns[i]) < 0) die("write");
    }

    struct epoll_event events[256];
    int failed = 0;
    double now = start;
    while (!failed && now < end) {
        double until = tag ? end : warm_end;
        int n = epoll_wait(ep, events, 256, (int) ((until - now) * 1000) + 1);
        if (n < 0 && errno != EINTR) die("epoll_wait");
        now = now_s();
        if (!tag && now >= warm_end) tag = 1;
        for (int i = 0; i < n && !failed; i++) {
            struct conn *c = events[i].data.ptr;
            if (events[i].events & EPOLLOUT) failed = send_ready(ep, c) < 0;
            if (!failed && events[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP))
                failed = on_readable(ep, c, tag) < 0;
        }
    }
    double measured_s = (now < end ? now : end) - warm_end;
    if (failed) errors++;
    printf("{\"roundTripsPerSecond\":%.1f,\"messages\":%llu,\"errors\":%llu,\"seconds\":%.3f,"
           "\"clients\":%zu,\"window\":%zu,\"payload\":%zu}\n",
           measured_s > 0 ? measured / measured_s : 0.0, measured, errors, measured_s, clients, window, payload);
    return errors ? 1 : 0;
}
