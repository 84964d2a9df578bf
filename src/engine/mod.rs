//! The verification engines that drive the SAT solver over the encoded program.

pub mod eog;
