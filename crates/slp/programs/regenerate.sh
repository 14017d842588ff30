#!/bin/sh
# Regenerates the checked-in programs (crates/slp/programs/*) and the Prøst MixSlices code
# (crates/proest/src/generated/mixslices.rs). Every command below is one deterministic run
# (fixed seed, `--runs`), so the output is identical on every machine; the seeds are the ones
# that produced the best results in the timed searches recorded in docs/slp-history.md.
# `cargo test -p slicewise-slp --test programs` re-verifies all of them. Not regenerated here
# (their SAT-window polish had calls stopped by the wall-clock limit, so they depend on the
# machine; commands in their headers and in docs/slp-history.md, "Results"): aes_mixcolumns.depth6.slp,
# whirlpool_mds.slp.
set -eu
cd "$(dirname "$0")/../../.."
cargo build --release -q -p slicewise-cli
S=${CARGO_TARGET_DIR:-target}/release/slicewise
T=test-vectors/slp
P=crates/slp/programs
run() { "$S" slp optimize "$@" -j 1 -q; }

run $T/proest_mixslices.txt -a sxor-rows --seed 8004 --runs 1 --resynth 1000 -o $P/proest_mixslices.slp
run $T/proest_mixslices.txt -a sxor-rows --seed 8004 --runs 1 --resynth 1000 --emit rust --name mix_slices -o crates/proest/src/generated/mixslices.rs
run $T/aes_mixcolumns.txt -a mix --seed 7086 --runs 1 --resynth 300 --no-exact-windows --polish-rounds 1300 --window 48 --bp-walk false --walk-polish 0 -o $P/aes_mixcolumns.slp
run $T/aes_mixcolumns.txt -a a1 --resynth 300 --seed 7086 --runs 1 --no-exact-windows --polish-rounds 3484 --polish-seed 4000012007154 --window 48 --bp-walk false --walk-polish 0 -o $P/aes_mixcolumns.90.slp
run $T/aes_mixcolumns.txt -a sxor --resynth 800 --seed 10423 --runs 1 --no-exact-windows --polish-rounds 999 --polish-seed 10423 --window 48 --bp-walk false --walk-polish 0 -o $P/aes_mixcolumns.89.slp
run $T/aes_mixcolumns.txt -a sxor --resynth 800 --seed 37 --runs 1 --polish-rounds 3716 --polish-seed 37 --window 24 --bp-walk false --small-windows 0.5 --plateau 0.8 --walk-polish 0 -o $P/aes_mixcolumns.88.slp
run $T/aes_mixcolumns.txt -a sxor --resynth 800 --seed 8050 --runs 1 --polish-rounds 80,1520 --polish-seed 8050,2000006008084 --window 24 --bp-walk false --small-windows 0.5 --plateau 0.8 --walk-polish 1000 -o $P/aes_mixcolumns.88.defaults.slp
run $T/aes_mixcolumns.txt -a sxor --resynth 800 --seed 10423 --runs 1 --no-exact-windows --polish-rounds 999 --polish-seed 10423 --window 48 --bp-walk false --walk-moves 20000 --walk-seed 3 --walk-polish 0 -o $P/aes_mixcolumns.88.walk.slp
run $T/aes_invmixcolumns.txt -a sxor --resynth 800 --seed 1157 --runs 1 --polish-rounds 40,2106 --polish-seed 1157,1000003001174 --window 24 --bp-walk false --small-windows 0.5 --plateau 0.8 --walk-polish 0 -o $P/aes_invmixcolumns.88.slp
run $T/aes_mixcolumns.txt -a mix --seed 668 --runs 1 --resynth 200 --max-depth 3 --sat-polish-rounds 3000 --sat-bp-every 20 --window 48 -o $P/aes_mixcolumns.depth3.slp
run $T/aes_mixcolumns.txt -a a2 --resynth 300 --seed 42368 --runs 1 --max-depth 3 --polish-rounds 2596 --polish-seed 42368 --small-windows 0 --window 48 --plateau 0.5 --bp-walk false --walk-polish 0 -o $P/aes_mixcolumns.depth3.97.slp
run $T/aes_mixcolumns.txt -a a1 --resynth 300 --seed 1960 --runs 1 --max-depth 4 --polish-rounds 1346 --polish-seed 35000105002555 --small-windows 0 --window 48 --plateau 0.5 --bp-walk false --walk-polish 0 -o $P/aes_mixcolumns.depth4.93.slp
run $T/aes_mixcolumns.txt -a trees --max-depth 4 --runs 1 --seed 0 --walk-moves 306100 -o $P/aes_mixcolumns.depth4.94.slp
run $T/aes_mixcolumns.txt --start $P/aes_mixcolumns.depth4.94.slp --max-depth 4 --polish-rounds 5201 --polish-seed 0 -o $P/aes_mixcolumns.depth4.92.slp
run $T/aes_mixcolumns.txt -a trees --max-depth 4 --runs 1 --seed 8 --walk-moves 310498 -o $P/aes_mixcolumns.depth4.93.trees.slp
run $T/aes_mixcolumns.txt --start $P/aes_mixcolumns.depth4.93.trees.slp --max-depth 4 --polish-rounds 6385 --polish-seed 0 -o $P/aes_mixcolumns.depth4.90.slp
run $T/aes_mixcolumns.txt -a trees-walk --resynth 0 --seed 8 --runs 1 --max-depth 4 --polish-rounds 4815 --polish-seed 8 --window 24 --bp-walk false --small-windows 0.5 --plateau 0.8 --walk-polish 1000 -o $P/aes_mixcolumns.depth4.90.defaults.slp
run $T/aes_mixcolumns.txt -a mix --seed 384 --runs 1 --resynth 200 --max-depth 4 --sat-polish-rounds 3000 --sat-bp-every 20 --window 48 -o $P/aes_mixcolumns.depth4.slp
run $T/random16_s1.txt -a mix --seed 4040 --runs 1 --resynth 300 -o $P/random16_s1.slp
run $T/random16_s2.txt -a mix --seed 3540 --runs 1 --resynth 300 -o $P/random16_s2.slp
run $T/random32_s1.txt -a a2 --seed 5233 --runs 1 -o $P/random32_s1.slp
run $T/random32_s2.txt -a a2 --seed 4140 --runs 1 -o $P/random32_s2.slp
run $T/groestl_mixbytes.txt -a a2 --seed 2265 --runs 1 -o $P/groestl_mixbytes.a2.slp
run --circulant 02,02,03,04,05,03,05,07 --word-level -a a2 --seed 7000 --runs 2000 --resynth 200 -o $P/groestl_mixbytes.word
run --circulant 02,02,03,04,05,03,05,07 --word-level -a a2 --seed 6 --runs 1 -o $P/groestl_mixbytes_depth8.word
SLICEWISE_REGENERATE=1 cargo test -q -p slicewise-slp --test programs generated_mixbytes
run --circulant 02,02,03,04,05,03,05,07 --word-level --expand -a a2 --seed 7000 --runs 2000 --resynth 200 -o $P/groestl_mixbytes.slp
run --circulant 01,01,04,01,08,05,02,09 --field 0x11d --word-level --expand -a a2 --resynth 300 --seed 6 --runs 1 --no-exact-windows --polish-rounds 57 --polish-seed 6 --window 48 --bp-walk false -o $P/whirlpool_mds.420.slp
run $T/groestl_mixbytes.txt --word-level --expand -a a1 --resynth 800 --seed 219 --runs 1 --no-exact-windows --polish-rounds 425 --polish-seed 219 --window 48 --bp-walk false -o $P/groestl_mixbytes.359.slp
run $T/groestl_mixbytes.txt --word-level --expand -a rnbp --resynth 800 --seed 35 --runs 1 --no-exact-windows --polish-rounds 608 --polish-seed 3000009000086 --window 48 --bp-walk false -o $P/groestl_mixbytes.358.slp
run $T/groestl_mixbytes.txt --word-level --expand -a rnbp --resynth 800 --seed 35 --runs 1 --polish-rounds 224 --polish-seed 3000009000086 --small-windows 0 --window 48 --plateau 0.5 --bp-walk false -o $P/groestl_mixbytes.357.slp
run --circulant 01,01,04,01,08,05,02,09 --field 0x11d --word-level --expand -a a1 --resynth 300 --seed 7 --runs 1 --polish-rounds 264 --polish-seed 7 --small-windows 0 --window 48 --plateau 0.5 --bp-walk false -o $P/whirlpool_mds.399.slp
run $T/bench/Khazad.txt --split --split-choice random -a rnbp --resynth 0 --seed 2 --runs 1 --polish-rounds 372 --polish-seed 2 --small-windows 0 --plateau 0.5 --bp-walk false -o $P/khazad.365.slp
run $T/bench/Khazad.txt --split --split-choice random -a rnbp --resynth 200 --seed 64 --runs 1 --polish-rounds 280,144,232,200,128,266 --polish-seed 64,2000006000098,3000009000115,5000015000149,6000018000166,7000021000183 --small-windows 0 --plateau 0.5 --bp-walk false -o $P/khazad.359.slp
run $T/bench/Khazad.txt --split --split-choice random -a a2 --resynth 200 --seed 20 --runs 1 --polish-rounds 232,16,64,112,192,56,472,104,50 --polish-seed 20,1000003000037,2000006000054,3000009000071,4000012000088,5000015000105,6000018000122,9000027000173,10000030000190 --window 48 --small-windows 0.5 --plateau 0.5 --bp-walk false -o $P/khazad.357.slp
run $T/bench/FSE_SKOP15_i_8x8_8.txt --split -a a2 --resynth 200 --seed 48 --runs 1 --split-choice cheapest --polish-rounds 160,192,240,1029 --polish-seed 48,1000003000065,3000009000099,4000012000116 --window 48 --bp-walk true --small-windows 0.5 --plateau 0.8 -o $P/fse_skop15_i_8x8_8.341.slp
"$S" slp exact $T/random8_s1.txt -t 60 -q -o $P/random8_s1.slp
