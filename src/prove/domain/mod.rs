//! The analyser's abstract domain: intervals with an excluded constant ([`itv`]), pointer
//! target sets, and environments partitioned by key variables ([`state`]).

pub mod itv;
pub mod state;
