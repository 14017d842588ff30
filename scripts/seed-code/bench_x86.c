/* The Grøstl team's own x86 implementations from SUPERCOP beside libslicewise, in one process
 * (issue 36).  Built and run by scripts/seed-code.sh, which compiles each SUPERCOP
 * implementation into an object exporting only crypto_hash_groestl{256,512}_<impl> and writes
 * seeds.h, the list of those functions:
 *   #define SEEDS_256(X) X(crypto_hash_groestl256_aesni, "aesni") ...
 *   #define SEEDS_512(X) ...
 * No SUPERCOP code is in this file; it only calls crypto_hash through those names.
 *
 * 1. Checks every seed implementation and every forced libslicewise backend against
 *    libslicewise's process-wide backend on lengths 0..300 and on 1 MiB; a mismatch is reported
 *    and that implementation is left out of the timing.
 * 2. Times every implementation left at 64 B, 16 KiB and 1 MiB as crates/capi/tests/c/bench.c
 *    times the C API: a sample is back-to-back calls over at least 1 MiB, timed with rdtsc.
 *    The implementations take turns sample by sample (round-robin), so that a burst of load from
 *    other processes hits all of them alike; each cell is the median of N samples, and the
 *    figure reported is the minimum of R such medians (R runs).
 * 3. Prints one markdown table per algorithm: TSC cycles/byte per size, and for every
 *    libslicewise row the speed-up "fastest seed c/B / this row's c/B" per size.
 *
 * SEED_NOT_BUILT (in seeds.h) names the implementations that failed to build, and why.
 * --sample-bytes B makes a sample at least B bytes of calls instead of 1 MiB (one call at 1 MiB):
 * shorter samples are preempted less often on a loaded machine.  The output also tells how many
 * samples saw an involuntary context switch (getrusage), a measure of the load.
 * Usage: bench_x86 [--runs R] [--samples N] [--sample-bytes B] [--backends a,b,...] [--quick]
 * SLICEWISE_BACKEND chooses the process-wide backend of libslicewise as usual. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <unistd.h>
#include <x86intrin.h>

#include "seeds.h"
#include "slicewise.h"

#define MAX_IMPLS 32
#define NSIZES 3
#define MIB ((size_t)1 << 20)

typedef int (*hash_fn)(unsigned char *, const unsigned char *, unsigned long long);

#define DECLARE(fn, name) int fn(unsigned char *, const unsigned char *, unsigned long long);
SEEDS_256(DECLARE)
SEEDS_512(DECLARE)

enum kind { SEED, SW_ONESHOT, SW_FORCED };

struct impl {
    enum kind kind;
    const char *name;    /* seed implementation or backend name */
    hash_fn f;           /* SEED and SW_ONESHOT */
    unsigned bits;
    int excluded;
    char why[160];
    double run_median[NSIZES];
    double best[NSIZES]; /* minimum over the runs of the medians, c/B */
};

static const size_t SIZES[NSIZES] = {64, 16384, MIB};
static const char *SIZE_NAMES[NSIZES] = {"64 B", "16 KiB", "1 MiB"};
static const char *DEFAULT_BACKENDS = "gfni,avx512,gfniavx2,vaes,avx2,aesni,vperm";

static unsigned char *g_msg;
static size_t g_sample_bytes = MIB;
static unsigned long long g_samples_taken, g_samples_preempted;

static int hash(const struct impl *im, unsigned char *out, const unsigned char *in, size_t len) {
    if (im->kind != SW_FORCED) return im->f(out, in, len);
    slicewise_groestl_state st;
    int rc = slicewise_groestl_init_backend(&st, im->bits, im->name);
    rc |= slicewise_groestl_update(&st, in, len);
    return rc | slicewise_groestl_final(&st, out);
}

/* The median of n samples (insertion sort in place: n is at most 1024). */
static unsigned long long median(unsigned long long *v, size_t n) {
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
            unsigned long long t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return v[n / 2];
}

static void hex(char *dst, const unsigned char *d, size_t n) {
    for (size_t i = 0; i < n; i++) sprintf(dst + 2 * i, "%02x", d[i]);
}

