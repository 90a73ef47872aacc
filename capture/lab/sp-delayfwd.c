/*
 * sp-delayfwd: forward Ethernet frames between two interfaces, delaying each by a fixed time.
 *
 * Stands in for `tc qdisc add ... netem delay` on kernels built without sch_netem. It runs in a
 * middle network namespace that owns one end of two veth pairs and has no IP addresses, so the
 * kernel itself routes nothing there: every frame seen on interface A is sent on interface B
 * DELAY later (and the other way round), in arrival order.
 *
 * GSO frames are carried whole: both packet sockets use PACKET_VNET_HDR, so a 64 KB TSO skb sent
 * by the sender's TCP crosses as one frame with its gso_size/gso_type and checksum-offload state
 * (struct virtio_net_hdr), exactly as it would cross a netem qdisc. Without this, frames bigger
 * than the MTU could not be re-sent (EMSGSIZE) and TSO would have to be turned off, which changes
 * the send path under test (size_goal would drop to one MSS).
 *
 * Usage: sp-delayfwd -a IFACE -b IFACE -d DELAY_US [-r DELAY_US_B_TO_A] [-m MAX_QUEUED_BYTES]
 * Stops on SIGTERM/SIGINT and prints one JSON line of statistics on stderr.
 *
 * Timing: arrival is stamped with CLOCK_MONOTONIC right after recv(); departure is scheduled with
 * ppoll() at nanosecond resolution. Measured on the lab kernel the added delay is DELAY plus a few
 * tens of microseconds of scheduling latency (see docs/capture.md).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <linux/virtio_net.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define FRAME_MAX (sizeof(struct virtio_net_hdr) + 65536 + 64)

struct frame {
	struct frame *next;
	uint64_t due_ns;
	size_t len;
	unsigned char data[];
};

struct direction {
	const char *from_name, *to_name;
	int from_fd, to_fd;
	uint64_t delay_ns;
	struct frame *head, *tail;
	uint64_t queued_bytes, max_queued_bytes;
	uint64_t frames, bytes, drops_queue_full, send_errors;
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void die(const char *what, const char *detail)
{
	fprintf(stderr, "sp-delayfwd: %s %s: %s\n", what, detail ? detail : "", strerror(errno));
	exit(1);
}

/* One raw packet socket bound to IFACE, seeing only frames arriving on it (not our own sends). */
static int open_iface(const char *name)
{
	int fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK, htons(ETH_P_ALL));
	if (fd < 0)
		die("socket(AF_PACKET)", name);
	int one = 1;
	if (setsockopt(fd, SOL_PACKET, PACKET_VNET_HDR, &one, sizeof(one)) < 0)
		die("setsockopt(PACKET_VNET_HDR)", name);
	if (setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one)) < 0)
		die("setsockopt(PACKET_IGNORE_OUTGOING)", name);
	int rcvbuf = 32 << 20;
	setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf));
	int sndbuf = 32 << 20;
	setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf, sizeof(sndbuf));
	unsigned int ifindex = if_nametoindex(name);
	if (!ifindex)
		die("if_nametoindex", name);
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL),
				   .sll_ifindex = (int)ifindex };
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0)
		die("bind", name);
	return fd;
}

/* Drain every frame waiting on d->from_fd into d's FIFO, stamped with its departure time. */
static void receive_all(struct direction *d, unsigned char *buf)
{
	for (;;) {
		ssize_t n = recv(d->from_fd, buf, FRAME_MAX, 0);
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
				return;
			die("recv", d->from_name);
		}
		uint64_t arrival = now_ns();
		if (d->queued_bytes + (uint64_t)n > d->max_queued_bytes) {
			d->drops_queue_full++;
			continue;
		}
		struct frame *f = malloc(sizeof(*f) + (size_t)n);
		if (!f)
			die("malloc", NULL);
		f->next = NULL;
		f->due_ns = arrival + d->delay_ns;
		f->len = (size_t)n;
		memcpy(f->data, buf, (size_t)n);
		if (d->tail)
			d->tail->next = f;
		else
			d->head = f;
		d->tail = f;
		d->queued_bytes += (uint64_t)n;
	}
}

