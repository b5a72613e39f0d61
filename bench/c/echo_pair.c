/*
 * Reference echo pair for bench/layout.py: loopbench's own layout in C, the physical limit its pair is held to. One
 * process, --threads epoll threads; client i and its server end both belong to thread i mod threads, so no wake-up
 * crosses threads (loopbench's sharded IO model; with one thread, its shared 1). Each client keeps --window messages
 * of --payload bytes in flight: the messages that one read's echoes free are sent again in one write, as loopbench's
 * client does. Each server end writes back what it read, in one write per read. No content check: messages are
 * counted, not checked (loopbench checks every echo; its cost is stated separately).
 *
 *   echo_pair [--threads 1] [--clients 16] [--window 16] [--payload 1024] [--seconds 3] [--warmup 1]
 *
 * Connections are made over loopback before the threads start. Round trips completed after the warm-up, until the
 * end, over "seconds". Prints one JSON line on stdout; exits 1 if a connection failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct end {
    int fd;
    int server;             /* 1: the server end, which echoes; 0: the client end, which counts and refills */
    unsigned char *buf;     /* client: the partial message between reads; server: bytes read, not yet written back */
    size_t len;             /* server: bytes in buf not yet written; client: bytes of a partial message */
    size_t out;             /* client: bytes of refills not yet written (the socket was full) */
    int blocked;
};

struct loop {
    pthread_t thread;
    int ep;
    struct end *ends;
    size_t count;
    unsigned long long measured;
    int failed;
    char pad[64];
};

static size_t payload = 1024, window = 16;
static unsigned char *zeros;   /* what clients send: content does not matter here */
static double warm_end, end_at;

static void die(const char *what) { perror(what); exit(1); }

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void watch(int ep, struct end *e, uint32_t events) {
    struct epoll_event ev = { .events = events, .data.ptr = e };
    if (epoll_ctl(ep, EPOLL_CTL_MOD, e->fd, &ev) < 0) die("epoll_ctl");
}

/* Writes n bytes from p, or what of them the socket takes; returns the bytes written, or -1 on error. */
static ssize_t put(int fd, const unsigned char *p, size_t n) {
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(fd, p + done, n - done);
        if (w < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN) break;
            return -1;
        }
        done += w;
    }
    return (ssize_t) done;
}

/* Sets EPOLLOUT while something waits to be written, clears it once nothing does. */
static void want_out(int ep, struct end *e, int pending) {
    if (pending && !e->blocked) watch(ep, e, EPOLLIN | EPOLLOUT);
    if (!pending && e->blocked) watch(ep, e, EPOLLIN);
    e->blocked = pending;
}

/* The client's refills: out bytes of (already counted) messages, written now or when the socket has room. */
static int client_flush(int ep, struct end *e) {
    while (e->out > 0) {
        size_t chunk = e->out < window * payload ? e->out : window * payload;
        ssize_t w = put(e->fd, zeros, chunk);
        if (w < 0) return -1;
        e->out -= (size_t) w;
        if ((size_t) w < chunk) break;
    }
    want_out(ep, e, e->out > 0);
    return 0;
}

static int server_flush(int ep, struct end *e) {
    ssize_t w = put(e->fd, e->buf, e->len);
    if (w < 0) return -1;
    memmove(e->buf, e->buf + w, e->len - (size_t) w);
    e->len -= (size_t) w;
    want_out(ep, e, e->len > 0);
    return 0;
}

static int on_readable(int ep, struct loop *l, struct end *e, int counting) {
    size_t cap = (window + 1) * payload;
    for (;;) {
        unsigned char scratch[65536];
        unsigned char *into = e->server ? e->buf + e->len : scratch;
        size_t room = e->server ? cap - e->len : sizeof scratch;
        if (room == 0) break;   /* a server end whose echoes wait for room: read again once written */
        ssize_t n = read(e->fd, into, room);
        if (n == 0) return -1;
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN) break;
            return -1;
        }
        if (e->server) {
            e->len += (size_t) n;
        } else {
            size_t whole = (e->len + (size_t) n) / payload;
            e->len = (e->len + (size_t) n) % payload;
            if (counting) l->measured += whole;
            e->out += whole * payload;
        }
        if ((size_t) n < room) break;
    }
    if (e->server) return e->blocked ? 0 : server_flush(ep, e);
    return e->blocked ? 0 : client_flush(ep, e);
}