/* Compares `im` with the process-wide libslicewise backend on lengths 0..300 and 1 MiB. */
static void check(struct impl *im, hash_fn reference) {
    size_t outlen = im->bits / 8;
    size_t lens[302];
    for (size_t i = 0; i <= 300; i++) lens[i] = i;
    lens[301] = MIB;
    for (size_t k = 0; k < 302; k++) {
        unsigned char want[64], got[64];
        memset(got, 0xa5, sizeof got);
        int rc = reference(want, g_msg, lens[k]);
        if (rc) {
            fprintf(stderr, "libslicewise failed: %s\n", slicewise_strerror(rc));
            exit(1);
        }
        rc = hash(im, got, g_msg, lens[k]);
        if (rc || memcmp(want, got, outlen)) {
            char w[129], g[129];
            hex(w, want, outlen);
            hex(g, got, outlen);
            im->excluded = 1;
            if (rc)
                snprintf(im->why, sizeof im->why, "returned %d at length %zu", rc, lens[k]);
            else
                snprintf(im->why, sizeof im->why, "wrong digest at length %zu (%.16s... for %.16s...)", lens[k], g,
                         w);
            return;
        }
    }
}

/* One sample of `im` at `len`: back-to-back calls over at least 1 MiB, in TSC cycles. */
static unsigned long long sample(const struct impl *im, size_t len, unsigned char *out) {
    size_t reps = g_sample_bytes > len ? (g_sample_bytes + len - 1) / len : 1;
    int rc = 0;
    unsigned long long t0 = __rdtsc();
    for (size_t r = 0; r < reps; r++) rc |= hash(im, out, g_msg, len);
    unsigned long long t = __rdtsc() - t0;
    if (rc) {
        fprintf(stderr, "%s failed during timing: %d\n", im->name, rc);
        exit(1);
    }
    return t;
}

/* Warm-up: about 4 MiB of calls (so that the first samples do not pay for cold caches, lazy
 * backend selection or a low clock). */
static void warm_up(const struct impl *im, size_t len) {
    unsigned char out[64];
    for (size_t done = 0; done < 4 * MIB; done += len + 64) hash(im, out, g_msg, len);
}

static long involuntary_switches(void) {
    struct rusage u;
    return getrusage(RUSAGE_THREAD, &u) ? -1 : u.ru_nivcsw;
}

/* One run: for each size, N samples of every implementation, taken in turns. */
static void run(struct impl *ims, size_t n, int samples) {
    static unsigned long long s[MAX_IMPLS][1024];
    unsigned char out[64];
    for (int z = 0; z < NSIZES; z++) {
        size_t len = SIZES[z];
        size_t reps = g_sample_bytes > len ? (g_sample_bytes + len - 1) / len : 1;
        for (size_t i = 0; i < n; i++)
            if (!ims[i].excluded) warm_up(&ims[i], len);
        for (int k = 0; k < samples; k++)
            for (size_t j = 0; j < n; j++) {
                /* rotate the starting implementation so that none is always first after another */
                size_t i = (j + (size_t)k) % n;
                if (ims[i].excluded) continue;
                long before = involuntary_switches();
                s[i][k] = sample(&ims[i], len, out);
                g_samples_taken++;
                g_samples_preempted += involuntary_switches() != before;
            }
        for (size_t i = 0; i < n; i++) {
            if (ims[i].excluded) continue;
            ims[i].run_median[z] = (double)median(s[i], (size_t)samples) / ((double)reps * (double)len);
        }
    }
}

static double loadavg(void) {
    double l = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &l) != 1) l = -1;
        fclose(f);
    }
    return l;
}

static void cpu_line(void) {
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512], model[256] = "?", family[32] = "?", modelno[32] = "?";
    if (f) {
        while (fgets(line, sizeof line, f)) {
            char *v = strchr(line, ':');
            if (!v) continue;
            v += 2;
            v[strcspn(v, "\n")] = 0;
            if (!strncmp(line, "model name", 10) && model[0] == '?') snprintf(model, sizeof model, "%s", v);
            else if (!strncmp(line, "cpu family", 10) && family[0] == '?') snprintf(family, sizeof family, "%s", v);
            else if (!strncmp(line, "model\t", 6) && modelno[0] == '?') snprintf(modelno, sizeof modelno, "%s", v);
        }
        fclose(f);
    }
    int fam = atoi(family), mod = atoi(modelno);
    printf("CPU: %s, family %d (0x%X) model %d (0x%X); %ld logical CPUs online\n", model, fam, fam, mod, mod,
           sysconf(_SC_NPROCESSORS_ONLN));
}

