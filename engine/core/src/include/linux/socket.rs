//! `include/linux/socket.h`: the `send()` flags the model's `tcp_sendmsg_locked` takes.

/// "End of record": the skb holding the call's last byte takes no later data
/// (`TCP_SKB_CB(skb)->eor`, 4.7+).
pub const MSG_EOR: u32 = 0x80;
/// "Sender will send more": a one-call `TCP_CORK`.
pub const MSG_MORE: u32 = 0x8000;
