#!/usr/bin/env python3
"""Attribute perf samples of one CPU to send-path layers (innermost layer on the call chain
wins) and print the time per layer.

    perf script -F comm,cpu,ip,sym -i perf.data | ./breakdown.py HZ_SAMPLING
"""
import collections, sys

# Innermost-first: the first of these found walking from the leaf towards the root decides.
# A sample with one of these anywhere on its chain belongs to software GSO (skb_segment
# allocates and copies headers; those frames would otherwise count as skb_alloc or copy).
GSO = {"skb_segment", "__skb_gso_segment", "tcp_gso_segment", "tcp4_gso_segment",
       "inet_gso_segment", "skb_mac_gso_segment"}

# The contended spinlock's slow path: as the leaf under lock_sock_nested, a wait for the socket.
SPIN_SLOWPATH = {"__pv_queued_spin_lock_slowpath", "native_queued_spin_lock_slowpath",
                 "queued_spin_lock_slowpath"}

LAYERS = [
    # Waking a task (sk_data_ready/sk_write_space): with the woken task's CPU halted, the IPI is
    # an x2APIC write that exits to the hypervisor, and the samples of that interrupts-off
    # section land on the unlock that re-enables interrupts, under these frames.
    ("wake", ("sock_def_readable", "sk_stream_write_space", "__wake_up_sync_key",
              "__wake_up_common", "__wake_up_common_lock", "ttwu_queue_wakelist")),
    ("qdisc", ("pfifo_fast_enqueue", "pfifo_fast_dequeue", "__qdisc_run", "sch_direct_xmit",
               "dequeue_skb", "__dev_xmit_skb", "dev_qdisc_enqueue", "qdisc_pkt_len_init",
               "validate_xmit_skb_list", "validate_xmit_skb", "__netif_schedule",
               "net_tx_action")),
    ("idle", ("default_idle", "do_idle", "cpu_startup_entry", "pv_native_safe_halt",
              "default_idle_call", "cpuidle_idle_call", "arch_cpu_idle", "native_safe_halt")),
    ("skb_free", ("kfree_skb_reason", "__kfree_skb", "consume_skb", "sk_skb_reason_drop",
                  "napi_consume_skb", "skb_release_data", "kfree_skbmem",
                  "skb_release_head_state", "tcp_wfree", "sock_wfree", "__sock_wfree",
                  "skb_defer_free_flush", "napi_skb_cache_put", "skb_free_head",
                  "skb_attempt_defer_free", "__napi_kfree_skb", "kfree_skb_list_reason")),
    ("rtx_clean", ("tcp_clean_rtx_queue", "tcp_rtx_queue_unlink_and_free")),
    ("tcp_ack", ("tcp_ack",)),
    ("ack_xmit", ("tcp_send_ack", "__tcp_send_ack", "tcp_send_delayed_ack",
                  "__tcp_ack_snd_check")),
    ("rx_tcp", ("tcp_v4_rcv", "tcp_rcv_established", "tcp_v4_do_rcv", "tcp_data_queue",
                "tcp_queue_rcv", "tcp_event_data_recv")),
    ("rx_ip", ("ip_rcv", "ip_list_rcv", "ip_rcv_finish", "ip_local_deliver",
               "ip_local_deliver_finish", "ip_protocol_deliver_rcu", "ip_sublist_rcv")),
    ("rx_dev", ("__netif_receive_skb", "__netif_receive_skb_core", "process_backlog",
                "net_rx_action", "__napi_poll", "netif_receive_skb",
                "__netif_receive_skb_list_core", "netif_receive_skb_list_internal",
                "napi_gro_receive", "gro_normal_list")),
    ("irq", ("handle_softirqs", "irq_exit_rcu", "sysvec_call_function_single",
             "__sysvec_call_function_single", "asm_sysvec_call_function_single",
             "generic_smp_call_function_single_interrupt", "__flush_smp_call_function_queue",
             "__do_softirq", "do_softirq", "__local_bh_enable_ip", "rps_trigger_softirq",
             "sysvec_apic_timer_interrupt", "asm_sysvec_apic_timer_interrupt")),
    ("sched", ("__schedule", "schedule", "try_to_wake_up", "sk_stream_wait_memory",
               "sk_wait_data", "schedule_timeout")),
    ("driver", ("veth_xmit", "loopback_xmit", "dummy_xmit")),
    ("dev", ("__dev_queue_xmit", "dev_queue_xmit", "neigh_hh_output", "ip_finish_output2")),
    ("ip", ("__ip_queue_xmit", "ip_queue_xmit", "ip_output", "ip_finish_output",
            "ip_local_out")),
    ("tcp_transmit", ("__tcp_transmit_skb", "tcp_transmit_skb")),
    ("tcp_write_xmit", ("tcp_write_xmit", "tcp_tso_should_defer", "tso_fragment",
                        "tcp_small_queue_check", "tcp_event_new_data_sent")),
    ("tcp_push", ("__tcp_push_pending_frames", "tcp_push", "tcp_push_one")),
    ("copy", ("_copy_from_iter", "skb_copy_to_page_nocache", "skb_do_copy_data_nocache",
              "copy_user_generic", "rep_movs_alternative", "_copy_from_user",
              "csum_and_copy_from_iter", "skb_copy_datagram_iter", "_copy_to_iter",
              "__skb_datagram_iter", "simple_copy_to_iter")),
    ("skb_alloc", ("tcp_stream_alloc_skb", "sk_stream_alloc_skb", "__alloc_skb",
                   "skb_page_frag_refill", "sk_page_frag_refill")),
    ("recvmsg", ("tcp_recvmsg_locked", "tcp_recvmsg", "tcp_cleanup_rbuf", "inet_recvmsg")),
    ("sendmsg", ("tcp_sendmsg_locked", "tcp_sendmsg", "release_sock", "lock_sock_nested",
                 "tcp_release_cb", "inet_sendmsg")),
    ("syscall", ("do_syscall_64", "entry_SYSCALL_64", "entry_SYSCALL_64_after_hwframe",
                 "vfs_write", "ksys_write", "sock_write_iter", "vfs_read", "ksys_read",
                 "sock_read_iter", "__x64_sys_write", "__x64_sys_read",
                 "syscall_exit_to_user_mode", "x64_sys_call")),
]

