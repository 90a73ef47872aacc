/* tcp_stream: a netperf-TCP_STREAM-like sender and sink used to measure per-operation CPU
 * costs of the Linux send path on this machine (see README.md).
 *
 *   tcp_stream sink ADDR PORT [-r readsize] [-q]
 *   tcp_stream send ADDR PORT -m writesize -t seconds [-n] [-c] [-s sndbuf]
 *
 * send prints one line: writes bytes wall_s utime_s stime_s nvcsw nivcsw
 * sink prints one line at EOF: reads bytes utime_s stime_s nvcsw
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double tv(struct timeval t) { return t.tv_sec + t.tv_usec * 1e-6; }

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: see source\n");
        return 2;
    }
    const char *mode = argv[1];
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[3]))};
    inet_pton(AF_INET, argv[2], &a.sin_addr);
    int m = 128, nodelay = 0, cork = 0, quick = 0, one = 1;
    long sndbuf = 0, rsize = 65536;
    double secs = 5;
    for (int i = 4; i < argc; i++) {
        if (!strcmp(argv[i], "-m")) m = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-t")) secs = atof(argv[++i]);
        else if (!strcmp(argv[i], "-n")) nodelay = 1;
        else if (!strcmp(argv[i], "-c")) cork = 1;
        else if (!strcmp(argv[i], "-q")) quick = 1;
        else if (!strcmp(argv[i], "-s")) sndbuf = atol(argv[++i]);
        else if (!strcmp(argv[i], "-r")) rsize = atol(argv[++i]);
    }
    if (!strcmp(mode, "sink")) {
        int l = socket(AF_INET, SOCK_STREAM, 0);
        setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(l, (void *)&a, sizeof a) || listen(l, 1)) { perror("bind/listen"); return 1; }
        int s = accept(l, 0, 0);
        setsockopt(s, IPPROTO_TCP, TCP_CONGESTION, "cubic", 5);
        char *buf = malloc(rsize);
        long reads = 0, bytes = 0;
        for (;;) {
            ssize_t n = read(s, buf, rsize);
            if (n <= 0) break;
            reads++;
            bytes += n;
            if (quick) setsockopt(s, IPPROTO_TCP, TCP_QUICKACK, &one, sizeof one);
        }
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        printf("%ld %ld %.6f %.6f %ld\n", reads, bytes, tv(ru.ru_utime), tv(ru.ru_stime), ru.ru_nvcsw);
        return 0;
    }
    int s = socket(AF_INET, SOCK_STREAM, 0);
    setsockopt(s, IPPROTO_TCP, TCP_CONGESTION, "cubic", 5);
    if (sndbuf) setsockopt(s, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
    if (connect(s, (void *)&a, sizeof a)) { perror("connect"); return 1; }
    if (nodelay) setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (cork) setsockopt(s, IPPROTO_TCP, TCP_CORK, &one, sizeof one);
    char *buf = calloc(1, m);
    long writes = 0, bytes = 0;
    struct rusage r0, r1;
    getrusage(RUSAGE_SELF, &r0);
    double t0 = now_s(), t1;
    do {
        for (int k = 0; k < 256; k++) {
            ssize_t n = write(s, buf, m);
            if (n < 0) { perror("write"); return 1; }
            writes++;
            bytes += n;
        }
        t1 = now_s();
    } while (t1 - t0 < secs);
    getrusage(RUSAGE_SELF, &r1);
    printf("%ld %ld %.6f %.6f %.6f %ld %ld\n", writes, bytes, t1 - t0,
           tv(r1.ru_utime) - tv(r0.ru_utime), tv(r1.ru_stime) - tv(r0.ru_stime),
           r1.ru_nvcsw - r0.ru_nvcsw, r1.ru_nivcsw - r0.ru_nivcsw);
    close(s);
    return 0;
}