static void table(struct impl *ims, size_t n, unsigned bits) {
    double seed_best[NSIZES];
    const char *seed_name[NSIZES];
    for (int z = 0; z < NSIZES; z++) {
        seed_best[z] = 0;
        seed_name[z] = NULL;
        for (size_t i = 0; i < n; i++)
            if (ims[i].kind == SEED && !ims[i].excluded && (!seed_name[z] || ims[i].best[z] < seed_best[z])) {
                seed_best[z] = ims[i].best[z];
                seed_name[z] = ims[i].name;
            }
    }
    printf("\n### Grøstl-%u\n\n", bits);
    printf("| implementation | 64 B | 16 KiB | 1 MiB | fastest seed ÷ this, 64 B | 16 KiB | 1 MiB |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < n; i++) {
        const struct impl *im = &ims[i];
        if (im->kind == SEED) printf("| seed `%s` (SUPERCOP, gcc)", im->name);
        else if (im->kind == SW_ONESHOT) printf("| **libslicewise, process-wide backend `%s`**", im->name);
        else printf("| libslicewise, `%s` forced", im->name);
        if (im->excluded) {
            printf(" | excluded: %s | | | | | |\n", im->why);
            continue;
        }
        for (int z = 0; z < NSIZES; z++) printf(" | %.2f", im->best[z]);
        for (int z = 0; z < NSIZES; z++) {
            if (im->kind == SEED || !seed_name[z]) printf(" |");
            else if (im->kind == SW_ONESHOT) printf(" | **%.2f×**", seed_best[z] / im->best[z]);
            else printf(" | %.2f×", seed_best[z] / im->best[z]);
        }
        printf(" |\n");
    }
    printf("\nFastest seed:");
    for (int z = 0; z < NSIZES; z++)
        printf(" %s `%s` %.2f c/B%s", SIZE_NAMES[z], seed_name[z] ? seed_name[z] : "none", seed_best[z],
               z + 1 < NSIZES ? ";" : ".\n");
}

static size_t add_impls(struct impl *ims, unsigned bits, const char *backends, const hash_fn *seeds,
                        const char *const *names, size_t nseeds) {
    size_t n = 0;
    for (size_t i = 0; i < nseeds; i++) {
        ims[n] = (struct impl){.kind = SEED, .name = names[i], .f = seeds[i], .bits = bits};
        n++;
    }
    const char *pw = slicewise_groestl_backend_name();
    ims[n] = (struct impl){.kind = SW_ONESHOT,
                           .name = pw,
                           .f = bits == 256 ? slicewise_groestl256_hash : slicewise_groestl512_hash,
                           .bits = bits};
    n++;
    char *list = strdup(backends);
    for (char *save = NULL, *b = strtok_r(list, ",", &save); b; b = strtok_r(NULL, ",", &save)) {
        slicewise_groestl_state st;
        int rc = slicewise_groestl_init_backend(&st, bits, b);
        if (rc) {
            printf("note: backend `%s` not timed for Grøstl-%u: %s\n", b, bits, slicewise_strerror(rc));
            continue;
        }
        unsigned char out[64];
        slicewise_groestl_final(&st, out);
        if (n == MAX_IMPLS) break;
        ims[n] = (struct impl){.kind = SW_FORCED, .name = strdup(b), .bits = bits};
        n++;
    }
    free(list);
    return n;
}

int main(int argc, char **argv) {
    int runs = 7, samples = 21;
    const char *backends = DEFAULT_BACKENDS;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--samples") && i + 1 < argc) samples = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--backends") && i + 1 < argc) backends = argv[++i];
        else if (!strcmp(argv[i], "--sample-bytes") && i + 1 < argc) g_sample_bytes = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--quick")) runs = 1, samples = 5;
        else {
            fprintf(stderr, "usage: %s [--runs R] [--samples N] [--sample-bytes B] [--backends a,b,...] [--quick]\n", argv[0]);
            return 2;
        }
    }
    if (runs < 1 || samples < 1 || samples > 1024 || g_sample_bytes < 1) {
        fprintf(stderr, "--runs must be >= 1 and --samples in 1..1024\n");
        return 2;
    }
    if (!slicewise_groestl_backend_name()) {
        fprintf(stderr, "SLICEWISE_BACKEND names an unknown or unavailable backend\n");
        return 2;
    }
    g_msg = malloc(MIB);
    if (!g_msg) return 1;
    for (size_t i = 0; i < MIB; i++) g_msg[i] = (unsigned char)(i * 131 + 7);

