//! Without `alloc`, [`Error`](crate::Error) cannot hold a `String`: its text fields hold an
//! [`InlineStr`] instead, a copy of at most [`InlineStr::CAPACITY`] bytes (longer text is cut at
//! a character boundary). With `alloc` (and so with the default `std`) the fields are `String`.

use core::fmt;

/// Error text copied into a fixed buffer (the `no_std`, no-`alloc` stand-in for `String`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct InlineStr {
    buf: [u8; InlineStr::CAPACITY],
    len: u8,
}

impl InlineStr {
    /// Bytes kept; the rest of a longer text is dropped.
    pub const CAPACITY: usize = 48;

    /// The kept text.
    pub fn as_str(&self) -> &str {
        // The buffer only ever receives whole characters (see `write_str`).
        core::str::from_utf8(&self.buf[..self.len as usize]).unwrap_or("")
    }
}

impl fmt::Write for InlineStr {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let mut room = Self::CAPACITY - self.len as usize;
        if s.len() < room {
            room = s.len();
        }
        while !s.is_char_boundary(room) {
            room -= 1;
        }
        let at = self.len as usize;
        self.buf[at..at + room].copy_from_slice(&s.as_bytes()[..room]);
        self.len += room as u8;
        Ok(())
    }
}

impl From<&str> for InlineStr {
    fn from(s: &str) -> Self {
        let mut t = InlineStr { buf: [0; Self::CAPACITY], len: 0 };
        let _ = fmt::Write::write_str(&mut t, s);
        t
    }
}

impl core::ops::Deref for InlineStr {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Debug for InlineStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for InlineStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `to_string` into an [`InlineStr`], so that the error-building code reads the same with and
/// without `alloc`.
pub(crate) trait ToInlineString {
    fn to_string(&self) -> InlineStr;
}

impl<T: fmt::Display + ?Sized> ToInlineString for T {
    fn to_string(&self) -> InlineStr {
        let mut t = InlineStr::from("");
        let _ = fmt::Write::write_fmt(&mut t, format_args!("{self}"));
        t
    }
}
