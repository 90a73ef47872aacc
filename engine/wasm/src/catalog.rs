//! What the site needs to know before it runs anything: the trace schema, the key registry,
//! the counter names ([`catalog_json`]), and what one scenario file says ([`scenario_json`]):
//! its title, summary, variants, and the value every key takes for each host once a variant
//! and the page's overrides are applied, with where that value came from.
//!
//! The layering in [`scenario_json`] is the one `Scenario::config` applies (defaults of the
//! kernel profile, the file, the file's `[host.NAME]` tables, the variant, the sets, later
//! wins); a test checks the two agree on every key the configuration exposes by name.

use std::collections::BTreeMap;

use serde::Serialize;

use sendpath_core::include::uapi::linux::snmp::Mib;
use sendpath_core::scenario::keys::{self, DefaultCtx, Value, KEYS};
use sendpath_core::scenario::profile::Kernel;
use sendpath_core::scenario::{parse_set, Scenario, LOCALHOST, RECEIVER, SENDER};

/// Trace schema, key registry and counter names, as one JSON document.
pub fn catalog_json() -> String {
    serde_json::json!({
        "trace": sendpath_core::trace::schema(),
        "keys": keys::keys_json(),
        "counters": Mib::ALL.iter().map(|m| m.name()).collect::<Vec<_>>(),
    })
    .to_string()
}

/// One variant of a scenario as the site lists it.
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct VariantInfo {
    pub name: String,
    pub label: String,
    /// `["HOST:key" or "key", value]`, in file order.
    pub values: Vec<(String, String)>,
}

/// Where a key's value came from.
#[derive(Clone, Copy, Serialize, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    Default,
    File,
    Variant,
    Set,
}

/// The value a key takes in a resolved scenario.
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct KeyValue {
    /// Value for each host, in host order (one entry when the key is not per host).
    pub values: Vec<String>,
    /// Where each host's value came from.
    pub origins: Vec<Origin>,
    /// The kernel profile's default (on this topology).
    pub default: String,
    /// The key does not exist in the chosen kernel (it is ignored, with a warning).
    pub absent: bool,
}

/// What a scenario says, with a variant and overrides applied ([`scenario_json`]).
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ScenarioInfo {
    pub title: String,
    pub summary: String,
    pub variants: Vec<VariantInfo>,
    /// The kernel profile in effect.
    pub kernel: String,
    /// Host names of the topology, in index order.
    pub hosts: Vec<String>,
    pub keys: BTreeMap<String, KeyValue>,
}

