//! Unit tests of the stateful search's certificate check.
