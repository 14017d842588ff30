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

/// The dispositions `install` replaced (SIGINT, SIGTERM), for `restore`.
#[cfg(unix)]
static PREV: [std::sync::atomic::AtomicUsize; 2] = [std::sync::atomic::AtomicUsize::new(0), std::sync::atomic::AtomicUsize::new(0)];
#[cfg(unix)]
const SIGNALS: [libc::c_int; 2] = [libc::SIGINT, libc::SIGTERM];

/// Installs the handler for SIGINT and SIGTERM; `false` where there is none (not unix). A
/// signal that was ignored when the program started stays ignored (a shell starts background
/// jobs with SIGINT ignored, so that Ctrl-C at the terminal does not reach them).
pub fn install() -> bool {
    #[cfg(unix)]
    {
        HIT.store(false, Ordering::SeqCst);
        let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
        for (i, &sig) in SIGNALS.iter().enumerate() {
            // SAFETY: the handler only stores to an atomic and calls `signal`, both
            // async-signal-safe; only the disposition of this signal changes, and an ignored
            // signal is put back at once.
            let prev = unsafe { libc::signal(sig, handler) };
            if prev == libc::SIG_IGN {
                // SAFETY: as above.
                unsafe {
                    libc::signal(sig, libc::SIG_IGN);
                }
            }
            PREV[i].store(if prev == libc::SIG_ERR { libc::SIG_DFL } else { prev }, Ordering::SeqCst);
        }
        true
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// Puts back the dispositions `install` found (a signal from now on acts as it did before).
pub fn restore() {
    #[cfg(unix)]
    for (i, &sig) in SIGNALS.iter().enumerate() {
        // SAFETY: as in `install`: only the disposition of this signal changes, back to one it
        // had.
        unsafe {
            libc::signal(sig, PREV[i].load(Ordering::SeqCst));
        }
    }
}

/// Whether a signal came since [`install`].
pub fn hit() -> bool {
    HIT.load(Ordering::SeqCst)
}
