//! Tests of the search language.

mod compile_tests;
mod highlight_tests;
mod parse_tests;
mod prop_tests;
