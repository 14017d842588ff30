//! Local re-synthesis: cut a window of consecutive operations out of a program, express the
//! window's live results as a small matrix over the signals it reads, re-synthesize that matrix
//! with randomized Boyar–Peralta runs, and splice the result back when it is not longer.
//! Random topological re-orderings between attempts expose different windows.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::bp::{BpOptions, Criterion, bp};
use crate::matrix::{BitMatrix, MAX_DIM, Row};
use crate::program::{Out, Program};

/// Options of [`resynth`].
#[derive(Debug, Clone, Copy)]
pub struct ResynthOptions {
    /// Number of window attempts.
    pub iterations: usize,
    /// Largest window (operations).
    pub max_window: usize,
    /// BP runs per window.
    pub tries: usize,
    /// Depth bound to keep (None: unbounded).
    pub max_depth: Option<usize>,
    /// Return where the walk ends (windows are replaced by equally long programs half of the
    /// time) when it is as short as the best program it saw, instead of that best program. A
    /// polish chain that keeps equally long results then walks on across rounds
    /// ([`crate::portfolio::WindowPolisher::walk`]).
    pub walk: bool,
}

impl Default for ResynthOptions {
    fn default() -> Self {
        ResynthOptions { iterations: 200, max_window: 24, tries: 3, max_depth: None, walk: false }
    }
}

/// A random topological order of the operations (same program, different listing).
pub fn reorder(p: &Program, rng: &mut ChaCha8Rng) -> Program {
    let n = p.n_inputs;
    let k = p.ops.len();
    let mut indeg = vec![0u8; k];
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); k];
    for (i, &(a, b)) in p.ops.iter().enumerate() {
        for s in [a, b] {
            if s >= n {
                indeg[i] += 1;
                users[s - n].push(i);
            }
        }
    }
    let mut ready: Vec<usize> = (0..k).filter(|&i| indeg[i] == 0).collect();
    let mut map = vec![usize::MAX; n + k];
    for (i, m) in map.iter_mut().enumerate().take(n) {
        *m = i;
    }
    let mut q = Program::new(n, p.outputs.len());
    q.meta = p.meta.clone();
    while !ready.is_empty() {
        let r = rng.random_range(0..ready.len());
        let i = ready.swap_remove(r);
        let (a, b) = p.ops[i];
        map[n + i] = q.push(map[a], map[b]);
        for &u in &users[i] {
            indeg[u] -= 1;
            if indeg[u] == 0 {
                ready.push(u);
            }
        }
    }
    q.outputs = p.outputs.iter().map(|o| if let Out::Sig(s) = o { Out::Sig(map[*s]) } else { *o }).collect();
    q
}

/// The window `[a, a+len)` as a sub-problem: (inputs it reads, live outputs, matrix).
fn window_problem(p: &Program, a: usize, len: usize) -> Option<(Vec<usize>, Vec<usize>, BitMatrix)> {
    let n = p.n_inputs;
    let lo = n + a;
    let hi = lo + len;
    let mut ins: Vec<usize> = Vec::new();
    for &(x, y) in &p.ops[a..a + len] {
        for s in [x, y] {
            if s < lo && !ins.contains(&s) {
                ins.push(s);
            }
        }
    }
    if ins.len() > MAX_DIM {
        return None;
    }
    let mut live = vec![false; len];
    for &(x, y) in &p.ops[a + len..] {
        for s in [x, y] {
            if (lo..hi).contains(&s) {
                live[s - lo] = true;
            }
        }
    }
    for o in &p.outputs {
        if let Out::Sig(s) = o
            && (lo..hi).contains(s)
        {
            live[*s - lo] = true;
        }
    }
    let outs: Vec<usize> = (0..len).filter(|&i| live[i]).map(|i| lo + i).collect();
    if outs.is_empty() || outs.len() > MAX_DIM {
        return None;
    }
    // Values over the window inputs.
    let mut val: Vec<Row> = Vec::with_capacity(len);
    let get = |s: usize, val: &Vec<Row>| -> Row {
        if s < lo { 1u128 << ins.iter().position(|&x| x == s).expect("window input") } else { val[s - lo] }
    };
    for &(x, y) in &p.ops[a..a + len] {
        let v = get(x, &val) ^ get(y, &val);
        val.push(v);
    }
    let rows: Vec<Row> = outs.iter().map(|&s| val[s - lo]).collect();
    if rows.contains(&0) {
        return None;
    }
    Some((ins.clone(), outs, BitMatrix::from_rows(ins.len(), rows)))
}

/// Replaces window `[a, a+len)` of `p` by `sub` (a program over the window inputs `ins` whose
/// outputs are the window's live results `outs`). `None` when two of those results are equal
/// and a later operation adds them (it would become `s + s`).
fn splice(p: &Program, a: usize, len: usize, ins: &[usize], outs: &[usize], sub: &Program) -> Option<Program> {
    let n = p.n_inputs;
    let lo = n + a;
    let mut q = Program::new(n, p.outputs.len());
    q.meta = p.meta.clone();
    q.ops.extend_from_slice(&p.ops[..a]);
    let mut map: Vec<usize> = (0..lo).collect();
    map.resize(p.n_signals(), usize::MAX);
    let sub_sig = |s: usize| -> usize { if s < ins.len() { ins[s] } else { lo + s - ins.len() } };
    for &(x, y) in &sub.ops {
        let (x, y) = (sub_sig(x), sub_sig(y));
        q.ops.push((x, y));
    }
    for (k, &o) in outs.iter().enumerate() {
        map[o] = match sub.outputs[k] {
            Out::Sig(s) => sub_sig(s),
            _ => unreachable!("window outputs are non-zero"),
        };
    }
    for (i, &(x, y)) in p.ops[a + len..].iter().enumerate() {
        if map[x] == map[y] {
            return None;
        }
        let s = q.push(map[x], map[y]);
        map[lo + len + i] = s;
    }
    q.outputs = p.outputs.iter().map(|o| if let Out::Sig(s) = o { Out::Sig(map[*s]) } else { *o }).collect();
    Some(q)
}

