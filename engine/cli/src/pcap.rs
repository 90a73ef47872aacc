//! `sendpath run FILE --pcap OUT`: the run's packets as a pcapng file
//! (`sendpath_core::pcap`), with `--pcap-frames tso|wire` and `--pcap-snaplen BYTES`.

use std::io::Write;

use sendpath_core::pcap::{Frames, WriteOptions};
use sendpath_core::RunOutput;

/// The `--pcap*` options of `run`.
#[derive(Debug, Default)]
pub struct PcapArgs {
    /// Where to write the file; `-` is standard output.
    pub out: Option<String>,
    pub write: WriteOptions,
}

impl PcapArgs {
    /// Take one `--pcap*` option.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "--pcap" => self.out = Some(value.to_string()),
            "--pcap-frames" => self.write.frames = Frames::parse(value)?,
            "--pcap-snaplen" => {
                self.write.snaplen = value.parse().map_err(|_| {
                    format!("not a number of bytes: {value} (0 keeps whole frames)")
                })?;
                if self.write.snaplen != 0 && self.write.snaplen < 54 {
                    return Err(format!(
                        "{value} B would cut the 54 B of Ethernet, IPv4 and TCP headers; 0 keeps whole frames"
                    ));
                }
            }
            _ => unreachable!("not a --pcap option: {name}"),
        }
        Ok(())
    }

    /// Write the capture of `out` to the file asked for; `-` writes it to `stdout` and returns
    /// true. Without `--pcap`, or without a capture, writes nothing.
    pub fn write(&self, out: &RunOutput, stdout: &mut impl Write) -> Result<bool, crate::Fail> {
        let (Some(path), Some(pcap)) = (&self.out, &out.pcap) else {
            return Ok(false);
        };
        let bytes = pcap.pcapng(&self.write);
        if path == "-" {
            stdout.write_all(&bytes)?;
            return Ok(true);
        }
        std::fs::write(path, &bytes)
            .map_err(|e| crate::Fail::Input(format!("{path}: cannot write the pcap: {e}")))?;
        Ok(false)
    }
}
