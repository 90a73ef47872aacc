//! Random scenarios: no panic, and the invariants hold after every event. A failure prints
//! the seed (and the `--set` list) that reproduces it: `PROPTEST_SEED=<seed> cargo test`.

use std::panic::{catch_unwind, AssertUnwindSafe};

use sendpath_core::include::uapi::linux::snmp::Mib;
use sendpath_core::scenario::Scenario;
use sendpath_core::sim::world::World;
use sendpath_core::trace::Trace;

/// splitmix64, so a case is reproducible from its seed alone.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len() as u64) as usize]
    }
}

/// A random configuration, as `--set` overrides of a minimal scenario: every value within the
/// key's range.
fn random_sets(r: &mut Rng) -> Vec<String> {
    let mut s = Vec::new();
    let kernel = r.pick(&["3.13", "3.14", "3.18", "3.19", "4.4", "6.18"]);
    s.push(format!("kernel={kernel}"));
    s.push(format!("sim.seed={}", r.below(1000)));
    s.push(format!("sim.duration_ms={}", 2 + r.below(15)));
    s.push(format!("sim.hz={}", r.pick(&["100", "250", "300", "1000"])));
    let loopback = r.below(5) == 0;
    if loopback {
        s.push("link.kind=loopback".into());
    } else {
        s.push(format!(
            "link.rate_mbit={}",
            [10, 100, 1000, 10_000, 40_000][r.below(5) as usize]
        ));
        s.push(format!("link.delay_us={}", r.below(2000)));
        s.push(format!("link.mtu={}", r.pick(&["1500", "9000", "576"])));
        s.push(format!(
            "tc.qdisc={}",
            r.pick(&["default", "pfifo_fast", "fq", "fq_codel", "noqueue"])
        ));
        s.push(format!("link.txqueuelen={}", 1 + r.below(2000)));
        s.push(format!("ethtool.tx={}", 1 + r.below(1024)));
        s.push(format!("ethtool.tso={}", r.below(2)));
        s.push(format!("ethtool.gso={}", r.below(2)));
        s.push(format!("ethtool.tx-usecs={}", r.below(200)));
        s.push(format!("ethtool.tx-frames={}", r.below(64)));
        s.push(format!("bql.enabled={}", r.below(2)));
        if r.below(4) == 0 {
            // A veth pair: the rate, delay, ring and BQL above do not apply; the qdisc does.
            s.push("link.kind=veth".into());
        }
    }
    s.push(format!(
        "net.ipv4.tcp_limit_output_bytes={}",
        r.below(4 << 20)
    ));
    s.push(format!("net.ipv4.tcp_min_tso_segs={}", 1 + r.below(10)));
    s.push(format!("net.ipv4.tcp_tso_win_divisor={}", r.below(8)));
    s.push(format!("net.ipv4.tcp_slow_start_after_idle={}", r.below(2)));
    s.push(format!(
        "net.ipv4.tcp_congestion_control={}",
        r.pick(&["cubic", "reno"])
    ));
    s.push(format!("net.ipv4.tcp_timestamps={}", r.below(3)));
    if kernel != "3.13" {
        s.push(format!("net.ipv4.tcp_autocorking={}", r.below(2)));
    }
    if r.below(2) == 0 {
        s.push(format!(
            "net.ipv4.tcp_notsent_lowat={}",
            1 + r.below(1 << 20)
        ));
    }
    let wmem = 4096 + r.below(1 << 20);
    s.push(format!(
        "net.ipv4.tcp_wmem=4096 {} {}",
        wmem,
        wmem + r.below(8 << 20)
    ));
    s.push(format!("TCP_NODELAY={}", r.below(2)));
    s.push(format!("TCP_CORK={}", u64::from(r.below(6) == 0)));
    s.push(format!("TCP_QUICKACK={}", r.below(2)));
    if r.below(3) == 0 {
        s.push(format!("SO_SNDBUF={}", r.below(1 << 20)));
    }
    if r.below(3) == 0 {
        s.push(format!("SO_RCVBUF={}", r.below(1 << 20)));
    }
    s.push(format!("cpu.cores={}", 1 + r.below(8)));
    if r.below(3) == 0 {
        s.push("app.kind=pingpong".into());
        let send = 1 + r.below(5000);
        s.push(format!("app.send_bytes={send}"));
        s.push(format!("app.n_chunk={}", 1 + r.below(send.min(50))));
        s.push(format!("app.rounds={}", 1 + r.below(5)));
        s.push(format!("app.msg_more={}", r.below(2)));
        s.push(format!("app.cork={}", r.below(2)));
    } else {
        s.push(format!("app.flows={}", 1 + r.below(6)));
        s.push(format!("app.write_size_bytes={}", 1 + r.below(200_000)));
        s.push(format!("app.bytes={}", r.below(300_000)));
        s.push(format!(
            "app.interval_us={}",
            [0, 0, 1, 50, 1000][r.below(5) as usize]
        ));
        s.push(format!("app.read_size_bytes={}", 1 + r.below(200_000)));
    }
    s
}

