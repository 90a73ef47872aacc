//! `net/sched/`: the packet schedulers. `sch_generic.c` holds the interface every qdisc
//! implements and pfifo_fast; `sch_fq.c`, `sch_fq_codel.c` and `sch_tbf.c` one qdisc each
//! (`sch_fifo.c`'s bfifo is tbf's inner queue); `sch_api.c` picks a device's root qdisc and
//! dispatches to it.

pub mod sch_api;
pub mod sch_fifo;
pub mod sch_fq;
pub mod sch_fq_codel;
pub mod sch_generic;
pub mod sch_tbf;
