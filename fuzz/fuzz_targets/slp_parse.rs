//! The slp matrix parsers (every format, and the field option) and the program parser: never
//! panic; whatever parses prints back to text that parses to the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use slicewise_slp::Program;
use slicewise_slp::parse::{MatrixFormat, ParseOptions, parse_input, parse_matrix};

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let format = [MatrixFormat::Auto, MatrixFormat::Bits, MatrixFormat::Bp, MatrixFormat::Hex][sel as usize % 4];
    let field = [0x11b, 0x11d, 0x100, 0x1ff, 0x3][(sel as usize >> 2) % 5];
    let opts = ParseOptions { format, field, index: (sel >> 5) as usize };
    if let Ok(input) = parse_input(text, &opts) {
        let again = parse_matrix(&input.matrix.to_text()).expect("to_text output parses");
        assert_eq!(again, input.matrix, "matrix text round trip");
    }
    if let Ok(m) = parse_matrix(text) {
        assert_eq!(parse_matrix(&m.to_text()).expect("to_text output parses"), m);
    }
    let expect = if sel & 1 == 1 { Some((sel >> 1) as usize % 40) } else { None };
    if let Ok(p) = Program::parse(text, expect) {
        let again = Program::parse(&p.to_text(), Some(p.n_inputs)).expect("to_text output parses");
        assert_eq!(again.matrix(), p.matrix(), "program text round trip");
    }
});
