//! Grøstl: SUPERCOP-shaped one-shot functions and a streaming API on a caller-allocated state.

use core::ffi::{CStr, c_char, c_int, c_uchar, c_uint, c_ulonglong};
use core::mem::{align_of, needs_drop, size_of};
use core::{ptr, slice};

use slicewise_groestl::{Backend, Groestl, Variant, groestlcoin_hash};

use crate::boundary::{
    SLICEWISE_ERR_ARGUMENT, SLICEWISE_ERR_BACKEND, SLICEWISE_ERR_NULL, SLICEWISE_ERR_STATE, c_name,
    guard, input, length, overlaps,
};

/// Digest length of Grøstl-224 in bytes.
pub const SLICEWISE_GROESTL224_BYTES: usize = 28;
/// Digest length of Grøstl-256 in bytes.
pub const SLICEWISE_GROESTL256_BYTES: usize = 32;
/// Digest length of Grøstl-384 in bytes.
pub const SLICEWISE_GROESTL384_BYTES: usize = 48;
/// Digest length of Grøstl-512 in bytes.
pub const SLICEWISE_GROESTL512_BYTES: usize = 64;
/// Length of Groestlcoin's hash in bytes.
pub const SLICEWISE_GROESTLCOIN_BYTES: usize = 32;
/// `sizeof(slicewise_groestl_state)`.
pub const SLICEWISE_GROESTL_STATE_BYTES: usize = 384;

const _: () = {
    assert!(SLICEWISE_GROESTL224_BYTES == Variant::Groestl224.output_len());
    assert!(SLICEWISE_GROESTL256_BYTES == Variant::Groestl256.output_len());
    assert!(SLICEWISE_GROESTL384_BYTES == Variant::Groestl384.output_len());
    assert!(SLICEWISE_GROESTL512_BYTES == Variant::Groestl512.output_len());
};

/// A Grøstl hash computation of any size, in storage the caller owns (on the stack, in a
/// struct, anywhere aligned for `uint64_t`). Opaque: only the `slicewise_groestl_*` functions
/// read or write it.
///
/// It holds no pointers and owns no resources: it may be copied with `memcpy` or assignment
/// at any point (the copy is an independent computation that continues from the same
/// message prefix), moved, or simply abandoned without calling `slicewise_groestl_final`.
#[repr(C)]
pub struct SlicewiseGroestlState {
    // A literal length: cbindgen does not evaluate constant expressions. Checked below.
    opaque: [u64; 48],
}

impl core::fmt::Debug for SlicewiseGroestlState {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SlicewiseGroestlState")
            .finish_non_exhaustive()
    }
}

/// What lives at the start of a `SlicewiseGroestlState`.
#[repr(C)]
struct Slot {
    /// `MAGIC` between init and final; anything else means "not initialised".
    magic: u64,
    hasher: Groestl,
}

/// "slicewis" in ASCII.
const MAGIC: u64 = 0x7369_7765_6369_6c73;

const _: () = {
    assert!(size_of::<SlicewiseGroestlState>() == SLICEWISE_GROESTL_STATE_BYTES);
    assert!(size_of::<Slot>() <= size_of::<SlicewiseGroestlState>());
    assert!(align_of::<Slot>() <= align_of::<SlicewiseGroestlState>());
    // A hasher that needs no drop owns no heap memory or other resources, so duplicating
    // its bytes (C `memcpy`) or never finalising it is sound, as the header promises.
    assert!(!needs_drop::<Groestl>());
};

fn variant(bits: c_uint) -> Result<Variant, c_int> {
    match bits {
        224 => Ok(Variant::Groestl224),
        256 => Ok(Variant::Groestl256),
        384 => Ok(Variant::Groestl384),
        512 => Ok(Variant::Groestl512),
        _ => Err(SLICEWISE_ERR_ARGUMENT),
    }
}

fn selected() -> Result<Backend, c_int> {
    Backend::selected().map_err(|_| SLICEWISE_ERR_BACKEND)
}

