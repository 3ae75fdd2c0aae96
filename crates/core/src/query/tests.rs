//! Tests of the search language.

mod highlight_tests;
mod parse_tests;
mod prop_tests;
