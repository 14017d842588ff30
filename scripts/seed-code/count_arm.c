/* The Grøstl and Prøst teams' own ARM code from SUPERCOP beside libslicewise, for instruction
 * counts under qemu-user (issue 34).  Built and run by scripts/seed-code/arm.sh, which compiles
 * each SUPERCOP implementation into an object exporting only its crypto_hash_<alg>_<impl> (or
 * crypto_aead_<alg>_<impl>_encrypt and _decrypt) and writes seeds.h, the list of them:
 *   #define SEEDS_HASH(X) X(crypto_hash_groestl256_arm11, "groestl256", "arm11", 32) ...
 *   #define SEEDS_AEAD(X) X(crypto_aead_proest128otrv1_arm_encrypt,
 *                           crypto_aead_proest128otrv1_arm_decrypt, "proest128otrv1", "arm",
 *                           KEYBYTES, NPUBBYTES, ABYTES) ...
 * No SUPERCOP code is in this file; it only calls those names.
 *
 *   count_arm list
 *       one line per seed: ALG IMPL
 *   count_arm check
 *       every seed against libslicewise (its process-wide backend, SLICEWISE_BACKEND as usual):
 *       hashes of lengths 0..300 and 16 KiB; AEAD encryptions of message lengths 0..300 and
 *       16 KiB without associated data, of associated data of lengths 1..100 with messages of
 *       0, 1, 31, 32, 33 and 64 bytes, and the seed's decryption of each ciphertext (it must give
 *       the message back, and reject the ciphertext with its last byte flipped).  One line per
 *       seed: "ok ALG IMPL (N cases)" or "DISAGREES ALG IMPL: ..."; exit status 1 if any disagrees.
 *   count_arm run ALG IMPL BYTES N
 *       N calls on one fixed message of BYTES bytes (byte i = i * 131 + 7, as in
 *       scripts/count-insns/src/main.rs; AEADs: key bytes 7, nonce bytes 9, no associated data),
 *       then "ALG IMPL BYTES xN: FINGERPRINT", the fingerprint being the first 16 bytes of the
 *       digest, or the last 16 bytes of the ciphertext, printed as count-insns prints them (so the
 *       two drivers' fingerprints can be compared). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seeds.h"
#include "slicewise.h"

typedef int (*hash_fn)(unsigned char *, const unsigned char *, unsigned long long);
typedef int (*enc_fn)(unsigned char *, unsigned long long *, const unsigned char *, unsigned long long,
                      const unsigned char *, unsigned long long, const unsigned char *, const unsigned char *,
                      const unsigned char *);
typedef int (*dec_fn)(unsigned char *, unsigned long long *, unsigned char *, const unsigned char *,
                      unsigned long long, const unsigned char *, unsigned long long, const unsigned char *,
                      const unsigned char *);

#define DECLARE_HASH(fn, alg, impl, bytes) int fn(unsigned char *, const unsigned char *, unsigned long long);
#define DECLARE_AEAD(enc, dec, alg, impl, kb, nb, ab)                                                           \
    int enc(unsigned char *, unsigned long long *, const unsigned char *, unsigned long long,                   \
            const unsigned char *, unsigned long long, const unsigned char *, const unsigned char *,           \
            const unsigned char *);                                                                            \
    int dec(unsigned char *, unsigned long long *, unsigned char *, const unsigned char *, unsigned long long, \
            const unsigned char *, unsigned long long, const unsigned char *, const unsigned char *);
SEEDS_HASH(DECLARE_HASH)
SEEDS_AEAD(DECLARE_AEAD)

struct seed {
    const char *alg, *impl;
    hash_fn hash;
    enc_fn enc;
    dec_fn dec;
    unsigned bytes, keybytes, npubbytes, abytes;
};

#define HASH_ENTRY(fn, alg, impl, bytes) {alg, impl, fn, NULL, NULL, bytes, 0, 0, 0},
#define AEAD_ENTRY(enc, dec, alg, impl, kb, nb, ab) {alg, impl, NULL, enc, dec, 0, kb, nb, ab},
static const struct seed SEEDS[] = {SEEDS_HASH(HASH_ENTRY) SEEDS_AEAD(AEAD_ENTRY) {NULL, NULL, NULL, NULL, NULL, 0, 0, 0, 0}};

#define BIG 16384
#define MAXTAG 64

/* libslicewise's function for a seed's algorithm. */
static hash_fn ours_hash(const char *alg) {
    if (!strcmp(alg, "groestl224")) return slicewise_groestl224_hash;
    if (!strcmp(alg, "groestl256")) return slicewise_groestl256_hash;
    if (!strcmp(alg, "groestl384")) return slicewise_groestl384_hash;
    if (!strcmp(alg, "groestl512")) return slicewise_groestl512_hash;
    return NULL;
}