static void *run(void *arg) {
    struct loop *l = arg;
    for (size_t i = 0; i < l->count; i++) {
        struct end *e = &l->ends[i];
        if (!e->server) {
            e->out = window * payload;
            if (client_flush(l->ep, e) < 0) { l->failed = 1; return NULL; }
        }
    }
    struct epoll_event events[256];
    double now = now_s();
    while (!l->failed && now < end_at) {
        int n = epoll_wait(l->ep, events, 256, (int) ((end_at - now) * 1000) + 1);
        if (n < 0 && errno != EINTR) die("epoll_wait");
        now = now_s();
        int counting = now >= warm_end && now < end_at;
        for (int i = 0; i < n && !l->failed; i++) {
            struct end *e = events[i].data.ptr;
            if (events[i].events & EPOLLOUT)
                l->failed = (e->server ? server_flush(l->ep, e) : client_flush(l->ep, e)) < 0;
            if (!l->failed && events[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP))
                l->failed = on_readable(l->ep, l, e, counting) < 0;
        }
    }
    return NULL;
}

static void usage(const char *prog) {
    fprintf(stderr, "usage: %s [--threads N] [--clients N] [--window N] [--payload BYTES] [--seconds S] "
                    "[--warmup S]\n", prog);
    exit(2);
}

int main(int argc, char **argv) {
    size_t threads = 1, clients = 16;
    double seconds = 3, warmup = 1;
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc) usage(argv[0]);
        const char *v = argv[++i], *k = argv[i - 1];
        if (!strcmp(k, "--threads")) threads = strtoul(v, NULL, 10);
        else if (!strcmp(k, "--clients")) clients = strtoul(v, NULL, 10);
        else if (!strcmp(k, "--window")) window = strtoul(v, NULL, 10);
        else if (!strcmp(k, "--payload")) payload = strtoul(v, NULL, 10);
        else if (!strcmp(k, "--seconds")) seconds = strtod(v, NULL);
        else if (!strcmp(k, "--warmup")) warmup = strtod(v, NULL);
        else usage(argv[0]);
    }
    if (threads < 1 || clients < 1 || window < 1 || payload < 1 || seconds <= 0 || warmup < 0) usage(argv[0]);
    signal(SIGPIPE, SIG_IGN);
    zeros = calloc(window, payload);
    if (!zeros) die("calloc");

    int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t alen = sizeof addr;
    if (listener < 0 || bind(listener, (struct sockaddr *) &addr, sizeof addr) < 0
        || listen(listener, 1024) < 0 || getsockname(listener, (struct sockaddr *) &addr, &alen) < 0)
        die("listen");

    struct loop *loops = calloc(threads, sizeof *loops);
    if (!loops) die("calloc");
    for (size_t t = 0; t < threads; t++) {
        loops[t].ep = epoll_create1(EPOLL_CLOEXEC);
        loops[t].ends = calloc(2 * (clients / threads + 1), sizeof(struct end));
        if (loops[t].ep < 0 || !loops[t].ends) die("loop");
    }
    int one = 1;
    for (size_t i = 0; i < clients; i++) {
        struct loop *l = &loops[i % threads];
        int c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (c < 0 || connect(c, (struct sockaddr *) &addr, sizeof addr) < 0) die("connect");
        int s = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
        if (s < 0) die("accept");
        int fds[2] = { s, c };
        for (int k = 0; k < 2; k++) {
            struct end *e = &l->ends[l->count++];
            e->fd = fds[k];
            e->server = k == 0;
            e->buf = e->server ? malloc((window + 1) * payload) : NULL;
            if (e->server && !e->buf) die("malloc");
            fcntl(e->fd, F_SETFL, O_NONBLOCK);
            setsockopt(e->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            struct epoll_event ev = { .events = EPOLLIN, .data.ptr = e };
            if (epoll_ctl(l->ep, EPOLL_CTL_ADD, e->fd, &ev) < 0) die("epoll_ctl");
        }
    }

    double start = now_s();
    warm_end = start + warmup;
    end_at = warm_end + seconds;
    for (size_t t = 0; t < threads; t++)
        if (pthread_create(&loops[t].thread, NULL, run, &loops[t])) die("pthread_create");
    unsigned long long measured = 0;
    int failed = 0;
    for (size_t t = 0; t < threads; t++) {
        pthread_join(loops[t].thread, NULL);
        measured += loops[t].measured;
        failed |= loops[t].failed;
    }
    printf("{\"roundTripsPerSecond\":%.1f,\"messages\":%llu,\"errors\":%d,\"seconds\":%.3f,\"threads\":%zu,"
           "\"clients\":%zu,\"window\":%zu,\"payload\":%zu}\n",
           measured / seconds, measured, failed, seconds, threads, clients, window, payload);
    return failed ? 1 : 0;
}
