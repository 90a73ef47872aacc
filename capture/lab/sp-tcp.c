/*
 * sp-tcp: the source experiments' TCP workloads, small enough to read in one sitting.
 *
 *   sp-tcp server -p PORT [options]            accept one connection and play the server side
 *   sp-tcp client -c ADDR -p PORT [options]    connect and play the client side
 *
 * Workloads (-w, both sides must agree):
 *   stream    the client writes -s SIZE bytes (default 128) per write() until -n TOTAL bytes
 *             are written or -t SECONDS have passed; the server reads and discards.
 *             `-s 128 -t 2` is the autocorking experiment (f54b3111: netperf TCP_STREAM
 *             -m 128); `-s 2000000 -n 2000000 --sndbuf 1000000` is the TSO-autosizing one
 *             (605ad7f1: netperf -l -2000000 -- -s 1000000).
 *   pingpong  the zh-TW article's tcp_test: for each of -r ROUNDS (default 100), the server
 *             sends -s SEND bytes (default 1000) as -k CHUNKS (default 100) writes, the
 *             client reads them all and sends the same back the same way, and the server
 *             reads them all. Both sides print "send + recv time".
 *
 * Options (socket options are set on the data socket right after connect()/accept()):
 *   --nodelay        TCP_NODELAY 1 (Nagle off)
 *   --quickack=MODE  TCP_QUICKACK 1: "once" after connecting, or "every" after each read
 *   --cork           TCP_CORK around each round's writes (uncork after the last chunk)
 *   --msg-more       MSG_MORE on every chunk but the last of a round
 *   --sndbuf=BYTES   SO_SNDBUF (the kernel doubles it)
 *   --cc=NAME        TCP_CONGESTION (default cubic)
 *   --gap-us=US      stream: start a burst of writes every US microseconds (default: no gaps)
 *   --burst=N        stream: N writes back to back per burst (default 1)
 *   --notsent-lowat=BYTES  TCP_NOTSENT_LOWAT
 *   --io=MODE        stream client: "block" (default: blocking send() calls), "eagain" (non-blocking,
 *                    send() until EAGAIN, then epoll_wait for EPOLLOUT) or "once" (non-blocking,
 *                    one send() per epoll_wait wake-up)
 *   --drain          stream client: after the last write, shutdown(SHUT_WR) and wait for the
 *                    server to close (as netperf does), so elapsed_s and throughput_mbit cover
 *                    delivery of every byte, not just its copy into the send buffer
 *   -F FLOWS         server: accept FLOWS connections, one child process each (default 1)
 *   -T SECONDS       give up after this long (default 60): every run is bounded in time
 *
 * Output: one JSON line on stdout with what was done and how long it took (CLOCK_MONOTONIC),
 * and what it cost the process (getrusage: cpu_s = user + system seconds, nvcsw = voluntary
 * context switches), send_calls (every send() call, including those that returned EAGAIN) and
 * wakeups (epoll_wait returns in --io=eagain/once).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct config {
	int is_server;
	const char *addr;
	int port;
	const char *workload;
	long long size;       /* stream: bytes per write; pingpong: bytes per round and direction */
	long long total;      /* stream: total bytes (0 = until -t) */
	double seconds;       /* stream: duration when total == 0 */
	int chunks;           /* pingpong: writes per round and direction */
	int rounds;           /* pingpong */
	int nodelay, cork, msg_more, quickack; /* quickack: 0 off, 1 once, 2 every read */
	int sndbuf;
	long gap_ns;          /* stream: pace bursts this far apart (0 = as fast as possible) */
	int burst;            /* stream: writes per burst (default 1) */
	const char *cc;
	int timeout_s;
	int notsent_lowat;    /* 0 = not set */
	int io;               /* 0 block, 1 eagain, 2 once */
	int drain;
	int flows;            /* server: connections to accept */
};

static long long send_calls, wakeups, eagains;

