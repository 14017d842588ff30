//! Measurement firmware (issue 11, `docs/embedded.md`; built with `--features bench`): for each measured operation, the peak
//! stack (stack painting: the free stack below the caller is filled with a pattern and
//! scanned afterwards) and, on AVR, the exact cycle count from Timer1 (prescaler 1, overflows
//! counted by an interrupt). On Cortex-M, QEMU has no cycle counter: each operation is
//! bracketed by calls of `bench_mark`, and `embedded/cycles.py` counts the instructions between
//! them in QEMU's single-step execution trace and applies the Cortex-M0 cycle model.
//!
//! Long-message cost is the difference of two message lengths (1024 and 2048 bytes), which
//! cancels set-up and finalisation.
//!
//! The data-independence check ([`data_independence`]) hashes several messages of one length
//! (`groestl-256 counting 100`, `… zeros 100`, `… ones 100`, `… random 100`) and times an
//! early-exit comparison on the same messages as its negative control. On AVR the firmware
//! compares the cycle counts itself; on Cortex-M `embedded/cycles.py` compares them in the
//! model. With `--features bench-ct` the image runs only this check (a short trace for
//! `scripts/test-embedded.sh`).
use crate::{out, platform, put_u32};
use core::hint::black_box;
use slicewise_groestl::digest::{FixedOutputReset, Output, OutputSizeUser, Update};
use slicewise_groestl::{Backend as GBackend, Groestl, Groestl256, Groestl512, groestlcoin_hash};
use slicewise_proest::{Backend as PBackend, ProestApe128, ProestOtr128};

/// Bytes of stack painted below the caller's frame.
const PAINT: usize = 8192;
const PATTERN: u8 = 0xA5;
const LONG: usize = 2048;

static mut MSG: [u8; LONG] = [0; LONG];
static mut CT: [u8; LONG + 64] = [0; LONG + 64];
/// The digest's buffer: the caller's, like the message (XBX's `crypto_hash(out, in, inlen)`
/// convention), so that the measured RAM is the hasher's own.
static mut DIGEST: [u8; 64] = [0; 64];

/// Fills `[sp - PAINT, sp - 64)` with the pattern.
#[inline(never)]
fn paint() -> usize {
    let sp = platform::stack_pointer();
    for a in sp - PAINT..sp - 64 {
        // SAFETY: free stack below this frame (64 bytes of margin), not in use by anything.
        unsafe { core::ptr::write_volatile(a as *mut u8, PATTERN) };
    }
    sp
}

/// Bytes below `sp` that were written since `paint` (the lowest non-pattern byte).
#[inline(never)]
fn used(sp: usize) -> usize {
    let mut low = sp - 64;
    for a in (sp - PAINT..sp - 64).rev() {
        // SAFETY: reads the painted region back.
        if unsafe { core::ptr::read_volatile(a as *const u8) } != PATTERN {
            low = a;
        }
    }
    sp - low
}

/// Runs `f` twice: once for its stack (no timer interrupt), once for its cycles (returned).
/// Prints `NAME… ARG: cycles C stack S` (the parts of the name separated by spaces).
fn measure(name: &[&str], arg: usize, mut f: impl FnMut()) -> u32 {
    let sp = paint();
    f();
    let stack = used(sp);
    platform::cycles_start();
    f();
    let cycles = platform::cycles_stop();
    for part in name {
        out(part);
        out(" ");
    }
    put_u32(arg as u32);
    out(": cycles ");
    put_u32(cycles);
    out(" stack ");
    put_u32(stack as u32);
    out("\n");
    cycles
}

/// What the message buffer holds.
#[derive(Clone, Copy)]
enum Fill {
    /// Bytes `7 i + 3` (the default of every measurement).
    Counting,
    /// One byte value everywhere.
    Byte(u8),
    /// A xorshift32 stream from this (non-zero) seed.
    Random(u32),
}

/// The messages of the data-independence check: one length, these contents.
const CLASSES: [(&str, Fill); 4] =
    [("counting", Fill::Counting), ("zeros", Fill::Byte(0x00)), ("ones", Fill::Byte(0xff)), ("random", Fill::Random(0x2545_f491))];