static enc_fn ours_enc(const char *alg) {
    if (!strcmp(alg, "proest128apev1")) return slicewise_proest128ape_encrypt;
    if (!strcmp(alg, "proest128copav1")) return slicewise_proest128copa_encrypt;
    if (!strcmp(alg, "proest128otrv1")) return slicewise_proest128otr_encrypt;
    if (!strcmp(alg, "proest256apev1")) return slicewise_proest256ape_encrypt;
    if (!strcmp(alg, "proest256copav1")) return slicewise_proest256copa_encrypt;
    if (!strcmp(alg, "proest256otrv1")) return slicewise_proest256otr_encrypt;
    return NULL;
}

/* 16-byte aligned buffers (some seeds load words and doublewords from their input). */
static unsigned char g_msg[BIG + 64] __attribute__((aligned(16)));
static unsigned char g_ad[128] __attribute__((aligned(16)));
static unsigned char g_c1[BIG + MAXTAG + 64] __attribute__((aligned(16)));
static unsigned char g_c2[BIG + MAXTAG + 64] __attribute__((aligned(16)));
static unsigned char g_m2[BIG + MAXTAG + 64] __attribute__((aligned(16)));

static void fill_message(size_t n) {
    for (size_t i = 0; i < n; i++) g_msg[i] = (unsigned char)(i * 131 + 7);
}

static const struct seed *find(const char *alg, const char *impl) {
    for (const struct seed *s = SEEDS; s->alg; s++)
        if (!strcmp(s->alg, alg) && !strcmp(s->impl, impl)) return s;
    return NULL;
}

static void hex(char *dst, const unsigned char *b, size_t n) {
    for (size_t i = 0; i < n; i++) sprintf(dst + 2 * i, "%02x", b[i]);
}

/* One AEAD case against libslicewise; returns 0 if it agrees, else writes why. */
static int aead_case(const struct seed *s, enc_fn ours, size_t mlen, size_t adlen, char *why, size_t whylen) {
    unsigned char key[64], npub[64];
    memset(key, 7, sizeof key);
    memset(npub, 9, sizeof npub);
    unsigned long long l1 = 0, l2 = 0, ml = 0;
    memset(g_c1, 0xaa, mlen + s->abytes);
    memset(g_c2, 0x55, mlen + s->abytes);
    int r1 = s->enc(g_c1, &l1, g_msg, mlen, g_ad, adlen, NULL, npub, key);
    int r2 = ours(g_c2, &l2, g_msg, mlen, g_ad, adlen, NULL, npub, key);
    if (r1 != 0 || r2 != 0 || l1 != l2 || memcmp(g_c1, g_c2, l1) != 0) {
        snprintf(why, whylen, "encryption of %zu bytes with %zu bytes of associated data: seed returned %d, clen %llu; slicewise %d, clen %llu%s",
                 mlen, adlen, r1, l1, r2, l2, (l1 == l2 && r1 == 0 && r2 == 0) ? "; ciphertexts differ" : "");
        return 1;
    }
    if (s->dec(g_m2, &ml, NULL, g_c1, l1, g_ad, adlen, npub, key) != 0 || ml != mlen || memcmp(g_m2, g_msg, mlen) != 0) {
        snprintf(why, whylen, "the seed's decryption of %zu bytes with %zu bytes of associated data does not give the message back", mlen, adlen);
        return 1;
    }
    g_c1[l1 - 1] ^= 1;
    if (s->dec(g_m2, &ml, NULL, g_c1, l1, g_ad, adlen, npub, key) == 0) {
        snprintf(why, whylen, "the seed's decryption accepts a forged ciphertext (%zu bytes, %zu of associated data)", mlen, adlen);
        return 1;
    }
    return 0;
}

