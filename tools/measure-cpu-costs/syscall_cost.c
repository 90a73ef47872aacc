/* syscall_cost: ns per getppid() system call, and ns per context switch measured with two
 * processes bouncing a byte over a pair of pipes on the same CPU (lmbench lat_ctx method).
 *   syscall_cost sys N | syscall_cost ctx N
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv) {
    long n = argc > 2 ? atol(argv[2]) : 1000000;
    if (argc > 1 && !strcmp(argv[1], "sys")) {
        double t0 = now_ns();
        for (long i = 0; i < n; i++) syscall(SYS_getppid);
        printf("%.1f ns/syscall\n", (now_ns() - t0) / n);
        return 0;
    }
    int ab[2], ba[2];
    char c = 0;
    if (pipe(ab) || pipe(ba)) return 1;
    /* one pipe round trip without a switch (same process), to subtract pipe costs */
    double t0 = now_ns();
    for (long i = 0; i < n; i++) { write(ab[1], &c, 1); read(ab[0], &c, 1); }
    double solo = (now_ns() - t0) / n;
    if (fork() == 0) {
        for (long i = 0; i < n; i++) { read(ab[0], &c, 1); write(ba[1], &c, 1); }
        _exit(0);
    }
    t0 = now_ns();
    for (long i = 0; i < n; i++) { write(ab[1], &c, 1); read(ba[0], &c, 1); }
    double rt = (now_ns() - t0) / n;
    /* a round trip = 2 writes + 2 reads + 2 switches (sleep + wakeup each) */
    printf("%.1f ns/roundtrip, %.1f ns/write+read, %.1f ns/switch\n", rt, solo, (rt - 2 * solo) / 2);
    return 0;
}
