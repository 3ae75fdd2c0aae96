use super::super::*;
