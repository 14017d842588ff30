//! Helpers shared by the fuzz targets: a byte cursor over the fuzzer's input and the list of
//! backends this CPU can run.

/// Reads the fuzzer's input front to back; past the end every read yields zeros / empty.
#[derive(Debug)]
pub struct Cursor<'a> {
    data: &'a [u8],
}

impl<'a> Cursor<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Cursor { data }
    }

    /// One byte (0 once the input is used up).
    pub fn byte(&mut self) -> u8 {
        let (&b, rest) = self.data.split_first().unwrap_or((&0, &[]));
        self.data = rest;
        b
    }

    /// A little-endian `u16`.
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.byte(), self.byte()])
    }

    /// Up to `n` bytes (fewer if the input runs out).
    pub fn take(&mut self, n: usize) -> &'a [u8] {
        let (a, b) = self.data.split_at(n.min(self.data.len()));
        self.data = b;
        a
    }

    /// Exactly `n` bytes, zero-padded when the input runs out.
    pub fn fixed(&mut self, n: usize) -> Vec<u8> {
        let mut v = self.take(n).to_vec();
        v.resize(n, 0);
        v
    }

    /// Everything that is left.
    pub fn rest(&mut self) -> &'a [u8] {
        self.take(self.data.len())
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
}

/// The Grøstl backends this CPU can run.
pub fn groestl_backends() -> Vec<slicewise_groestl::Backend> {
    slicewise_groestl::Backend::all().filter(|b| b.is_available()).collect()
}

/// The Prøst backends this CPU can run.
pub fn proest_backends() -> Vec<slicewise_proest::Backend> {
    slicewise_proest::Backend::available().collect()
}

/// Calls `$f::<M>` (a generic function over `slicewise_proest::modes::Mode`) for the AEAD
/// variant `$sel % 6`.
#[macro_export]
macro_rules! for_variant {
    ($sel:expr, $f:ident, $($arg:expr),*) => {{
        use slicewise_proest::modes::{Ape, Copa, Otr};
        use slicewise_proest::{Proest128, Proest256};
        match $sel % 6 {
            0 => $f::<Ape<Proest128>>($($arg),*),
            1 => $f::<Copa<Proest128>>($($arg),*),
            2 => $f::<Otr<Proest128>>($($arg),*),
            3 => $f::<Ape<Proest256>>($($arg),*),
            4 => $f::<Copa<Proest256>>($($arg),*),
            _ => $f::<Otr<Proest256>>($($arg),*),
        }
    }};
}
