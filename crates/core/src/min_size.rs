//! The smallest terminal the inbox draws in: below it, the inbox says so instead of drawing,
//! and `doctor` warns.

/// Smallest usable terminal width, in cells.
pub const MIN_WIDTH: u16 = 40;
/// Smallest usable terminal height, in lines.
pub const MIN_HEIGHT: u16 = 12;
