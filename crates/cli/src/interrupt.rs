//! Ctrl-C for long searches (`slicewise slp optimize`). The first SIGINT or SIGTERM only sets a
//! flag, which a watcher thread of the search passes on to it (the portfolio then ends as at its
//! time limit and the best program so far is written); the handler then restores the default
//! action, so a second signal ends the process at once.

use std::sync::atomic::{AtomicBool, Ordering};

static HIT: AtomicBool = AtomicBool::new(false);

#[cfg(unix)]
extern "C" fn on_signal(sig: libc::c_int) {
    HIT.store(true, Ordering::SeqCst);
    // SAFETY: `signal` is async-signal-safe (POSIX); resetting this signal to its default action
    // touches no state of the program.
    unsafe {
        libc::signal(sig, libc::SIG_DFL);
    }
}

/// Installs the handler for SIGINT and SIGTERM; `false` where there is none (not unix).
pub fn install() -> bool {
    #[cfg(unix)]
    {
        HIT.store(false, Ordering::SeqCst);
        let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
        // SAFETY: the handler only stores to an atomic and calls `signal`, both
        // async-signal-safe; replacing the default dispositions of SIGINT and SIGTERM affects
        // nothing else in this program.
        unsafe {
            libc::signal(libc::SIGINT, handler);
            libc::signal(libc::SIGTERM, handler);
        }
        true
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// Restores the default actions (a signal from now on ends the process).
pub fn restore() {
    #[cfg(unix)]
    // SAFETY: as in `install`: only the dispositions of the two signals change.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
        libc::signal(libc::SIGTERM, libc::SIG_DFL);
    }
}

/// Whether a signal came since [`install`].
pub fn hit() -> bool {
    HIT.load(Ordering::SeqCst)
}
