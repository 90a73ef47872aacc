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
 *                    [-R RATE_MBIT] [-q QUEUE_PACKETS] [-S]
 * Stops on SIGTERM/SIGINT and prints one JSON line of statistics on stderr.
 *
 * A bottleneck router (-R, -q): each direction serialises frames at RATE_MBIT (Ethernet frame
 * bytes: 14-byte header + IP packet, no preamble/FCS) before the propagation delay, and a frame
 * that finds QUEUE_PACKETS packets waiting for (or in) serialisation is dropped (tail drop, like a
 * router's FIFO). A GSO frame counts as its number of segments.
 *
 * A receiver without GRO (-S): every TCP/IPv4 GSO frame is cut in user space into MSS-sized
 * frames (gso_size from the virtio_net_hdr) with their own IP and TCP headers and full
 * checksums, as a NIC's TSO would put them on the wire; the receiver then sees one skb per
 * segment. With -S, queue limits and drops apply per segment.
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
	uint64_t txdone_ns; /* end of serialisation at the bottleneck rate (= arrival without -R) */
	uint32_t segs;      /* packets this frame stands for (GSO segments) */
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
	/* Bottleneck: frames from qhead on are still waiting for or in serialisation. */
	double ns_per_byte;       /* 0 = no rate */
	uint64_t queue_limit;     /* packets; 0 = none */
	uint64_t link_free_ns;    /* when the serialiser finishes what it holds */
	struct frame *qhead;
	uint64_t inq, max_inq, drops_rate_queue, segmented_frames;
};

static int segment_gso;

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

/* Segments a frame stands for: 1, or the GSO segment count from its virtio_net_hdr. */
static uint32_t gso_segs(const unsigned char *buf, size_t n)
{
	const struct virtio_net_hdr *vh = (const void *)buf;
	if (vh->gso_type == VIRTIO_NET_HDR_GSO_NONE || !vh->gso_size || n <= sizeof(*vh) + vh->hdr_len)
		return 1;
	size_t payload = n - sizeof(*vh) - vh->hdr_len;
	return (uint32_t)((payload + vh->gso_size - 1) / vh->gso_size);
}

/* Forget frames that finished serialisation by NOW: they no longer occupy the router's queue. */
static void advance_queue(struct direction *d, uint64_t now)
{
	while (d->qhead && d->qhead->txdone_ns <= now) {
		d->inq -= d->qhead->segs;
		d->qhead = d->qhead->next;
	}
}

/* Queue one frame of N bytes (virtio_net_hdr included) that arrived at ARRIVAL. */
static void enqueue(struct direction *d, const unsigned char *buf, size_t n, uint64_t arrival, uint32_t segs)
{
	if (d->queued_bytes + (uint64_t)n > d->max_queued_bytes) {
		d->drops_queue_full++;
		return;
	}
	uint64_t txdone = arrival;
	if (d->ns_per_byte > 0) {
		advance_queue(d, arrival);
		if (d->queue_limit && d->inq + segs > d->queue_limit) {
			d->drops_rate_queue += segs;
			return;
		}
		uint64_t start = d->link_free_ns > arrival ? d->link_free_ns : arrival;
		txdone = start + (uint64_t)((double)(n - sizeof(struct virtio_net_hdr)) * d->ns_per_byte);
		d->link_free_ns = txdone;
	}
	struct frame *f = malloc(sizeof(*f) + n);
	if (!f)
		die("malloc", NULL);
	f->next = NULL;
	f->txdone_ns = txdone;
	f->due_ns = txdone + d->delay_ns;
	f->segs = segs;
	f->len = n;
	memcpy(f->data, buf, n);
	if (d->tail)
		d->tail->next = f;
	else
		d->head = f;
	d->tail = f;
	d->queued_bytes += (uint64_t)n;
	if (d->ns_per_byte > 0) {
		if (!d->qhead)
			d->qhead = f;
		d->inq += segs;
		if (d->inq > d->max_inq)
			d->max_inq = d->inq;
	}
}

static uint32_t csum_add(uint32_t sum, const unsigned char *p, size_t len)
{
	while (len > 1) {
		sum += (uint32_t)(p[0] << 8 | p[1]);
		p += 2;
		len -= 2;
	}
	if (len)
		sum += (uint32_t)(p[0] << 8);
	return sum;
}

static uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* Cut a TCP/IPv4 GSO frame into MSS frames with full checksums and queue them. Returns 0 (and
 * queues nothing) for any frame that is not TCP/IPv4 GSO, which the caller queues as it is. */
