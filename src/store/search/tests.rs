//! Tests of the search language.

mod brute;
mod brute_tests;
mod compile_tests;
mod highlight_tests;
mod parse_tests;
mod prop_tests;
mod timing;
