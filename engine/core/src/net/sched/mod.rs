//! `net/sched/`: the packet schedulers. `sch_generic.c` holds the interface every qdisc
//! implements and pfifo_fast; `sch_fq.c` and `sch_fq_codel.c` one qdisc each; `sch_api.c` picks
//! a device's root qdisc and dispatches to it.

pub mod sch_api;
pub mod sch_fq;
pub mod sch_fq_codel;
pub mod sch_generic;
