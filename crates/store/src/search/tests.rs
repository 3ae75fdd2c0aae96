//! Tests of searches compiled over a store.

mod brute;
mod brute_tests;
mod compile_tests;
mod index_tests;