/* Send every frame of d whose departure time has come. A constant delay keeps FIFO order. */
static void send_due(struct direction *d, uint64_t now)
{
	while (d->head && d->head->due_ns <= now) {
		struct frame *f = d->head;
		if (send(d->to_fd, f->data, f->len, 0) < 0) {
			if (errno == EAGAIN || errno == ENOBUFS)
				return; /* retry on the next wakeup */
			d->send_errors++;
		} else {
			d->frames++;
			d->bytes += f->len - sizeof(struct virtio_net_hdr);
		}
		d->head = f->next;
		if (!d->head)
			d->tail = NULL;
		d->queued_bytes -= f->len;
		free(f);
	}
}

static void print_stats(const struct direction *d, int n)
{
	fprintf(stderr, "{\"tool\":\"sp-delayfwd\"");
	for (int i = 0; i < n; i++)
		fprintf(stderr,
			",\"%s_to_%s\":{\"delay_ns\":%llu,\"frames\":%llu,\"bytes\":%llu,"
			"\"drops_queue_full\":%llu,\"send_errors\":%llu}",
			d[i].from_name, d[i].to_name, (unsigned long long)d[i].delay_ns,
			(unsigned long long)d[i].frames, (unsigned long long)d[i].bytes,
			(unsigned long long)d[i].drops_queue_full, (unsigned long long)d[i].send_errors);
	fprintf(stderr, "}\n");
}

int main(int argc, char **argv)
{
	const char *a = NULL, *b = NULL;
	long long delay_us = -1, delay_back_us = -1, max_queued = 64ll << 20;
	int opt;
	while ((opt = getopt(argc, argv, "a:b:d:r:m:")) != -1) {
		switch (opt) {
		case 'a': a = optarg; break;
		case 'b': b = optarg; break;
		case 'd': delay_us = atoll(optarg); break;
		case 'r': delay_back_us = atoll(optarg); break;
		case 'm': max_queued = atoll(optarg); break;
		default:
			fprintf(stderr, "usage: %s -a IFACE -b IFACE -d DELAY_US [-r DELAY_US_B_TO_A] "
					"[-m MAX_QUEUED_BYTES]\n", argv[0]);
			return 2;
		}
	}
	if (!a || !b || delay_us < 0) {
		fprintf(stderr, "sp-delayfwd: -a, -b and -d are required (delay in microseconds >= 0)\n");
		return 2;
	}
	if (delay_back_us < 0)
		delay_back_us = delay_us;

	struct sigaction sa = { .sa_handler = on_signal };
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	int fa = open_iface(a), fb = open_iface(b);
	struct direction dirs[2] = {
		{ .from_name = a, .to_name = b, .from_fd = fa, .to_fd = fb,
		  .delay_ns = (uint64_t)delay_us * 1000, .max_queued_bytes = (uint64_t)max_queued },
		{ .from_name = b, .to_name = a, .from_fd = fb, .to_fd = fa,
		  .delay_ns = (uint64_t)delay_back_us * 1000, .max_queued_bytes = (uint64_t)max_queued },
	};
	unsigned char *buf = malloc(FRAME_MAX);
	if (!buf)
		die("malloc", NULL);
	fprintf(stderr, "sp-delayfwd: forwarding %s <-> %s, delay %lld us / %lld us\n", a, b, delay_us,
		delay_back_us);

	struct pollfd pfd[2] = { { .fd = fa, .events = POLLIN }, { .fd = fb, .events = POLLIN } };
	while (!stop) {
		uint64_t now = now_ns();
		uint64_t next_due = UINT64_MAX;
		for (int i = 0; i < 2; i++) {
			send_due(&dirs[i], now);
			if (dirs[i].head && dirs[i].head->due_ns < next_due)
				next_due = dirs[i].head->due_ns;
		}
		struct timespec timeout, *tp = NULL;
		if (next_due != UINT64_MAX) {
			uint64_t wait = next_due > now ? next_due - now : 0;
			timeout.tv_sec = (time_t)(wait / 1000000000ull);
			timeout.tv_nsec = (long)(wait % 1000000000ull);
			tp = &timeout;
		}
		int r = ppoll(pfd, 2, tp, NULL);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			die("ppoll", NULL);
		}
		if (pfd[0].revents & POLLIN)
			receive_all(&dirs[0], buf);
		if (pfd[1].revents & POLLIN)
			receive_all(&dirs[1], buf);
	}
	print_stats(dirs, 2);
	return 0;
}
