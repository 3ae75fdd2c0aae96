//! Compiled SQL: its shape, its errors, and what it refuses to pass to FTS5.