def main():
    per_sample_s = 1.0 / float(sys.argv[1])
    comm_want = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] != "-" else None
    comms_ok = set(sys.argv[3].split(",")) if len(sys.argv) > 3 and sys.argv[3] else None
    t = collections.Counter()
    chain, comm = [], None
    def flush():
        if comm is None or (comm_want and comm != comm_want):
            return
        if comms_ok and not any(comm.startswith(c) for c in comms_ok):
            return
        layer = "other_kernel"
        if chain and not any(s.startswith("[k]") for s in chain[:1]) and chain[0] == "user":
            layer = "user"
        if GSO.intersection(chain):
            t["gso"] += 1
            return
        if chain and chain[0] in SPIN_SLOWPATH and "lock_sock_nested" in chain[1:3]:
            # lock_sock spinning on sk_lock.slock while a softirq on the other CPU holds it
            # (bh_lock_sock): the engine models that wait (bh_locked_until_ns), not as a cost.
            t["sock_lock_spin"] += 1
            return
        for sym in chain:
            hit = next((name for name, syms in LAYERS if sym in syms), None)
            if hit:
                layer = hit
                break
        t[layer] += 1
    for line in sys.stdin:
        if not line.strip():
            flush(); chain, comm = [], None
            continue
        if not line.startswith((" ", "\t")):
            comm = line.split()[0]
            chain = []
            continue
        parts = line.split()
        sym = parts[1].split("+")[0] if len(parts) > 1 else "?"
        if sym == "[unknown]" or "libc" in line or "tcp_stream" in line.split("(")[-1]:
            if not chain:
                chain.append("user")
            continue
        chain.append(sym)
    flush()
    t.pop("idle", None)
    total = sum(t.values())
    if len(sys.argv) > 4:
        import json
        json.dump({k: v * per_sample_s for k, v in t.items()}, open(sys.argv[4], "w"))
    for k, v in t.most_common():
        print("%-14s %8.4f s  %5.1f%%" % (k, v * per_sample_s, 100 * v / total))
    print("%-14s %8.4f s" % ("total", total * per_sample_s))

main()