/// Hashes `inlen` bytes at `input` into `variant.output_len()` bytes at `out`.
///
/// # Safety
/// As for the exported one-shot functions.
unsafe fn hash(
    variant: Variant,
    out: *mut c_uchar,
    input: *const c_uchar,
    inlen: c_ulonglong,
) -> c_int {
    guard(|| {
        if out.is_null() {
            return Err(SLICEWISE_ERR_NULL);
        }
        let backend = selected()?;
        // SAFETY: the caller passes `inlen` readable bytes at `input` (or an empty input).
        let data = unsafe { crate::boundary::input(input, length(inlen)?) }?;
        if !overlaps(data.as_ptr(), data.len(), out, variant.output_len()) {
            // SAFETY: `out` is non-null and the caller provides `output_len` writable bytes
            // there, disjoint from `data`. Straight into `out` (see `hash_into`).
            let out = unsafe { slice::from_raw_parts_mut(out, variant.output_len()) };
            return slicewise_groestl::hash_into(variant, backend, data, out).map_err(|_| SLICEWISE_ERR_BACKEND);
        }
        let mut h = Groestl::with_backend(variant, backend).map_err(|_| SLICEWISE_ERR_BACKEND)?;
        h.update(data);
        let digest = h.finalize();
        let digest = digest.as_ref();
        // SAFETY: `out` is non-null and the caller provides `output_len` writable bytes there.
        // `digest` is a local copy, and `data` (which overlaps `out`) is no longer used.
        unsafe { ptr::copy_nonoverlapping(digest.as_ptr(), out, digest.len()) };
        Ok(())
    })
}

