//! Generated code. Each file's header names the tool, seed and XOR count; unit tests re-verify
//! every program against its matrix.

pub mod mixslices;

#[cfg(test)]
mod tests;