/// What a scenario says, with `variant` and `sets` applied: see the module's header. Errors
/// name the file and the key, as the engine reports them.
pub fn scenario_json(
    source: &str,
    file: &str,
    variant: Option<&str>,
    sets: &[String],
) -> Result<String, String> {
    let sc = Scenario::parse(source, file).map_err(|e| e.to_string())?;
    // Validate exactly as a run would (unknown variant, hosts, bad sets).
    sc.config(variant, sets).map_err(|e| e.to_string())?;
    let mut layers: Vec<(Option<String>, String, Value, Origin)> = Vec::new();
    for (k, v) in &sc.global {
        layers.push((None, k.clone(), v.clone(), Origin::File));
    }
    for (h, vals) in &sc.per_host {
        for (k, v) in vals {
            layers.push((Some(h.clone()), k.clone(), v.clone(), Origin::File));
        }
    }
    if let Some(name) = variant {
        let v = sc.variant(name).expect("config() accepted the variant");
        for (h, k, val) in &v.values {
            layers.push((h.clone(), k.clone(), val.clone(), Origin::Variant));
        }
    }
    for s in sets {
        let (h, k, v) = parse_set(file, s).map_err(|e| e.to_string())?;
        layers.push((h, k, v, Origin::Set));
    }
    let last_global = |key: &str| {
        layers
            .iter()
            .rev()
            .find(|(h, k, _, _)| h.is_none() && k == key)
            .map(|(_, _, v, _)| v.render())
    };
    let kernel = Kernel::parse(&last_global("kernel").unwrap_or_else(|| "6.18".into()))
        .expect("config() accepted the kernel");
    let loopback = last_global("link.kind").is_some_and(|k| k == "loopback");
    let hosts: Vec<&str> = if loopback {
        vec![LOCALHOST]
    } else {
        vec![SENDER, RECEIVER]
    };
    let profile = kernel.profile();
    let ctx = DefaultCtx {
        profile: &profile,
        loopback,
    };
    let mut out = BTreeMap::new();
    for def in KEYS {
        let default = (def.default)(&ctx).render();
        let mut values = Vec::new();
        let mut origins = Vec::new();
        let host_list: Vec<Option<&str>> = if def.per_host {
            hosts.iter().map(|h| Some(*h)).collect()
        } else {
            vec![None]
        };
        for host in host_list {
            let mut value = default.clone();
            let mut origin = Origin::Default;
            for (h, k, v, o) in &layers {
                if k != def.name {
                    continue;
                }
                if let (Some(h), Some(host)) = (h.as_deref(), host) {
                    if h != host {
                        continue;
                    }
                }
                value = v.render();
                origin = *o;
            }
            values.push(value);
            origins.push(origin);
        }
        out.insert(
            def.name.to_string(),
            KeyValue {
                values,
                origins,
                default,
                absent: !keys::exists_in(def, kernel),
            },
        );
    }
    let info = ScenarioInfo {
        title: sc.title.clone(),
        summary: sc.summary.trim().to_string(),
        variants: sc
            .variants
            .iter()
            .map(|v| VariantInfo {
                name: v.name.clone(),
                label: v.label.clone(),
                values: v
                    .values
                    .iter()
                    .map(|(h, k, val)| {
                        let key = match h {
                            Some(h) => format!("{h}:{k}"),
                            None => k.clone(),
                        };
                        (key, val.render())
                    })
                    .collect(),
            })
            .collect(),
        kernel: kernel.name().to_string(),
        hosts: hosts.iter().map(|h| h.to_string()).collect(),
        keys: out,
    };
    serde_json::to_string(&info).map_err(|e| format!("cannot encode the scenario: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TSO: &str = include_str!("../../../scenarios/tso-autosizing.toml");
    const AUTOCORKING: &str = include_str!("../../../scenarios/autocorking.toml");

    fn info(src: &str, variant: Option<&str>, sets: &[&str]) -> serde_json::Value {
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        serde_json::from_str(&scenario_json(src, "f.toml", variant, &sets).unwrap()).unwrap()
    }

    #[test]
    fn the_catalog_lists_every_key_kind_and_counter() {
        let c: serde_json::Value = serde_json::from_str(&catalog_json()).unwrap();
        assert_eq!(c["keys"]["keys"].as_array().unwrap().len(), KEYS.len());
        assert_eq!(
            c["trace"]["kinds"].as_array().unwrap().len(),
            sendpath_core::trace::KINDS.len()
        );
        assert_eq!(c["counters"].as_array().unwrap().len(), Mib::ALL.len());
        assert_eq!(c["trace"]["ackReasons"][3], "delayed-ACK timer expired");
    }

    #[test]
    fn values_come_from_the_file_the_host_table_the_variant_and_the_sets_in_that_order() {
        let i = info(TSO, Some("after"), &["net.ipv4.tcp_min_tso_segs=4"]);
        assert_eq!(i["kernel"], "3.19");
        assert_eq!(i["hosts"], serde_json::json!(["sender", "receiver"]));
        let k = &i["keys"]["kernel"];
        assert_eq!(k["values"], serde_json::json!(["3.19"]));
        assert_eq!(k["origins"], serde_json::json!(["variant"]));
        let sndbuf = &i["keys"]["SO_SNDBUF"];
        assert_eq!(sndbuf["values"], serde_json::json!(["1000000", "0"]));
        assert_eq!(sndbuf["origins"], serde_json::json!(["file", "default"]));
        let segs = &i["keys"]["net.ipv4.tcp_min_tso_segs"];
        assert_eq!(segs["values"], serde_json::json!(["4", "4"]));
        assert_eq!(segs["origins"], serde_json::json!(["set", "set"]));
        assert_eq!(i["keys"]["net.core.wmem_max"]["values"][0], "16777216");
    }

    #[test]
    fn a_key_newer_than_the_kernel_is_marked_absent() {
        let i = info(AUTOCORKING, None, &["kernel=3.13"]);
        assert_eq!(i["keys"]["net.ipv4.tcp_autocorking"]["absent"], true);
        let i = info(AUTOCORKING, None, &[]);
        assert_eq!(i["keys"]["net.ipv4.tcp_autocorking"]["absent"], false);
    }

    #[test]
    fn an_out_of_range_set_is_the_engines_error() {
        let err = scenario_json(
            AUTOCORKING,
            "scenarios/autocorking.toml",
            None,
            &["ethtool.tx=0".to_string()],
        )
        .unwrap_err();
        assert!(
            err.starts_with("scenarios/autocorking.toml: ethtool.tx: "),
            "{err}"
        );
    }
}