/* ,"cpu_s":..,"nvcsw":..,"nivcsw":..,"send_calls":..,"wakeups":.. for the JSON line */
static void print_usage_fields(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
		     (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	printf(",\"cpu_s\":%.6f,\"user_s\":%.6f,\"sys_s\":%.6f,\"nvcsw\":%ld,\"nivcsw\":%ld,"
	       "\"send_calls\":%lld,\"wakeups\":%lld,\"eagains\":%lld}\n",
	       cpu, (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6,
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6, ru.ru_nvcsw, ru.ru_nivcsw,
	       send_calls, wakeups, eagains);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Wait until the absolute CLOCK_MONOTONIC time DEADLINE (seconds); spins for the last 200 us so
 * that gaps of a few microseconds hold (nanosleep alone oversleeps by ~50 us). */
static void wait_until(double deadline)
{
	for (;;) {
		double left = deadline - now_s();
		if (left <= 0)
			return;
		if (left > 200e-6) {
			struct timespec ts = { 0, (long)((left - 200e-6) * 1e9) };
			nanosleep(&ts, NULL);
		}
	}
}

static void die(const char *what)
{
	fprintf(stderr, "sp-tcp: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void setint(int fd, int level, int opt, int val, const char *name)
{
	if (setsockopt(fd, level, opt, &val, sizeof(val)) < 0)
		die(name);
}

static void apply_socket_options(int fd, const struct config *c)
{
	if (setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, c->cc, strlen(c->cc)) < 0)
		die("setsockopt(TCP_CONGESTION)");
	if (c->nodelay)
		setint(fd, IPPROTO_TCP, TCP_NODELAY, 1, "setsockopt(TCP_NODELAY)");
	if (c->quickack)
		setint(fd, IPPROTO_TCP, TCP_QUICKACK, 1, "setsockopt(TCP_QUICKACK)");
	if (c->notsent_lowat)
		setint(fd, IPPROTO_TCP, TCP_NOTSENT_LOWAT, c->notsent_lowat, "setsockopt(TCP_NOTSENT_LOWAT)");
}

static void write_all(int fd, const char *buf, size_t len, int flags)
{
	while (len > 0) {
		ssize_t n = send(fd, buf, len, flags);
		send_calls++;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("send");
		}
		buf += n;
		len -= (size_t)n;
	}
}

static void read_exactly(int fd, char *buf, size_t len, const struct config *c)
{
	while (len > 0) {
		ssize_t n = recv(fd, buf, len, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("recv");
		}
		if (n == 0) {
			fprintf(stderr, "sp-tcp: peer closed with %zu bytes still expected\n", len);
			exit(1);
		}
		buf += n;
		len -= (size_t)n;
		if (c->quickack == 2)
			setint(fd, IPPROTO_TCP, TCP_QUICKACK, 1, "setsockopt(TCP_QUICKACK)");
	}
}

/* One direction of one ping-pong round: SIZE bytes as CHUNKS writes, with cork/MSG_MORE. */
static void send_round(int fd, const char *buf, const struct config *c)
{
	long long chunk = c->size / c->chunks;
	if (c->cork)
		setint(fd, IPPROTO_TCP, TCP_CORK, 1, "setsockopt(TCP_CORK)");
	for (int i = 0; i < c->chunks; i++) {
		long long len = i == c->chunks - 1 ? c->size - chunk * (c->chunks - 1) : chunk;
		int flags = c->msg_more && i < c->chunks - 1 ? MSG_MORE : 0;
		write_all(fd, buf, (size_t)len, flags);
	}
	if (c->cork)
		setint(fd, IPPROTO_TCP, TCP_CORK, 0, "setsockopt(TCP_CORK)");
}

static void run_pingpong(int fd, const struct config *c)
{
	char *buf = calloc(1, (size_t)c->size);
	if (!buf)
		die("calloc");
	double start = now_s();
	for (int r = 0; r < c->rounds; r++) {
		if (c->is_server) {
			send_round(fd, buf, c);
			read_exactly(fd, buf, (size_t)c->size, c);
		} else {
			read_exactly(fd, buf, (size_t)c->size, c);
			send_round(fd, buf, c);
		}
	}
	double elapsed = now_s() - start;
	printf("{\"tool\":\"sp-tcp\",\"side\":\"%s\",\"workload\":\"pingpong\",\"send\":%lld,"
	       "\"n_chunk\":%d,\"round\":%d,\"no_delay\":%d,\"quickack\":%d,\"cork\":%d,"
	       "\"msg_more\":%d,\"cc\":\"%s\",\"elapsed_s\":%.6f",
	       c->is_server ? "server" : "client", c->size, c->chunks, c->rounds, c->nodelay,
	       c->quickack, c->cork, c->msg_more, c->cc, elapsed);
	print_usage_fields();
	free(buf);
}

static void run_stream(int fd, const struct config *c)
{
	size_t bufsize = c->is_server ? 1 << 20 : (size_t)c->size;
	char *buf = calloc(1, bufsize);
	if (!buf)
		die("calloc");
	long long bytes = 0, calls = 0;
	double start = now_s(), end = start + c->seconds;
	if (c->is_server) {
		for (;;) {
			ssize_t n = recv(fd, buf, bufsize, 0);
			if (n < 0) {
				if (errno == EINTR)
					continue;
				die("recv");
			}
			if (n == 0)
				break;
			bytes += n;
			calls++;
		}
	} else if (c->io) {
		/* Non-blocking: send() until EAGAIN (io 1) or once (io 2) per epoll_wait wake-up. */
		int fl = fcntl(fd, F_GETFL);
		if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
			die("fcntl(O_NONBLOCK)");
		int ep = epoll_create1(0);
		if (ep < 0)
			die("epoll_create1");
		struct epoll_event ev = { .events = EPOLLOUT };
		if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) < 0)
			die("epoll_ctl");
		for (;;) {
			double t = now_s();
			if (c->total ? bytes >= c->total : t >= end)
				break;
			int ms = c->total ? 1000 : (int)((end - t) * 1000) + 1;
			int r = epoll_wait(ep, &ev, 1, ms);
			if (r < 0) {
				if (errno == EINTR)
					continue;
				die("epoll_wait");
			}
			if (r == 0)
				continue;
			wakeups++;
			for (;;) {
				long long len = c->size;
				if (c->total && c->total - bytes < len)
					len = c->total - bytes;
				ssize_t n = send(fd, buf, (size_t)len, 0);
				send_calls++;
				if (n < 0) {
					if (errno == EAGAIN || errno == EWOULDBLOCK) {
						eagains++;
						break;
					}
					if (errno == EINTR)
						continue;
					die("send");
				}
				bytes += n;
				calls++;
				if (c->io == 2 || (c->total ? bytes >= c->total : now_s() >= end))
					break;
			}
		}
		close(ep);
		if (fcntl(fd, F_SETFL, fl) < 0)
			die("fcntl");
	} else {
		double next = start;
		while (c->total ? bytes < c->total : now_s() < end) {
			if (c->gap_ns && calls % c->burst == 0) {
				next += (double)c->gap_ns / 1e9;
				wait_until(next);
			}
			long long len = c->size;
			if (c->total && c->total - bytes < len)
				len = c->total - bytes;
			write_all(fd, buf, (size_t)len, 0);
			bytes += len;
			calls++;
		}
	}
	double write_elapsed = now_s() - start;
	if (!c->is_server && c->drain) {
		if (shutdown(fd, SHUT_WR) < 0)
			die("shutdown");
		for (;;) {
			ssize_t n = recv(fd, buf, bufsize, 0);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
		}
	}
	double elapsed = now_s() - start;
	printf("{\"tool\":\"sp-tcp\",\"side\":\"%s\",\"workload\":\"stream\",\"write_size\":%lld,"
	       "\"bytes\":%lld,\"calls\":%lld,\"gap_ns\":%ld,\"burst\":%d,\"no_delay\":%d,\"sndbuf\":%d,\"cc\":\"%s\","
	       "\"io\":\"%s\",\"notsent_lowat\":%d,\"drain\":%d,\"write_elapsed_s\":%.6f,"
	       "\"elapsed_s\":%.6f,\"throughput_mbit\":%.3f",
	       c->is_server ? "server" : "client", c->size, bytes, calls, c->gap_ns, c->burst, c->nodelay, c->sndbuf,
	       c->cc, c->io == 1 ? "eagain" : c->io == 2 ? "once" : "block", c->notsent_lowat, c->drain,
	       write_elapsed, elapsed, elapsed > 0 ? (double)bytes * 8 / elapsed / 1e6 : 0.0);
	print_usage_fields();
	free(buf);
}

static int connect_or_accept(const struct config *c)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons((uint16_t)c->port) };
	if (inet_pton(AF_INET, c->addr, &sin.sin_addr) != 1) {
		fprintf(stderr, "sp-tcp: bad IPv4 address '%s'\n", c->addr);
		exit(2);
	}
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		die("socket");
	if (c->sndbuf)
		setint(fd, SOL_SOCKET, SO_SNDBUF, c->sndbuf, "setsockopt(SO_SNDBUF)");
	if (setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, c->cc, strlen(c->cc)) < 0)
		die("setsockopt(TCP_CONGESTION)");
	if (!c->is_server) {
		/* The server may still be starting: retry for a second. */
		for (int tries = 0;; tries++) {
			if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)) == 0)
				break;
			if (tries >= 100 || errno != ECONNREFUSED)
				die("connect");
			usleep(10000);
		}
		apply_socket_options(fd, c);
		return fd;
	}
	setint(fd, SOL_SOCKET, SO_REUSEADDR, 1, "setsockopt(SO_REUSEADDR)");
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) < 0)
		die("bind");
	if (listen(fd, c->flows < 16 ? 16 : c->flows) < 0)
		die("listen");
	int conn = -1;
	for (int i = 0; i < c->flows; i++) {
		conn = accept(fd, NULL, NULL);
		if (conn < 0)
			die("accept");
		if (i == c->flows - 1)
			break;
		fflush(stdout);
		pid_t pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0)
			break; /* the child plays this connection */
		close(conn);
		conn = -1;
	}
	close(fd);
	if (c->sndbuf)
		setint(conn, SOL_SOCKET, SO_SNDBUF, c->sndbuf, "setsockopt(SO_SNDBUF)");
	apply_socket_options(conn, c);
	return conn;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: sp-tcp server|client [-c ADDR] -p PORT -w stream|pingpong [-s SIZE] [-n TOTAL]\n"
		"       [-t SECONDS] [-k CHUNKS] [-r ROUNDS] [-T TIMEOUT_S] [--nodelay] [--cork]\n"
		"       [--msg-more] [--quickack=once|every] [--sndbuf=BYTES] [--cc=NAME] [--gap-us=US]\n"
		"       [--burst=N] [--notsent-lowat=BYTES] [--io=block|eagain|once] [--drain] [-F FLOWS]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct config c = { .addr = "0.0.0.0", .port = 0, .workload = "stream", .size = 0,
			    .seconds = 2, .chunks = 100, .rounds = 100, .cc = "cubic",
			    .timeout_s = 60, .burst = 1, .flows = 1 };
	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "server"))
		c.is_server = 1;
	else if (strcmp(argv[1], "client"))
		usage();
	static const struct option longopts[] = {
		{ "nodelay", no_argument, NULL, 'N' },   { "cork", no_argument, NULL, 'C' },
		{ "msg-more", no_argument, NULL, 'M' },  { "quickack", required_argument, NULL, 'Q' },
		{ "sndbuf", required_argument, NULL, 'B' }, { "cc", required_argument, NULL, 'G' },
		{ "gap-us", required_argument, NULL, 'P' }, { "burst", required_argument, NULL, 'U' },
		{ "notsent-lowat", required_argument, NULL, 'L' }, { "io", required_argument, NULL, 'I' },
		{ "drain", no_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;
	optind = 2;
	while ((opt = getopt_long(argc, argv, "c:p:w:s:n:t:k:r:T:F:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'c': c.addr = optarg; break;
		case 'p': c.port = atoi(optarg); break;
		case 'w': c.workload = optarg; break;
		case 's': c.size = atoll(optarg); break;
		case 'n': c.total = atoll(optarg); break;
		case 't': c.seconds = atof(optarg); break;
		case 'k': c.chunks = atoi(optarg); break;
		case 'r': c.rounds = atoi(optarg); break;
		case 'T': c.timeout_s = atoi(optarg); break;
		case 'N': c.nodelay = 1; break;
		case 'C': c.cork = 1; break;
		case 'M': c.msg_more = 1; break;
		case 'Q':
			if (!strcmp(optarg, "once"))
				c.quickack = 1;
			else if (!strcmp(optarg, "every"))
				c.quickack = 2;
			else
				usage();
			break;
		case 'B': c.sndbuf = atoi(optarg); break;
		case 'G': c.cc = optarg; break;
		case 'P': c.gap_ns = (long)(atof(optarg) * 1000); break;
		case 'U': c.burst = atoi(optarg); break;
		case 'L': c.notsent_lowat = atoi(optarg); break;
		case 'D': c.drain = 1; break;
		case 'F': c.flows = atoi(optarg); break;
		case 'I':
			if (!strcmp(optarg, "block"))
				c.io = 0;
			else if (!strcmp(optarg, "eagain"))
				c.io = 1;
			else if (!strcmp(optarg, "once"))
				c.io = 2;
			else
				usage();
			break;
		default: usage();
		}
	}
	if (c.size == 0) /* the experiments' sizes: netperf -m 128, the article's send 1000 */
		c.size = strcmp(c.workload, "pingpong") ? 128 : 1000;
	if (c.port <= 0 || c.port > 65535 || c.size <= 0 || c.chunks <= 0 || c.rounds <= 0 || c.burst <= 0 || c.flows <= 0 ||
	    (strcmp(c.workload, "stream") && strcmp(c.workload, "pingpong")))
		usage();
	if (!c.is_server && !strcmp(c.addr, "0.0.0.0")) {
		fprintf(stderr, "sp-tcp: client needs -c ADDR\n");
		return 2;
	}
	alarm((unsigned)c.timeout_s); /* SIGALRM ends a stuck run: every run is bounded */

	int fd = connect_or_accept(&c);
	if (!strcmp(c.workload, "pingpong"))
		run_pingpong(fd, &c);
	else
		run_stream(fd, &c);
	fflush(stdout);
	close(fd);
	if (c.is_server && c.flows > 1)
		while (wait(NULL) > 0)
			; /* the last connection's process waits for the others */
	return 0;
}