/// Fills the message buffer.
fn set_msg(fill: Fill) {
    let mut x = match fill {
        Fill::Random(seed) => seed,
        _ => 0,
    };
    // SAFETY: single-threaded; no slice from `msg` is alive between measurements.
    unsafe {
        for (i, b) in (*core::ptr::addr_of_mut!(MSG)).iter_mut().enumerate() {
            *b = match fill {
                Fill::Counting => (i * 7 + 3) as u8,
                Fill::Byte(v) => v,
                Fill::Random(_) => {
                    x ^= x << 13;
                    x ^= x >> 17;
                    x ^= x << 5;
                    x as u8
                }
            };
        }
    }
}

fn msg(len: usize) -> &'static [u8] {
    // SAFETY: MSG is only written by `set_msg`, between measurements.
    unsafe { &(&*core::ptr::addr_of!(MSG))[..len] }
}

/// The fixed-size hashers (`Groestl256`, `Groestl512`: what a firmware uses; smaller than the
/// run-time-sized `Groestl`).
trait Hasher: Update + FixedOutputReset + Clone {
    fn on(b: GBackend) -> Self;
}

impl Hasher for Groestl256 {
    fn on(b: GBackend) -> Self {
        Groestl256::with_backend(b).expect("available")
    }
}

impl Hasher for Groestl512 {
    fn on(b: GBackend) -> Self {
        Groestl512::with_backend(b).expect("available")
    }
}

/// A new hasher. Measured on its own (`… new` lines): `with_backend` builds its `Result` in a
/// temporary and copies it out, which takes more stack than hashing itself with `mcu`.
#[inline(never)]
fn new_hasher<H: Hasher>(b: GBackend) -> H {
    H::on(b)
}

/// Hashes `len` bytes of the message with a copy of `fresh` (a hasher as `new_hasher` returns
/// it) into `DIGEST`: the copy lives in this frame, so the hasher object is part of the measured
/// RAM.
#[inline(never)]
fn groestl<H: Hasher>(fresh: &H, len: usize) {
    let mut h = fresh.clone();
    h.update(black_box(msg(len)));
    // SAFETY: DIGEST is only used here, one call at a time.
    let out = unsafe { &mut *core::ptr::addr_of_mut!(DIGEST) };
    let out: &mut Output<H> = (&mut out[..<H as OutputSizeUser>::output_size()]).try_into().expect("digest size");
    h.finalize_into_reset(out);
    black_box(out);
}

/// Length of the messages of the data-independence check (ends in a partial block).
const CT_LEN: usize = 100;

/// Runs `f` on each message of [`CLASSES`] (printed as `BASE CLASS 100`); whether the cycle
/// counts are all equal.
fn same_cycles(base: &str, mut f: impl FnMut()) -> bool {
    let mut cycles = [0; CLASSES.len()];
    for (c, (class, fill)) in cycles.iter_mut().zip(CLASSES) {
        set_msg(fill);
        *c = measure(&[base, class], CT_LEN, &mut f);
    }
    set_msg(Fill::Counting);
    cycles.iter().all(|&c| c == cycles[0])
}

/// The early-exit comparison with zeros of the negative control (the zero message is read to
/// its end, the others stop at their first byte).
#[inline(never)]
fn early_exit(len: usize) {
    black_box(black_box(msg(len)).iter().position(|&b| b != 0));
}