/// Runs local re-synthesis; the result computes the same matrix and is never longer.
pub fn resynth(p: &Program, opts: &ResynthOptions, rng: &mut ChaCha8Rng) -> Program {
    let target = p.matrix();
    let mut cur = p.clone();
    cur.prune();
    let mut best = cur.clone();
    for _ in 0..opts.iterations {
        let k = cur.ops.len();
        if k < 3 {
            break;
        }
        if rng.random_bool(0.3) {
            cur = reorder(&cur, rng);
        }
        let len = rng.random_range(3..=opts.max_window.min(k));
        let a = rng.random_range(0..=k - len);
        let Some((ins, outs, sm)) = window_problem(&cur, a, len) else { continue };
        let mut sub_best: Option<Program> = None;
        for t in 0..opts.tries {
            let crit = if t % 2 == 0 { Criterion::A2 } else { Criterion::Rnbp };
            let o = BpOptions { criterion: crit, max_depth: None, ..Default::default() };
            if let Some(sp) = bp(&sm, &o, rng)
                && sub_best.as_ref().is_none_or(|b| sp.xor_count() < b.xor_count())
            {
                sub_best = Some(sp);
            }
        }
        let Some(sp) = sub_best else { continue };
        if sp.xor_count() > len || (sp.xor_count() == len && !rng.random_bool(0.5)) {
            continue;
        }
        let Some(mut q) = splice(&cur, a, len, &ins, &outs, &sp) else { continue };
        q.prune();
        if let Some(d) = opts.max_depth
            && q.depth() > d
        {
            continue;
        }
        debug_assert_eq!(q.matrix(), target);
        cur = q;
        if cur.xor_count() < best.xor_count() {
            best = cur.clone();
        }
    }
    debug_assert_eq!(best.matrix(), target);
    if opts.walk && cur.xor_count() == best.xor_count() {
        return cur;
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn resynth_improves_naive_program() {
        let m = crate::matrix::expand_gf256(&crate::matrix::circulant(&[2, 3, 1, 1]), 0x11b);
        // Naive chains.
        let mut p = Program::new(32, 32);
        for (j, r) in m.row_bits().iter().enumerate() {
            let bits: Vec<usize> = (0..32).filter(|c| r >> c & 1 == 1).collect();
            let mut acc = bits[0];
            for &b in &bits[1..] {
                acc = p.push(acc, b);
            }
            p.outputs[j] = Out::Sig(acc);
        }
        p.verify(&m).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let q = resynth(&p, &ResynthOptions { iterations: 300, ..Default::default() }, &mut rng);
        q.verify(&m).unwrap();
        assert!(q.xor_count() < 152, "{}", q.xor_count());
        let r = reorder(&q, &mut rng);
        r.verify(&m).unwrap();
    }

    /// With `walk` the same windows are tried (the generator is used the same way), so the best
    /// count is the same; the program returned is where the walk ended when that is as short.
    #[test]
    fn walk_returns_where_the_walk_ends() {
        let m = crate::matrix::expand_gf256(&crate::matrix::circulant(&[2, 3, 1, 1]), 0x11b);
        let p = crate::bp::bp(&m, &crate::bp::BpOptions::default(), &mut ChaCha8Rng::seed_from_u64(1)).unwrap();
        let mut differ = 0;
        for seed in 0..8 {
            let o = ResynthOptions { iterations: 100, ..Default::default() };
            let best = resynth(&p, &o, &mut ChaCha8Rng::seed_from_u64(seed));
            let end = resynth(&p, &ResynthOptions { walk: true, ..o }, &mut ChaCha8Rng::seed_from_u64(seed));
            end.verify(&m).unwrap();
            assert_eq!(end.xor_count(), best.xor_count(), "seed {seed}");
            differ += usize::from(end.ops != best.ops);
        }
        assert!(differ > 0, "the walk never ended away from the best program");
    }

    #[test]
    fn equal_window_results_added_later_do_not_break_splicing() {
        // t2 = t0 + t1 adds two equal values; a window that merges t0 and t1 must be skipped.
        let mut p = Program::new(4, 2);
        let t0 = p.push(0, 1);
        let t1 = p.push(0, 1);
        let t2 = p.push(t0, t1);
        let t3 = p.push(t2, 2);
        let t4 = p.push(t3, 3);
        p.outputs = vec![Out::Sig(t4), Out::Sig(t0)];
        let m = p.matrix();
        for seed in 0..50 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let q = resynth(&p, &ResynthOptions { iterations: 50, max_window: 5, ..Default::default() }, &mut rng);
            q.verify(&m).unwrap();
            assert!(q.xor_count() <= 5);
        }
    }
}