static int check(void) {
    int bad = 0;
    fill_message(BIG);
    for (size_t i = 0; i < sizeof g_ad; i++) g_ad[i] = (unsigned char)(i * 29 + 3);
    for (const struct seed *s = SEEDS; s->alg; s++) {
        char why[400] = "";
        unsigned cases = 0;
        int fail = 0;
        if (s->hash) {
            hash_fn ours = ours_hash(s->alg);
            unsigned char d1[64], d2[64];
            for (size_t len = 0; len <= 301 && !fail; len++) {
                size_t n = len == 301 ? BIG : len;
                memset(d1, 0xaa, sizeof d1);
                memset(d2, 0x55, sizeof d2);
                int r1 = s->hash(d1, g_msg, n), r2 = ours(d2, g_msg, n);
                cases++;
                if (r1 != 0 || r2 != 0 || memcmp(d1, d2, s->bytes) != 0) {
                    char h1[129], h2[129];
                    hex(h1, d1, s->bytes);
                    hex(h2, d2, s->bytes);
                    snprintf(why, sizeof why, "length %zu: seed %s (returned %d), slicewise %s", n, h1, r1, h2);
                    fail = 1;
                }
            }
        } else {
            enc_fn ours = ours_enc(s->alg);
            for (size_t len = 0; len <= 301 && !fail; len++, cases++)
                fail = aead_case(s, ours, len == 301 ? BIG : len, 0, why, sizeof why);
            static const size_t mlens[] = {0, 1, 31, 32, 33, 64};
            for (size_t j = 0; j < sizeof mlens / sizeof mlens[0] && !fail; j++)
                for (size_t adlen = 1; adlen <= 100 && !fail; adlen++, cases++)
                    fail = aead_case(s, ours, mlens[j], adlen, why, sizeof why);
        }
        if (fail) {
            printf("DISAGREES %s %s: %s\n", s->alg, s->impl, why);
            bad = 1;
        } else {
            printf("ok %s %s (%u cases)\n", s->alg, s->impl, cases);
        }
    }
    return bad;
}

static int run(const char *alg, const char *impl, size_t bytes, unsigned long n) {
    const struct seed *s = find(alg, impl);
    if (!s || bytes > BIG) {
        fprintf(stderr, "count_arm: no seed %s/%s, or more than %d bytes\n", alg, impl, BIG);
        return 2;
    }
    fill_message(bytes);
    unsigned char out[64], *fp;
    if (s->hash) {
        for (unsigned long i = 0; i < n; i++) s->hash(out, g_msg, bytes);
        fp = out;
    } else {
        unsigned char key[64], npub[64];
        unsigned long long clen = 0;
        memset(key, 7, sizeof key);
        memset(npub, 9, sizeof npub);
        for (unsigned long i = 0; i < n; i++) s->enc(g_c1, &clen, g_msg, bytes, NULL, 0, NULL, npub, key);
        fp = g_c1 + clen - 16;
    }
    char h[33];
    hex(h, fp, 16);
    printf("%s %s %zu x%lu: %s\n", alg, impl, bytes, n, h);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && !strcmp(argv[1], "list")) {
        for (const struct seed *s = SEEDS; s->alg; s++) printf("%s %s\n", s->alg, s->impl);
        return 0;
    }
    if (argc == 2 && !strcmp(argv[1], "check")) return check();
    if (argc == 6 && !strcmp(argv[1], "run")) return run(argv[2], argv[3], strtoul(argv[4], NULL, 10), strtoul(argv[5], NULL, 10));
    fprintf(stderr, "usage: count_arm list | check | run ALG IMPL BYTES N\n");
    return 2;
}
