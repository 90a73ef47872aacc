//! The CPU model: cores that are busy until some time.
//!
//! A host has N cores. The world charges an operation to a core with [`Cpu::charge`]: the work
//! starts when both the event and the core are ready and ends `cost_ns` later. A workload that
//! needs more CPU than the host has therefore falls behind its events: it becomes CPU-bound, as
//! the autocorking commit's 128-byte writes are. Utilization is the busy time over the run
//! (`perf stat`'s "CPUs utilized").
//!
//! What each operation costs is [`CpuCosts`] (`crate::scenario::cpu_costs`), a table of the
//! scenario, not of this model.

use crate::scenario::cpu_costs::CpuCosts;

/// One core: busy until some time, and how long it has been busy in total.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Core {
    pub busy_until_ns: u64,
    pub busy_total_ns: u64,
}

/// A host's CPUs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cpu {
    pub costs: CpuCosts,
    cores: Vec<Core>,
}

impl Cpu {
    pub fn new(cores: usize, costs: CpuCosts) -> Cpu {
        assert!(cores >= 1, "a host needs at least one CPU");
        Cpu {
            costs,
            cores: vec![Core::default(); cores],
        }
    }

    pub fn cores(&self) -> usize {
        self.cores.len()
    }

    pub fn core(&self, core: usize) -> &Core {
        &self.cores[core]
    }

    /// Run `cost_ns` of work on `core`, ready at `now_ns`: it starts when the core is free and
    /// ends `cost_ns` later. Returns (start, end).
    pub fn charge(&mut self, core: usize, now_ns: u64, cost_ns: u64) -> (u64, u64) {
        let c = &mut self.cores[core];
        let start = now_ns.max(c.busy_until_ns);
        let end = start + cost_ns;
        c.busy_until_ns = end;
        c.busy_total_ns += cost_ns;
        (start, end)
    }

    /// The core that can start work soonest at `now_ns` (lowest index on ties): where the
    /// scheduler would wake a task that has no core of its own.
    pub fn first_free_core(&self, now_ns: u64) -> usize {
        let mut best = 0;
        let mut best_t = u64::MAX;
        for (i, c) in self.cores.iter().enumerate() {
            let t = c.busy_until_ns.max(now_ns);
            if t < best_t {
                best_t = t;
                best = i;
            }
        }
        best
    }

    /// Busy core-seconds over `elapsed_ns`, summed over cores ("CPUs utilized").
    pub fn utilization(&self, elapsed_ns: u64) -> f64 {
        if elapsed_ns == 0 {
            return 0.0;
        }
        let busy: u64 = self
            .cores
            .iter()
            .map(|c| c.busy_total_ns.min(elapsed_ns))
            .sum();
        busy as f64 / elapsed_ns as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_on_a_busy_core_waits_for_it() {
        let mut cpu = Cpu::new(1, CpuCosts::FREE);
        assert_eq!(cpu.charge(0, 100, 50), (100, 150));
        assert_eq!(
            cpu.charge(0, 120, 50),
            (150, 200),
            "queued behind the first"
        );
        assert_eq!(
            cpu.charge(0, 500, 10),
            (500, 510),
            "an idle core starts at once"
        );
        assert_eq!(cpu.core(0).busy_total_ns, 110);
    }

    #[test]
    fn a_workload_needing_more_cpu_than_the_host_has_falls_behind() {
        // 1000 writes arriving every 500 ns, each costing 800 ns: the core is the bottleneck
        // and the last write ends at 1000 * 800 ns, not 1000 * 500 ns.
        let mut cpu = Cpu::new(1, CpuCosts::FREE);
        let mut end = 0;
        for i in 0..1000 {
            end = cpu.charge(0, i * 500, 800).1;
        }
        assert_eq!(end, 800_000);
        assert!((cpu.utilization(800_000) - 1.0).abs() < 1e-9);
    }

    #[test]
    fn utilization_sums_cores_like_perf_stat() {
        let mut cpu = Cpu::new(4, CpuCosts::FREE);
        cpu.charge(0, 0, 1_000);
        cpu.charge(1, 0, 500);
        assert!((cpu.utilization(1_000) - 1.5).abs() < 1e-9);
        assert_eq!(cpu.first_free_core(0), 2);
    }

    #[test]
    fn the_measured_write_cost_of_128_bytes_is_syscall_plus_sendmsg_plus_copy() {
        let c = CpuCosts::MEASURED_6_18_VM;
        // 100 + 190 + 10 + 128 * 0.051 = 306 ns.
        assert_eq!(c.write_call_ns(128), 306);
        assert_eq!(
            c.scaled(1, 2).write_call_ns(128),
            50 + 95 + 5 + 128 * 25 / 1000
        );
    }
}