static int segment_and_enqueue(struct direction *d, const unsigned char *buf, size_t n, uint64_t arrival)
{
	const struct virtio_net_hdr *vh = (const void *)buf;
	size_t vl = sizeof(*vh);
	if ((vh->gso_type & ~VIRTIO_NET_HDR_GSO_ECN) != VIRTIO_NET_HDR_GSO_TCPV4 || !vh->gso_size)
		return 0;
	const unsigned char *eth = buf + vl;
	size_t elen = n - vl;
	if (elen < 14 + 20 || eth[12] != 0x08 || eth[13] != 0x00)
		return 0;
	const unsigned char *ip = eth + 14;
	size_t ihl = (size_t)(ip[0] & 0x0f) * 4;
	if (ip[9] != IPPROTO_TCP || elen < 14 + ihl + 20)
		return 0;
	const unsigned char *tcp = ip + ihl;
	size_t thl = (size_t)(tcp[12] >> 4) * 4;
	size_t hdr = 14 + ihl + thl;
	if (elen < hdr)
		return 0;
	size_t payload = elen - hdr, mss = vh->gso_size;
	uint32_t seq = (uint32_t)tcp[4] << 24 | (uint32_t)tcp[5] << 16 | (uint32_t)tcp[6] << 8 | tcp[7];
	uint16_t ipid = (uint16_t)(ip[4] << 8 | ip[5]);
	static unsigned char out[sizeof(struct virtio_net_hdr) + 65536 + 64];
	size_t off = 0;
	for (uint32_t i = 0; off < payload || (payload == 0 && i == 0); i++) {
		size_t len = payload - off < mss ? payload - off : mss;
		int last = off + len >= payload;
		memset(out, 0, vl); /* no offloads: checksums are complete */
		unsigned char *e = out + vl, *oip = e + 14, *otcp = oip + ihl;
		memcpy(e, eth, hdr);
		memcpy(e + hdr, eth + hdr + off, len);
		size_t tot = ihl + thl + len;
		oip[2] = (unsigned char)(tot >> 8);
		oip[3] = (unsigned char)tot;
		uint16_t id = (uint16_t)(ipid + i);
		oip[4] = (unsigned char)(id >> 8);
		oip[5] = (unsigned char)id;
		oip[10] = oip[11] = 0;
		uint16_t ic = csum_fold(csum_add(0, oip, ihl));
		oip[10] = (unsigned char)(ic >> 8);
		oip[11] = (unsigned char)ic;
		uint32_t s = seq + (uint32_t)off;
		otcp[4] = (unsigned char)(s >> 24);
		otcp[5] = (unsigned char)(s >> 16);
		otcp[6] = (unsigned char)(s >> 8);
		otcp[7] = (unsigned char)s;
		if (i > 0)
			otcp[13] &= (unsigned char)~0x80; /* CWR only on the first segment */
		if (!last)
			otcp[13] &= (unsigned char)~0x09; /* FIN and PSH only on the last */
		otcp[16] = otcp[17] = 0;
		uint32_t sum = csum_add(0, oip + 12, 8); /* pseudo header: addresses */
		sum += IPPROTO_TCP + (uint32_t)(thl + len);
		sum = csum_add(sum, otcp, thl + len);
		uint16_t tc = csum_fold(sum);
		otcp[16] = (unsigned char)(tc >> 8);
		otcp[17] = (unsigned char)tc;
		enqueue(d, out, vl + 14 + tot, arrival, 1);
		off += len;
		if (payload == 0)
			break;
	}
	d->segmented_frames++;
	return 1;
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
		if (segment_gso && segment_and_enqueue(d, buf, (size_t)n, arrival))
			continue;
		enqueue(d, buf, (size_t)n, arrival, gso_segs(buf, (size_t)n));
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
		if (d->qhead == f) { /* cannot happen while due >= txdone, kept for safety */
			d->inq -= f->segs;
			d->qhead = f->next;
		}
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
			"\"drops_queue_full\":%llu,\"send_errors\":%llu,\"drops_bottleneck\":%llu,"
			"\"max_queue_packets\":%llu,\"segmented_frames\":%llu}",
			d[i].from_name, d[i].to_name, (unsigned long long)d[i].delay_ns,
			(unsigned long long)d[i].frames, (unsigned long long)d[i].bytes,
			(unsigned long long)d[i].drops_queue_full, (unsigned long long)d[i].send_errors,
			(unsigned long long)d[i].drops_rate_queue, (unsigned long long)d[i].max_inq,
			(unsigned long long)d[i].segmented_frames);
	fprintf(stderr, "}\n");
}

int main(int argc, char **argv)
{
	const char *a = NULL, *b = NULL;
	long long delay_us = -1, delay_back_us = -1, max_queued = 64ll << 20, queue_limit = 0;
	double rate_mbit = 0;
	int opt;
	while ((opt = getopt(argc, argv, "a:b:d:r:m:R:q:S")) != -1) {
		switch (opt) {
		case 'a': a = optarg; break;
		case 'b': b = optarg; break;
		case 'd': delay_us = atoll(optarg); break;
		case 'r': delay_back_us = atoll(optarg); break;
		case 'm': max_queued = atoll(optarg); break;
		case 'R': rate_mbit = atof(optarg); break;
		case 'q': queue_limit = atoll(optarg); break;
		case 'S': segment_gso = 1; break;
		default:
			fprintf(stderr, "usage: %s -a IFACE -b IFACE -d DELAY_US [-r DELAY_US_B_TO_A] "
					"[-m MAX_QUEUED_BYTES] [-R RATE_MBIT] [-q QUEUE_PACKETS] [-S]\n", argv[0]);
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
	for (int i = 0; i < 2; i++) {
		dirs[i].ns_per_byte = rate_mbit > 0 ? 8000.0 / rate_mbit : 0;
		dirs[i].queue_limit = (uint64_t)queue_limit;
	}
	unsigned char *buf = malloc(FRAME_MAX);
	if (!buf)
		die("malloc", NULL);
	fprintf(stderr, "sp-delayfwd: forwarding %s <-> %s, delay %lld us / %lld us, rate %g Mbit/s, "
			"queue %lld packets, %s\n", a, b, delay_us, delay_back_us, rate_mbit, queue_limit,
		segment_gso ? "GSO frames cut to MSS" : "GSO frames whole");

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
