//! Unit tests of `update`.
