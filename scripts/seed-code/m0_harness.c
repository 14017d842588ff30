/* Cortex-M0 firmware around one SUPERCOP Grøstl-256 implementation (issue 34), built and run by
 * scripts/seed-code/embedded.sh (mode m0) under qemu-system-arm -machine microbit -cpu cortex-m0
 * (memory map: m0_link.ld). The measurement is m0_avr_bench.h's; this file is the platform:
 * output through semihosting, exit status 0 or 1, and instead of a cycle counter (QEMU has none)
 * calls of `bench_mark` around the measured call, whose instruction trace embedded/cycles.py
 * turns into instructions and Cortex-M0 model cycles (its firmware lines say `cycles 0`).
 * Nothing of SUPERCOP is in this file. */
#include <stddef.h>
#include <stdint.h>

#include "m0_kat.h" /* SEED_HASH, SEED_NAME, KAT_N, kat_len[], kat_md[][32] (generated) */

typedef uintptr_t addr_t;
#define ROM_U16(p) (*(p))
#define ROM_U8(p) (*(p))

/* ARM semihosting. */
static int semihost(int op, const void *arg) {
    register int r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

/* One line at a time to SYS_WRITE on ":tt" (QEMU's stdout, which cycles.py reads; it is
 * cortex-m-semihosting's hstdout). */
static void put_char(char c) {
    static char line[128];
    static size_t n;
    static int handle = -1;
    line[n++] = c;
    if (c != '\n' && n < sizeof line) return;
    if (handle < 0) {
        const uintptr_t open[3] = {(uintptr_t)":tt", 4 /* "w" */, 3};
        handle = semihost(0x01, open);
    }
    const uintptr_t write[3] = {(uintptr_t)handle, (uintptr_t)line, n};
    semihost(0x05, write);
    n = 0;
}

static void OUT(const char *s) {
    while (*s) put_char(*s++);
}

static void __attribute__((noreturn)) finish(int pass) {
    /* SYS_EXIT, ADP_Stopped_ApplicationExit: QEMU exits 0; RunTimeErrorUnknown: 1. */
    semihost(0x18, (const void *)(uintptr_t)(pass ? 0x20026 : 0x20023));
    for (;;) __asm__ volatile("bkpt 0");
}

static addr_t read_sp(void) {
    addr_t sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    return sp;
}

/* embedded/cycles.py counts the instructions between consecutive entries of this symbol. */
void __attribute__((noinline, used)) bench_mark(void) { __asm__ volatile("nop"); }
static void cycles_start(void) { bench_mark(); }
static uint32_t cycles_stop(void) {
    bench_mark();
    return 0;
}

#include "m0_avr_bench.h"

/* Start-up: .data from flash, .bss cleared, then main; a fault ends the run with status 1. */
extern uint32_t _sidata[], _sdata[], _edata[], _sbss[], _ebss[], _estack[];

void __attribute__((noreturn)) reset_handler(void) {
    uint32_t *s = _sidata;
    for (uint32_t *d = _sdata; d < _edata;) *d++ = *s++;
    for (uint32_t *d = _sbss; d < _ebss;) *d++ = 0;
    main();
    finish(0);
}

static void __attribute__((noreturn)) fault_handler(void) {
    OUT("PANIC: fault\nRESULT: FAIL\n");
    finish(0);
}

__attribute__((section(".vectors"), used)) static void *const vectors[16] = {
    _estack, (void *)reset_handler, (void *)fault_handler, (void *)fault_handler,
};
