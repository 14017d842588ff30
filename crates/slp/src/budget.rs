//! Time budgets given in seconds: one check for every front (CLI, Python, the library's entry
//! points), so that a huge or non-finite number is an error with a message rather than a panic
//! of `Duration::from_secs_f64` or of `Instant + Duration`.

use std::time::Duration;

/// The largest time budget accepted, in seconds (about 31.7 years): far beyond any search,
/// and small enough that `Instant::now()` plus it never overflows.
pub const MAX_SECONDS: f64 = 1e9;

/// `value` seconds as a [`Duration`], or an error naming `name` when the value is negative,
/// not a number, infinite or above [`MAX_SECONDS`].
pub fn seconds(name: &str, value: f64) -> Result<Duration, String> {
    if value.is_finite() && (0.0..=MAX_SECONDS).contains(&value) {
        Ok(Duration::from_secs_f64(value))
    } else {
        Err(format!("{name} must be a non-negative number of seconds, at most {MAX_SECONDS:e} (about 31 years); got {value:?}"))
    }
}

/// [`seconds`] for an optional budget.
pub fn optional_seconds(name: &str, value: Option<f64>) -> Result<Option<Duration>, String> {
    value.map(|v| seconds(name, v)).transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_and_non_finite_budgets_are_errors() {
        assert_eq!(seconds("t", 2.5), Ok(Duration::from_millis(2500)));
        assert_eq!(seconds("t", MAX_SECONDS), Ok(Duration::from_secs(1_000_000_000)));
        for bad in [-1.0, f64::NAN, f64::INFINITY, 1e30, u64::MAX as f64, MAX_SECONDS * 1.5] {
            let e = seconds("--time-limit", bad).unwrap_err();
            assert!(e.starts_with("--time-limit must be a non-negative number of seconds, at most 1e9"), "{e}");
        }
        assert_eq!(optional_seconds("t", None), Ok(None));
        // The largest budget still fits an Instant.
        assert!(std::time::Instant::now().checked_add(seconds("t", MAX_SECONDS).unwrap()).is_some());
    }
}