/// Grøstl-224 of `inlen` bytes at `in` into the 28 bytes at `out` (SUPERCOP's `crypto_hash`).
/// Returns `SLICEWISE_OK`, or an error code and leaves `out` unspecified.
///
/// # Safety
/// `out` must point to `SLICEWISE_GROESTL224_BYTES` writable bytes; `in` to `inlen` readable
/// bytes (it may be NULL when `inlen` is 0). `in` and `out` may overlap.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn slicewise_groestl224_hash(
    out: *mut c_uchar,
    r#in: *const c_uchar,
    inlen: c_ulonglong,
) -> c_int {
    // SAFETY: same contract.
    unsafe { hash(Variant::Groestl224, out, r#in, inlen) }
}

/// Grøstl-256 into 32 bytes; as `slicewise_groestl224_hash`.
///
/// # Safety
/// As `slicewise_groestl224_hash`, with `SLICEWISE_GROESTL256_BYTES` output bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn slicewise_groestl256_hash(
    out: *mut c_uchar,
    r#in: *const c_uchar,
    inlen: c_ulonglong,
) -> c_int {
    // SAFETY: same contract.
    unsafe { hash(Variant::Groestl256, out, r#in, inlen) }
}

/// Grøstl-384 into 48 bytes; as `slicewise_groestl224_hash`.
///
/// # Safety
/// As `slicewise_groestl224_hash`, with `SLICEWISE_GROESTL384_BYTES` output bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn slicewise_groestl384_hash(
    out: *mut c_uchar,
    r#in: *const c_uchar,
    inlen: c_ulonglong,
) -> c_int {
    // SAFETY: same contract.
    unsafe { hash(Variant::Groestl384, out, r#in, inlen) }
}

/// Grøstl-512 into 64 bytes; as `slicewise_groestl224_hash`.
///
/// # Safety
/// As `slicewise_groestl224_hash`, with `SLICEWISE_GROESTL512_BYTES` output bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn slicewise_groestl512_hash(
    out: *mut c_uchar,
    r#in: *const c_uchar,
    inlen: c_ulonglong,
) -> c_int {
    // SAFETY: same contract.
    unsafe { hash(Variant::Groestl512, out, r#in, inlen) }
}

/// Groestlcoin's hash: the first 32 bytes of Grøstl-512(Grøstl-512(`in`)), into `out32`.
///
/// # Safety
/// `out32` must point to 32 writable bytes; `in` to `inlen` readable bytes (NULL allowed when
/// `inlen` is 0). They may overlap.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn slicewise_groestlcoin_hash(
    out32: *mut c_uchar,
    r#in: *const c_uchar,
    inlen: c_ulonglong,
) -> c_int {
    guard(|| {
        if out32.is_null() {
            return Err(SLICEWISE_ERR_NULL);
        }
        // SAFETY: the caller passes `inlen` readable bytes at `in` (or an empty input).
        let data = unsafe { input(r#in, length(inlen)?) }?;
        // `groestlcoin_hash` panics on a bad `SLICEWISE_BACKEND`; the selection is cached for
        // the process, so checking it first turns that case into an error code.
        selected()?;
        let digest = groestlcoin_hash(data);
        // SAFETY: `out32` is non-null with 32 writable bytes; `digest` is a local array.
        unsafe { ptr::copy_nonoverlapping(digest.as_ptr(), out32, digest.len()) };
        Ok(())
    })
}

/// The state's slot, if the pointer is non-null (`SLICEWISE_ERR_NULL` otherwise).
fn slot(state: *mut SlicewiseGroestlState) -> Result<*mut Slot, c_int> {
    if state.is_null() {
        Err(SLICEWISE_ERR_NULL)
    } else {
        Ok(state.cast::<Slot>())
    }
}

/// Checks that `slot` holds an initialised hasher (`SLICEWISE_ERR_STATE` otherwise).
///
/// # Safety
/// `slot` must point to a live `SlicewiseGroestlState`.
unsafe fn check_initialised(slot: *const Slot) -> Result<(), c_int> {
    // SAFETY: `slot` points to at least 8 aligned bytes of the caller's state; any bit
    // pattern is a valid `u64`. The magic is only ever written together with a valid hasher
    // (by `start`) and cleared by `slicewise_groestl_final`.
    let magic = unsafe { ptr::addr_of!((*slot).magic).read() };
    if magic == MAGIC {
        Ok(())
    } else {
        Err(SLICEWISE_ERR_STATE)
    }
}

/// The hasher in an initialised state, for updating.
///
/// # Safety
/// `slot` must point to a live `SlicewiseGroestlState` that no one else accesses during `'a`.
unsafe fn hasher<'a>(slot: *mut Slot) -> Result<&'a mut Groestl, c_int> {
    // SAFETY: the caller's contract.
    unsafe { check_initialised(slot) }?;
    // SAFETY: initialised (checked above), and the caller guarantees exclusive access.
    Ok(unsafe { &mut (*slot).hasher })
}

/// Initialises `state` for a `bits`-bit digest on `backend` (the selected one if `None`).
fn start(
    state: *mut SlicewiseGroestlState,
    bits: c_uint,
    backend: Option<&CStr>,
) -> Result<(), c_int> {
    let slot = slot(state)?;
    // Invalid until a hasher is stored, so a failed init leaves an unusable state.
    // SAFETY: `slot` is non-null and points to the caller's aligned, writable state.
    unsafe { ptr::addr_of_mut!((*slot).magic).write(0) };
    let variant = variant(bits)?;
    let backend = match backend {
        None => selected()?,
        Some(name) => {
            let name = name.to_str().map_err(|_| SLICEWISE_ERR_BACKEND)?;
            Backend::from_name(name).map_err(|_| SLICEWISE_ERR_BACKEND)?
        }
    };
    let hasher = Groestl::with_backend(variant, backend).map_err(|_| SLICEWISE_ERR_BACKEND)?;
    // SAFETY: as above; `Slot` fits in the state with its alignment (checked at compile time)
    // and the old contents need no drop.
    unsafe {
        slot.write(Slot {
            magic: MAGIC,
            hasher,
        })
    };
    Ok(())
}

/// Initialises `state` for a Grøstl-`bits` digest (`bits` = 224, 256, 384 or 512) on the
/// process-wide backend (`SLICEWISE_BACKEND`, else the fastest constant-time one). Whatever
/// `state` held before is discarded. On error the state is left uninitialised.
///
/// # Safety
/// `state` must point to a `slicewise_groestl_state` that no other thread uses meanwhile.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn slicewise_groestl_init(
    state: *mut SlicewiseGroestlState,
    bits: c_uint,
) -> c_int {
    guard(|| start(state, bits, None))
}

/// As `slicewise_groestl_init`, on the backend named `backend` (`"gfni"`, `"aesni"`,
/// `"portable"`, ...; NULL means the process-wide one). Returns `SLICEWISE_ERR_BACKEND` for a
/// name that is unknown or that this CPU cannot run.
///
/// # Safety
/// As `slicewise_groestl_init`; `backend` is NULL or a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn slicewise_groestl_init_backend(
    state: *mut SlicewiseGroestlState,
    bits: c_uint,
    backend: *const c_char,
) -> c_int {
    guard(|| {
        // SAFETY: a non-null `backend` is a NUL-terminated string (the caller's contract).
        let name = (!backend.is_null()).then(|| unsafe { CStr::from_ptr(backend) });
        start(state, bits, name)
    })
}

/// Absorbs `inlen` bytes at `in` (NULL allowed when `inlen` is 0). Returns
/// `SLICEWISE_ERR_STATE` if the state is not initialised, `SLICEWISE_ERR_ARGUMENT` if the
/// input overlaps the state.
///
/// # Safety
/// `state` must point to a `slicewise_groestl_state` that no other thread uses meanwhile;
/// `in` to `inlen` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn slicewise_groestl_update(
    state: *mut SlicewiseGroestlState,
    r#in: *const c_uchar,
    inlen: c_ulonglong,
) -> c_int {
    guard(|| {
        let slot = slot(state)?;
        let len = length(inlen)?;
        if overlaps(
            r#in,
            len,
            state.cast::<u8>(),
            size_of::<SlicewiseGroestlState>(),
        ) {
            return Err(SLICEWISE_ERR_ARGUMENT);
        }
        // SAFETY: the caller's contract; the input does not overlap the state.
        let data = unsafe { input(r#in, len) }?;
        // SAFETY: exclusive access to the state is the caller's contract.
        unsafe { hasher(slot) }?.update(data);
        Ok(())
    })
}

/// Writes the digest (`bits / 8` bytes) to `out` and clears the state: a later `update` or
/// `final` returns `SLICEWISE_ERR_STATE` until it is initialised again.
///
/// # Safety
/// `state` must point to a `slicewise_groestl_state` that no other thread uses meanwhile;
/// `out` to as many writable bytes as the digest has.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn slicewise_groestl_final(
    state: *mut SlicewiseGroestlState,
    out: *mut c_uchar,
) -> c_int {
    guard(|| {
        let slot = slot(state)?;
        if out.is_null() {
            return Err(SLICEWISE_ERR_NULL);
        }
        // SAFETY: exclusive access to the state is the caller's contract.
        let h = unsafe { hasher(slot) }?;
        let mut digest = [0u8; 64];
        let len = h.variant().output_len();
        h.finalize_into_reset(&mut digest);
        // SAFETY: the state is the caller's, writable, `SLICEWISE_GROESTL_STATE_BYTES` long;
        // the hasher reference is no longer used. Zeroing clears the magic.
        unsafe { ptr::write_bytes(state.cast::<u8>(), 0, size_of::<SlicewiseGroestlState>()) };
        // SAFETY: `out` is non-null with `len` writable bytes (the caller's contract).
        unsafe { ptr::copy_nonoverlapping(digest.as_ptr(), out, len) };
        Ok(())
    })
}

/// The name of the backend an initialised state runs on (a static string), or NULL if
/// `state` is NULL or not initialised.
///
/// # Safety
/// `state` is NULL or points to a `slicewise_groestl_state` not being written meanwhile.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn slicewise_groestl_state_backend(
    state: *const SlicewiseGroestlState,
) -> *const c_char {
    let mut name = ptr::null();
    guard(|| {
        let slot = slot(state.cast_mut())?.cast_const();
        // SAFETY: `slot` points to the caller's live state.
        unsafe { check_initialised(slot) }?;
        // SAFETY: initialised; the caller guarantees no one writes it meanwhile.
        let hasher = unsafe { &(*slot).hasher };
        name = c_name(hasher.backend().name());
        Ok(())
    });
    name
}

/// The name of the Grøstl backend new computations use (`SLICEWISE_BACKEND` or the detected
/// one), as a static string; NULL if `SLICEWISE_BACKEND` names an unknown or unavailable one.
#[unsafe(no_mangle)]
pub extern "C" fn slicewise_groestl_backend_name() -> *const c_char {
    let mut name = ptr::null();
    guard(|| {
        name = c_name(selected()?.name());
        Ok(())
    });
    name
}

#[cfg(test)]
mod tests {
    use super::*;
    use slicewise_groestl::{Digest, Groestl256, Groestl512};

    fn fresh() -> SlicewiseGroestlState {
        SlicewiseGroestlState {
            opaque: [0x5a5a_5a5a_5a5a_5a5a; SLICEWISE_GROESTL_STATE_BYTES / 8],
        }
    }

    #[test]
    fn one_shot_matches_the_rust_api() {
        let msg: Vec<u8> = (0..300u32).map(|i| (i * 7) as u8).collect();
        let mut out = [0u8; 64];
        let o = out.as_mut_ptr();
        // SAFETY: 64 bytes of output, `msg.len()` bytes of input; NULL only where the length
        // is 0 or the call must reject it before any access.
        let rcs = unsafe {
            [
                slicewise_groestl512_hash(o, msg.as_ptr(), msg.len() as u64),
                slicewise_groestl256_hash(o.add(64 - 32), ptr::null(), 0),
                slicewise_groestl256_hash(o, ptr::null(), 1),
                slicewise_groestl256_hash(ptr::null_mut(), msg.as_ptr(), 1),
            ]
        };
        assert_eq!(rcs, [0, 0, SLICEWISE_ERR_NULL, SLICEWISE_ERR_NULL]);
        assert_eq!(out[..32], Groestl512::digest(&msg)[..32]);
        assert_eq!(out[32..], Groestl256::digest(b"")[..]);
        // SAFETY: 32 bytes of output, 80 of input.
        let rc = unsafe { slicewise_groestlcoin_hash(o, msg.as_ptr(), 80) };
        assert_eq!(rc, 0);
        assert_eq!(out[..32], groestlcoin_hash(&msg[..80]));
    }

    /// The one-shot functions with the digest written over their own input (the overlapping
    /// path) or beside it (the direct path), every size, lengths around the block boundaries.
    #[test]
    fn one_shot_in_place_and_disjoint() {
        use slicewise_groestl::{Groestl224, Groestl384};
        type F = unsafe extern "C" fn(*mut c_uchar, *const c_uchar, c_ulonglong) -> c_int;
        let fs: [(F, fn(&[u8]) -> Vec<u8>); 4] = [
            (slicewise_groestl224_hash, |m| Groestl224::digest(m).to_vec()),
            (slicewise_groestl256_hash, |m| Groestl256::digest(m).to_vec()),
            (slicewise_groestl384_hash, |m| Groestl384::digest(m).to_vec()),
            (slicewise_groestl512_hash, |m| Groestl512::digest(m).to_vec()),
        ];
        for (f, want) in fs {
            for len in [1usize, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129, 300] {
                let msg: Vec<u8> = (0..len).map(|i| (i * 13 + len) as u8).collect();
                let d = want(&msg);
                for at in [0, len / 2, len] {
                    let mut buf = msg.clone();
                    buf.resize(len + 64, 0);
                    // SAFETY: `buf` holds the message and at least 64 writable bytes from `at`.
                    let rc = unsafe { f(buf.as_mut_ptr().add(at), buf.as_ptr(), len as c_ulonglong) };
                    assert_eq!(rc, 0);
                    assert_eq!(buf[at..at + d.len()], d[..], "len {len}, digest at {at}");
                }
            }
        }
    }

    #[test]
    fn streaming_state_lifecycle() {
        let msg = [0xa5u8; 200];
        let mut st = fresh();
        let mut out = [0u8; 32];
        // SAFETY: `st` is a live local state; `msg` and `out` are long enough for every call.
        unsafe {
            assert_eq!(
                slicewise_groestl_update(&mut st, msg.as_ptr(), 1),
                SLICEWISE_ERR_STATE
            );
            assert_eq!(slicewise_groestl_init(&mut st, 255), SLICEWISE_ERR_ARGUMENT);
            assert_eq!(
                slicewise_groestl_final(&mut st, out.as_mut_ptr()),
                SLICEWISE_ERR_STATE
            );
            assert_eq!(
                slicewise_groestl_init_backend(&mut st, 256, c"no-such".as_ptr()),
                SLICEWISE_ERR_BACKEND
            );
            assert_eq!(
                slicewise_groestl_init_backend(&mut st, 256, c"portable".as_ptr()),
                0
            );
            assert_eq!(
                CStr::from_ptr(slicewise_groestl_state_backend(&st)),
                c"portable"
            );
            assert_eq!(slicewise_groestl_update(&mut st, msg.as_ptr(), 70), 0);
            // A byte copy continues independently.
            let mut copy = SlicewiseGroestlState { opaque: st.opaque };
            assert_eq!(
                slicewise_groestl_update(&mut st, msg[70..].as_ptr(), 130),
                0
            );
            assert_eq!(slicewise_groestl_final(&mut st, out.as_mut_ptr()), 0);
            assert_eq!(out[..], Groestl256::digest(msg)[..]);
            assert_eq!(
                slicewise_groestl_final(&mut st, out.as_mut_ptr()),
                SLICEWISE_ERR_STATE
            );
            assert!(slicewise_groestl_state_backend(&st).is_null());
            assert_eq!(slicewise_groestl_final(&mut copy, out.as_mut_ptr()), 0);
            assert_eq!(out[..], Groestl256::digest(&msg[..70])[..]);
            // Input overlapping the state is refused.
            assert_eq!(slicewise_groestl_init(&mut st, 224), 0);
            let inside = (&raw const st).cast::<u8>();
            assert_eq!(
                slicewise_groestl_update(&mut st, inside, 8),
                SLICEWISE_ERR_ARGUMENT
            );
        }
    }
}