#define FN(fn, name) fn,
#define NAME(fn, name) name,
    static const hash_fn seeds256[] = {SEEDS_256(FN) NULL}, seeds512[] = {SEEDS_512(FN) NULL};
    static const char *const names256[] = {SEEDS_256(NAME) NULL}, *const names512[] = {SEEDS_512(NAME) NULL};
    static struct impl ims256[MAX_IMPLS], ims512[MAX_IMPLS];
    size_t n256 = add_impls(ims256, 256, backends, seeds256, names256, sizeof seeds256 / sizeof *seeds256 - 1);
    size_t n512 = add_impls(ims512, 512, backends, seeds512, names512, sizeof seeds512 / sizeof *seeds512 - 1);

    time_t now = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    printf("Seed code beside libslicewise (scripts/seed-code.sh x86), %s\n", date);
    cpu_line();
    printf("libslicewise %s (%s), process-wide Grøstl backend `%s`%s; seeds compiled with %s\n", slicewise_version(),
           SLICEWISE_SOURCE,
           slicewise_groestl_backend_name(), getenv("SLICEWISE_BACKEND") ? " (from SLICEWISE_BACKEND)" : " (detected)",
           SEED_CFLAGS);

    if (SEED_NOT_BUILT[0]) printf("NOT BUILT (left out): %s\n", SEED_NOT_BUILT);
    for (size_t i = 0; i < n256; i++)
        if (ims256[i].kind != SW_ONESHOT) check(&ims256[i], slicewise_groestl256_hash);
    for (size_t i = 0; i < n512; i++)
        if (ims512[i].kind != SW_ONESHOT) check(&ims512[i], slicewise_groestl512_hash);
    int bad = 0;
    for (size_t i = 0; i < n256 + n512; i++) {
        const struct impl *im = i < n256 ? &ims256[i] : &ims512[i - n256];
        if (im->excluded) {
            printf("MISMATCH: Grøstl-%u %s %s: %s; excluded from the timing\n", im->bits,
                   im->kind == SEED ? "seed" : "libslicewise backend", im->name, im->why);
            bad++;
        }
    }
    printf("checked against libslicewise on lengths 0..300 and 1 MiB: %zu implementations, %d mismatches\n",
           n256 + n512 - 2, bad);

    double load0 = loadavg();
    time_t t0 = time(NULL);
    for (int r = 0; r < runs; r++) {
        run(ims256, n256, samples);
        run(ims512, n512, samples);
        for (size_t i = 0; i < n256 + n512; i++) {
            struct impl *im = i < n256 ? &ims256[i] : &ims512[i - n256];
            for (int z = 0; z < NSIZES; z++)
                if (r == 0 || im->run_median[z] < im->best[z]) im->best[z] = im->run_median[z];
        }
        fprintf(stderr, "run %d/%d done (%.0f s)\n", r + 1, runs, difftime(time(NULL), t0));
    }
    double load1 = loadavg();
    printf("TSC cycles/byte: each cell the minimum over %d runs of the median of %d samples (each sample >= %zu "
           "bytes of back-to-back calls, at least one call), implementations interleaved sample by sample; "
           "1-minute load average %.2f before, %.2f after; %.1f%% of the %llu samples saw an involuntary context "
           "switch (a shared machine: other processes ran meanwhile).\n",
           runs, samples, g_sample_bytes, load0, load1,
           g_samples_taken ? 100.0 * (double)g_samples_preempted / (double)g_samples_taken : 0.0, g_samples_taken);
    printf("Seed rows call crypto_hash; the process-wide row calls slicewise_groestl%s_hash; forced rows call "
           "slicewise_groestl_init_backend/update/final. Speed-up = fastest seed c/B ÷ libslicewise c/B "
           "(issue 36 asks >= 1.5).\n",
           "{256,512}");
    table(ims256, n256, 256);
    table(ims512, n512, 512);
    free(g_msg);
    return 0;
}
