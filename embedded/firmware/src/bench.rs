//! Measurement firmware (issue 11, `docs/embedded.md`; built with `--features bench`): for each measured operation, the peak
//! stack (stack painting: the free stack below the caller is filled with a pattern and
//! scanned afterwards) and, on AVR, the exact cycle count from Timer1 (prescaler 1, overflows
//! counted by an interrupt). On Cortex-M, QEMU has no cycle counter: each operation is
//! bracketed by calls of `bench_mark`, and `embedded/cycles.py` counts the instructions between
//! them in QEMU's single-step execution trace and applies the Cortex-M0 cycle model.
//!
//! Long-message cost is the difference of two message lengths (1024 and 2048 bytes), which
//! cancels set-up and finalisation.
use core::hint::black_box;
use crate::{out, platform, put_u32};
use slicewise_groestl::digest::{FixedOutputReset, Output, Update};
use slicewise_groestl::{Backend as GBackend, Groestl, Groestl256, Groestl512, groestlcoin_hash};
use slicewise_proest::{Backend as PBackend, ProestApe128, ProestOtr128};

/// Bytes of stack painted below the caller's frame.
const PAINT: usize = 8192;
const PATTERN: u8 = 0xA5;
const LONG: usize = 2048;

static mut MSG: [u8; LONG] = [0; LONG];
static mut CT: [u8; LONG + 64] = [0; LONG + 64];
/// The digest buffer of `groestl256_static_out` (a static, like the message).
static mut DIGEST: [u8; 32] = [0; 32];

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
fn measure(name: &str, arg: usize, mut f: impl FnMut()) -> u32 {
    let sp = paint();
    f();
    let stack = used(sp);
    platform::cycles_start();
    f();
    let cycles = platform::cycles_stop();
    out(name);
    out(" ");
    put_u32(arg as u32);
    out(": cycles ");
    put_u32(cycles);
    out(" stack ");
    put_u32(stack as u32);
    out("\n");
    cycles
}

/// Fills the message buffer with the counting pattern (`None`) or with one byte value.
fn set_msg(fill: Option<u8>) {
    // SAFETY: single-threaded; no slice from `msg` is alive between measurements.
    unsafe {
        for (i, b) in (*core::ptr::addr_of_mut!(MSG)).iter_mut().enumerate() {
            *b = fill.unwrap_or((i * 7 + 3) as u8);
        }
    }
}

fn msg(len: usize) -> &'static [u8] {
    // SAFETY: MSG is only written by `set_msg`, between measurements.
    unsafe { &(&*core::ptr::addr_of!(MSG))[..len] }
}

/// The fixed-size hashers (`Groestl256`, `Groestl512`: what a firmware uses; smaller than the
/// run-time-sized `Groestl`).
trait Hasher: Update + FixedOutputReset + Sized {
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

#[inline(never)]
fn groestl<H: Hasher>(len: usize) {
    groestl_on::<H>(GBackend::detect(), len);
}

#[inline(never)]
fn groestl_on<H: Hasher>(b: GBackend, len: usize) {
    let mut h = H::on(b);
    h.update(black_box(msg(len)));
    let mut out = Output::<H>::default();
    h.finalize_into_reset(&mut out);
    black_box(&out);
}

/// As `groestl::<Groestl256>`, but the digest goes to a static buffer, as the message comes
/// from one: the stack figure is then the hashing's own RAM (the hasher object and the frames),
/// without the caller's 32-byte output buffer — paper [A]'s accounting (docs/embedded.md).
#[inline(never)]
fn groestl256_static_out(len: usize) {
    let mut h = Groestl256::on(GBackend::detect());
    h.update(black_box(msg(len)));
    // SAFETY: DIGEST is only used here, one call at a time.
    let out = unsafe { &mut *core::ptr::addr_of_mut!(DIGEST) };
    h.finalize_into_reset(<&mut Output<Groestl256>>::try_from(&mut out[..]).expect("32 bytes"));
    black_box(&*out);
}

/// Whether hashing 100 bytes of three different messages (a counting pattern, zeros, ones)
/// takes exactly the same cycles (printed as three measurements named `names`).
fn same_cycles<H: Hasher>(names: [&str; 3]) -> bool {
    let mut cycles = [0; 3];
    for ((c, fill), name) in cycles.iter_mut().zip([None, Some(0x00), Some(0xff)]).zip(names) {
        set_msg(fill);
        *c = measure(name, 100, || groestl::<H>(100));
    }
    cycles[1] == cycles[0] && cycles[2] == cycles[0]
}

pub(crate) fn run() -> ! {
    set_msg(None);
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
    // Calibration: the measurement's own overhead.
    measure("empty", 0, || black_box(()));
    for len in [1024, LONG] {
        measure("groestl-256", len, || groestl::<Groestl256>(len));
    }
    if cfg!(target_arch = "avr") {
        for len in [1024, LONG] {
            measure("groestl-256-static-out", len, || groestl256_static_out(len));
        }
    }
    for len in [1024, LONG] {
        measure("groestl-512", len, || groestl::<Groestl512>(len));
    }
    // AVR is cycle-exact: hashing other data must take exactly as many cycles (the `mcu`
    // kernels have no data-dependent branch, and `LPM` takes 3 cycles at every address). The
    // verdict line makes this image a test too (`scripts/test-embedded.sh`, `embedded/run.sh`).
    let mut same = true;
    if cfg!(target_arch = "avr") {
        same &= same_cycles::<Groestl256>(["groestl-256 counting", "groestl-256 zeros", "groestl-256 ones"]);
        same &= same_cycles::<Groestl512>(["groestl-512 counting", "groestl-512 zeros", "groestl-512 ones"]);
        set_msg(None);
        out(if same { "data-independent timing: yes\n" } else { "data-independent timing: NO\n" });
    }
    // The default's competitor where it exists (not on AVR).
    if GBackend::Portable.is_available() {
        for len in [1024, LONG] {
            measure("groestl-256-portable", len, || groestl_on::<Groestl256>(GBackend::Portable, len));
        }
    }
    measure("groestlcoin", 80, || {
        black_box(groestlcoin_hash(black_box(msg(80))));
    });
    let key = [7u8; 32];
    let otr = ProestOtr128::with_backend(&key, PBackend::detect()).expect("available");
    let ape = ProestApe128::with_backend(&key[..16], PBackend::detect()).expect("available");
    let nonce = [9u8; 32];
    // SAFETY: CT is only used here, one call at a time.
    let ct = unsafe { &mut *core::ptr::addr_of_mut!(CT) };
    for len in [1024, LONG] {
        measure("proest128otr-enc", len, || {
            black_box(otr.encrypt_into(&nonce[..16], &[], black_box(msg(len)), ct)).ok();
        });
    }
    for len in [1024, LONG] {
        measure("proest128ape-enc", len, || {
            black_box(ape.encrypt_into(&nonce, &[], black_box(msg(len)), ct)).ok();
        });
    }
    out("bench done\n");
    out(if same { "RESULT: PASS\n" } else { "RESULT: FAIL\n" });
    platform::finish(same)
}