fn check_case(seed: u64) -> Result<(), String> {
    let mut r = Rng(seed);
    let sets = random_sets(&mut r);
    let src = "title = \"random\"\n";
    let cfg = Scenario::parse(src, "random.toml")
        .and_then(|sc| sc.config(None, &sets))
        .map_err(|e| {
            format!("seed {seed}: valid random values were rejected: {e}\n  sets: {sets:?}")
        })?;
    let result = catch_unwind(AssertUnwindSafe(|| {
        let mut w = World::new(cfg, Trace::new(false, 0));
        let mut last: Vec<Vec<u64>> = w.hosts.iter().map(|_| vec![0; Mib::ALL.len()]).collect();
        let mut steps = 0u64;
        while w.step() {
            steps += 1;
            w.check_invariants();
            for (h, host) in w.hosts.iter().enumerate() {
                for (i, m) in Mib::ALL.iter().enumerate() {
                    let v = host.mib.get(*m);
                    assert!(v >= last[h][i], "counter {} decreased", m.name());
                    last[h][i] = v;
                }
            }
            assert!(steps < 5_000_000, "runaway simulation");
            if w.finished() {
                break;
            }
        }
    }));
    result.map_err(|e| {
        let msg = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        format!("seed {seed} failed: {msg}\n  reproduce: PROPTEST_SEED={seed}\n  sets: {sets:?}")
    })
}

#[test]
fn a_thousand_random_scenarios_run_without_panic_and_keep_every_invariant() {
    let cases: u64 = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    if let Some(seed) = std::env::var("PROPTEST_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        check_case(seed).unwrap();
        return;
    }
    // A fresh base every CI run (printed), so the cases explore; any failure prints its seed.
    let base: u64 = std::env::var("PROPTEST_BASE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_secs()
        });
    eprintln!("property cases {cases}, base seed {base}");
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let failures: Vec<String> = (0..cases)
        .filter_map(|i| check_case(base.wrapping_add(i)).err())
        .collect();
    std::panic::set_hook(prev);
    assert!(
        failures.is_empty(),
        "{} of {cases} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_parser_survives_random_and_mangled_input() {
    let files: Vec<String> =
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios"))
            .unwrap()
            .filter_map(|e| std::fs::read_to_string(e.unwrap().path()).ok())
            .collect();
    let mut r = Rng(7);
    for i in 0..3000u64 {
        let input: String = match i % 3 {
            // Random bytes, lossily decoded.
            0 => {
                let n = r.below(400) as usize;
                let bytes: Vec<u8> = (0..n).map(|_| r.below(256) as u8).collect();
                String::from_utf8_lossy(&bytes).into_owned()
            }
            // A real scenario with a slice cut out or duplicated.
            1 => {
                let f = &files[r.below(files.len() as u64) as usize];
                let b = f.as_bytes();
                let a = r.below(b.len() as u64) as usize;
                let z = (a + r.below(200) as usize).min(b.len());
                let mut v = b[..a].to_vec();
                if r.below(2) == 0 {
                    v.extend_from_slice(&b[a..z]);
                }
                v.extend_from_slice(&b[z..]);
                String::from_utf8_lossy(&v).into_owned()
            }
            // Valid structure, hostile values.
            _ => format!(
                "title = \"t\"\n[{}]\n{} = {}\n",
                r.pick(&[
                    "sysctl",
                    "link",
                    "socket",
                    "app",
                    "tc",
                    "ethtool",
                    "host.sender",
                    "variants.x",
                    "nonsense"
                ]),
                r.pick(&[
                    "\"net.ipv4.tcp_autocorking\"",
                    "rate_mbit",
                    "TCP_NODELAY",
                    "flows",
                    "qdisc",
                    "tx",
                    "x"
                ]),
                r.pick(&[
                    "-1",
                    "99999999999999999999",
                    "\"str\"",
                    "1.5",
                    "[1,2,3]",
                    "{a=1}",
                    "true",
                    "0",
                    "2"
                ]),
            ),
        };
        // Must return Ok or a named error; never panic.
        if let Ok(sc) = Scenario::parse(&input, "fuzz.toml") {
            let _ = sc.config(None, &[]);
            let set = format!(
                "{}={}",
                r.pick(&["link.rate_mbit", "kernel", "sender:TCP_CORK", "x:y", "="]),
                r.below(1 << 40)
            );
            let _ = sc.config(None, &[set]);
        }
    }
}