/// The data-independence check of the default Grøstl backend (`mcu` on these chips): Grøstl-256
/// and Grøstl-512 of every message of [`CLASSES`] must take exactly the same cycles, and the
/// negative control must not. AVR is cycle-exact (the `mcu` kernels have no data-dependent
/// branch, and `LPM` takes 3 cycles at every address), so the firmware decides there; QEMU has
/// no cycle counter, so on Cortex-M the lines are compared by `embedded/cycles.py` (the M0
/// cycle model on the executed instructions) and the firmware's verdict is `true`.
fn data_independence() -> bool {
    let g256 = new_hasher::<Groestl256>(GBackend::detect());
    let g512 = new_hasher::<Groestl512>(GBackend::detect());
    let same256 = same_cycles("groestl-256", || groestl(&g256, CT_LEN));
    let same512 = same_cycles("groestl-512", || groestl(&g512, CT_LEN));
    let control = same_cycles("control-early-exit", || early_exit(CT_LEN));
    if !cfg!(target_arch = "avr") {
        out("data-independent timing: compared by embedded/cycles.py\n");
        return true;
    }
    out(if same256 && same512 { "data-independent timing: yes\n" } else { "data-independent timing: NO\n" });
    out(if control { "negative control (early-exit compare): NOT flagged\n" } else { "negative control (early-exit compare): flagged\n" });
    same256 && same512 && !control
}

pub(crate) fn run() -> ! {
    set_msg(Fill::Counting);
    out("bench groestl=");
    out(GBackend::detect().name());
    out(" proest=");
    out(PBackend::detect().name());
    out("\nsize_of Groestl ");
    put_u32(core::mem::size_of::<Groestl>() as u32);
    out(" Groestl256 ");
    put_u32(core::mem::size_of::<Groestl256>() as u32);
    out(" Groestl512 ");
    put_u32(core::mem::size_of::<Groestl512>() as u32);
    out(" ProestOtr128 ");
    put_u32(core::mem::size_of::<ProestOtr128>() as u32);
    out(" ProestApe128 ");
    put_u32(core::mem::size_of::<ProestApe128>() as u32);
    out("\n");
    if cfg!(feature = "bench-ct") {
        let same = data_independence();
        out(if same { "RESULT: PASS\n" } else { "RESULT: FAIL\n" });
        platform::finish(same)
    }
    // Calibration: the measurement's own overhead.
    measure(&["empty"], 0, || black_box(()));
    measure(&["groestl-256-new"], 0, || {
        black_box(new_hasher::<Groestl256>(GBackend::detect()));
    });
    let g256 = new_hasher::<Groestl256>(GBackend::detect());
    for len in [1024, LONG] {
        measure(&["groestl-256"], len, || groestl(&g256, len));
    }
    measure(&["groestl-512-new"], 0, || {
        black_box(new_hasher::<Groestl512>(GBackend::detect()));
    });
    let g512 = new_hasher::<Groestl512>(GBackend::detect());
    for len in [1024, LONG] {
        measure(&["groestl-512"], len, || groestl(&g512, len));
    }
    // The verdict line makes this image a test too (`scripts/test-embedded.sh`, `embedded/run.sh`).
    let same = data_independence();
    // The default's competitor where it exists (not on AVR).
    if GBackend::Portable.is_available() {
        let p256 = new_hasher::<Groestl256>(GBackend::Portable);
        for len in [1024, LONG] {
            measure(&["groestl-256-portable"], len, || groestl(&p256, len));
        }
    }
    measure(&["groestlcoin"], 80, || {
        black_box(groestlcoin_hash(black_box(msg(80))));
    });
    let key = [7u8; 32];
    let otr = ProestOtr128::with_backend(&key, PBackend::detect()).expect("available");
    let ape = ProestApe128::with_backend(&key[..16], PBackend::detect()).expect("available");
    let nonce = [9u8; 32];
    // SAFETY: CT is only used here, one call at a time.
    let ct = unsafe { &mut *core::ptr::addr_of_mut!(CT) };
    for len in [1024, LONG] {
        measure(&["proest128otr-enc"], len, || {
            black_box(otr.encrypt_into(&nonce[..16], &[], black_box(msg(len)), ct)).expect("OTR encryption");
        });
    }
    for len in [1024, LONG] {
        measure(&["proest128ape-enc"], len, || {
            black_box(ape.encrypt_into(&nonce, &[], black_box(msg(len)), ct)).expect("APE encryption");
        });
    }
    out("bench done\n");
    out(if same { "RESULT: PASS\n" } else { "RESULT: FAIL\n" });
    platform::finish(same)
}
