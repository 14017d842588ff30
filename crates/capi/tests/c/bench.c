/* Cycles per byte of the C entry points, measured as `slicewise bench groestl` measures the Rust
 * API (crates/cli/src/cycles.rs): 20 ms warm-up, then 31 samples, each timing back-to-back calls
 * over at least 1 MiB with rdtsc; the median sample is reported.  x86-64 only.
 *   cc -O2 -Icrates/capi/include bench.c target/release/libslicewise.a -lpthread -ldl -lm -o bench */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include "slicewise.h"

#define SAMPLES 31

static unsigned char *g_msg;
static unsigned char g_out[64];

static int cmp(const void *a, const void *b) {
    unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;
    return x < y ? -1 : x > y;
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

typedef int (*hash_fn)(unsigned char *, const unsigned char *, unsigned long long);

/* Grøstl through the streaming API: init, one update, final. */
static int stream256(unsigned char *out, const unsigned char *in, unsigned long long n) {
    slicewise_groestl_state st;
    int rc = slicewise_groestl_init(&st, 256);
    rc |= slicewise_groestl_update(&st, in, n);
    return rc | slicewise_groestl_final(&st, out);
}

static double cycles_per_byte(hash_fn f, size_t len) {
    size_t reps = ((size_t)1 << 20) / len;
    if (reps == 0) reps = 1;
    int rc = 0;
    for (double t0 = now_ms(); now_ms() - t0 < 20;) rc |= f(g_out, g_msg, len);
    unsigned long long s[SAMPLES];
    for (int i = 0; i < SAMPLES; i++) {
        unsigned long long t0 = __rdtsc();
        for (size_t r = 0; r < reps; r++) rc |= f(g_out, g_msg, len);
        s[i] = __rdtsc() - t0;
    }
    if (rc) {
        fprintf(stderr, "hash failed: %s\n", slicewise_strerror(rc));
        exit(1);
    }
    qsort(s, SAMPLES, sizeof s[0], cmp);
    return (double)s[SAMPLES / 2] / ((double)reps * (double)len);
}

int main(void) {
    static const struct {
        const char *name;
        hash_fn f;
    } FNS[] = {{"slicewise_groestl256_hash", slicewise_groestl256_hash},
               {"slicewise_groestl512_hash", slicewise_groestl512_hash},
               {"groestl_init/update/final (256)", stream256}};
    size_t big = (size_t)1 << 20;
    g_msg = malloc(big);
    if (!g_msg) return 1;
    for (size_t i = 0; i < big; i++) g_msg[i] = (unsigned char)(i * 131 + 7);
    printf("libslicewise %s, Grøstl backend %s; TSC cycles/byte, median of %d samples\n", slicewise_version(),
           slicewise_groestl_backend_name(), SAMPLES);
    printf("| function | 64 B | 1 MiB |\n|---|---|---|\n");
    for (size_t i = 0; i < sizeof FNS / sizeof FNS[0]; i++)
        printf("| `%s` | %.2f | %.2f |\n", FNS[i].name, cycles_per_byte(FNS[i].f, 64), cycles_per_byte(FNS[i].f, big));
    free(g_msg);
    return 0;
}
