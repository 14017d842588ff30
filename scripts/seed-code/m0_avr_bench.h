/* The measurement shared by m0_harness.c and avr_harness.c (scripts/seed-code/embedded.sh, issue
 * 34): one SUPERCOP Grøstl-256 implementation measured as embedded/firmware/src/bench.rs measures
 * slicewise's `mcu`:
 *   - the same message (byte i = 7i + 3) of 1024 and 2048 bytes, the digest to a static buffer
 *     (the caller's memory, as the message: XBX's crypto_hash(out, in, inlen));
 *   - stack: 8 KiB below the painting function's sp filled with 0xA5, one call, the deepest
 *     overwritten byte (bench.rs's paint/used, without its 64 bytes of margin, which would make
 *     64 B the least figure: Feichtner's AVR routines use less);
 *   - time: a second call between cycles_start() and cycles_stop() (the platform's).
 * Before that, and on every measured call, the digests are compared with the expected ones
 * (KAT_N, kat_len[], kat_md[][32] of the generated *_kat.h: Python Grøstl-256, itself checked
 * against the official Short KAT). Prints `kat LEN: ok|WRONG`, `NAME LEN: cycles C stack S` per
 * measurement (the firmware's line format) and `RESULT: PASS` or `RESULT: FAIL`.
 *
 * The including file defines first: addr_t (an address as an integer), read_sp(), OUT("literal"),
 * put_char(c), ROM_U16(p)/ROM_U8(p) (reads of the KAT tables), cycles_start(), cycles_stop(),
 * finish(pass) and, from *_kat.h, SEED_HASH and SEED_NAME. Nothing of SUPERCOP is in this file. */
#ifndef M0_AVR_BENCH_H
#define M0_AVR_BENCH_H

#include <stddef.h>
#include <stdint.h>

int SEED_HASH(unsigned char *out, const unsigned char *in, unsigned long long inlen);

#define PAINT 8192u
#define PATTERN 0xA5u
#define LONG 2048u

static uint8_t msg[LONG];
static uint8_t digest[64];

static void out_u32(uint32_t n) {
    char buf[10];
    int i = 10;
    do {
        buf[--i] = (char)('0' + n % 10);
        n /= 10;
    } while (n);
    for (; i < 10; i++) put_char(buf[i]);
}

/* Fills [sp - PAINT, sp) with the pattern; returns sp. */
static addr_t __attribute__((noinline)) paint(void) {
    addr_t sp = read_sp();
    for (addr_t a = sp - PAINT; a < sp; a++) *(volatile uint8_t *)a = PATTERN;
    return sp;
}

/* Bytes below sp written since paint (down to the lowest non-pattern byte). */
static uint32_t __attribute__((noinline)) used(addr_t sp) {
    addr_t low = sp;
    for (addr_t a = sp; a-- > sp - PAINT;)
        if (*(volatile uint8_t *)a != PATTERN) low = a;
    return (uint32_t)(sp - low);
}

/* Called through a volatile pointer so that the compiler can neither inline nor specialise it. */
static void __attribute__((noinline)) hash(size_t len) { SEED_HASH(digest, msg, len); }
static void __attribute__((noinline)) nothing(size_t len) { (void)len; }
static void (*volatile hash_fn)(size_t) = hash;
static void (*volatile nothing_fn)(size_t) = nothing;

/* Whether the digest is the expected one for a message of len bytes. */
static int check(size_t len) {
    for (unsigned k = 0; k < KAT_N; k++)
        if (ROM_U16(&kat_len[k]) == len) {
            for (unsigned i = 0; i < 32; i++)
                if (digest[i] != ROM_U8(&kat_md[k][i])) return 0;
            return 1;
        }
    return 0;
}

/* Stack, then cycles, of f(len); prints `NAME LEN: cycles C stack S`. */
static void measure(int seed, size_t len, void (*f)(size_t)) {
    addr_t sp = paint();
    f(len);
    uint32_t stack = used(sp);
    cycles_start();
    f(len);
    uint32_t cycles = cycles_stop();
    if (seed)
        OUT(SEED_NAME " ");
    else
        OUT("empty ");
    out_u32((uint32_t)len);
    OUT(": cycles ");
    out_u32(cycles);
    OUT(" stack ");
    out_u32(stack);
    OUT("\n");
}

int main(void) {
    int pass = 1;
    for (unsigned i = 0; i < LONG; i++) msg[i] = (uint8_t)(7 * i + 3);
    OUT("seed " SEED_NAME "\n");
    for (unsigned k = 0; k < KAT_N; k++) {
        size_t len = ROM_U16(&kat_len[k]);
        for (unsigned i = 0; i < 32; i++) digest[i] = 0;
        hash_fn(len);
        int ok = check(len);
        pass &= ok;
        OUT("kat ");
        out_u32((uint32_t)len);
        if (ok)
            OUT(": ok\n");
        else
            OUT(": WRONG\n");
    }
    if (pass) {
        measure(0, 0, nothing_fn);
        for (size_t len = 1024; len <= LONG; len *= 2) {
            for (unsigned i = 0; i < 32; i++) digest[i] = 0;
            measure(1, len, hash_fn);
            if (!check(len)) {
                OUT("measured digest WRONG\n");
                pass = 0;
            }
        }
    }
    if (pass)
        OUT("RESULT: PASS\n");
    else
        OUT("RESULT: FAIL\n");
    finish(pass);
}

#endif
