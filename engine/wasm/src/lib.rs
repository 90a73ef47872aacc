//! wasm-bindgen surface of sendpath-core: the engine as the site's Web Worker sees it.
//!
//! This crate is the whole wasm boundary, and it stays thin: each export converts arguments,
//! calls one `sendpath_core` function and converts the answer. No simulation logic lives here.
//! The only caller is `web/src/engine/worker.ts` (through `web/src/engine/serve.ts`); the
//! call chain is documented at the top of `web/src/engine/bridge.ts`.
//!
//! Values that cross the boundary as JSON have TypeScript types generated from their Rust
//! types by ts-rs (feature `ts`, see [`export_typescript_types`]), committed in
//! `web/src/engine/generated/`.

use sendpath_core::skb::{tcp_flags, Packet, ETH_HLEN, IPV4_HLEN, NO_SOCK, TCP_HLEN};
use wasm_bindgen::prelude::*;

/// The engine's version (the Cargo workspace version).
#[wasm_bindgen]
pub fn version() -> String {
    sendpath_core::VERSION.to_string()
}

/// TCP timestamp option bytes (10, padded to 12), present on every segment of a Linux
/// connection with `net.ipv4.tcp_timestamps = 1`.
const TCPOLEN_TSTAMP_ALIGNED: u32 = 12;
/// Payload of a full-sized segment on a 1500-byte MTU with timestamps: 1500 - 20 - 20 - 12.
const FULL_MSS_BYTES: u32 = 1448;

/// Bytes one full-MSS TCP segment occupies on an Ethernet wire, computed by the engine
/// (`sendpath_core::skb::Packet::wire_bytes`): the 1514-byte frame plus preamble, start
/// delimiter, FCS and inter-frame gap, 1538.
///
/// The site's first slice shows this number to prove the wasm engine runs in the worker; it
/// gives way to a scenario run once `sendpath_core::run_source` is available.
#[wasm_bindgen]
pub fn wire_bytes_of_full_mss_frame() -> u32 {
    let hdr_len = ETH_HLEN + IPV4_HLEN + TCP_HLEN + TCPOLEN_TSTAMP_ALIGNED;
    let segment = Packet {
        id: 1,
        orig_skb: 1,
        sk: NO_SOCK,
        src_host: 0,
        dst_host: 1,
        hash: 0,
        priority: 0,
        len: hdr_len + FULL_MSS_BYTES,
        hdr_len,
        truesize: 0,
        gso_segs: 1,
        gso_size: 0,
        tstamp_ns: 0,
        sk_pacing_rate_bps: u64::MAX,
        pure_ack: false,
        seq: 1,
        end_seq: 1 + u64::from(FULL_MSS_BYTES),
        ack_seq: 1,
        window: 65535,
        flags: tcp_flags::ACK,
        sent_ns: 0,
    };
    u32::try_from(segment.wire_bytes()).expect("one frame's wire bytes fit in u32")
}

/// Writes the TypeScript types of every value that crosses the wasm boundary, with the types
/// they depend on, into `cfg`'s export directory (`TS_RS_EXPORT_DIR`, set in
/// `engine/.cargo/config.toml` to `web/src/engine/generated/`).
///
/// A type joins this list when a wasm export starts returning it.
#[cfg(feature = "ts")]
pub fn export_typescript_types(cfg: &ts_rs::Config) -> Result<(), ts_rs::ExportError> {
    use ts_rs::TS;
    sendpath_core::RunResult::export_all(cfg)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_is_the_workspace_version() {
        assert_eq!(version(), env!("CARGO_PKG_VERSION"));
    }

    #[test]
    fn a_full_mss_frame_occupies_1538_bytes_of_wire() {
        // 1448 + 12 + 20 + 20 + 14 = 1514-byte frame, + 7 preamble + 1 SFD + 4 FCS + 12 IFG.
        assert_eq!(wire_bytes_of_full_mss_frame(), 1538);
    }
}
