/* Checks the SUPERCOP glue made by scripts/supercop-gen.sh: scripts/test-c.sh compiles each
 * generated hash.c / encrypt.c with a stand-in for SUPERCOP's crypto_hash.h / crypto_aead.h that
 * renames crypto_hash to crypto_hash_groestl256_slicewise (and so on, as SUPERCOP's build does),
 * and links them with this program and libslicewise. One KAT per algorithm, read from KAT_DIR:
 * a byte-aligned Grøstl record of at least 1000 bits, and the last (longest) Prøst record, whose
 * tampered tag must then be rejected.
 *   supercop_check KAT_DIR */
#include "kat.h"

#define HASH(b) int crypto_hash_groestl##b##_slicewise(unsigned char *, const unsigned char *, unsigned long long);
HASH(224) HASH(256) HASH(384) HASH(512)
#undef HASH

#define AEAD(p)                                                                                         \
    int crypto_aead_##p##_slicewise_encrypt(unsigned char *, unsigned long long *, const unsigned char *,      \
                                            unsigned long long, const unsigned char *, unsigned long long,   \
                                            const unsigned char *, const unsigned char *,                    \
                                            const unsigned char *);                                           \
    int crypto_aead_##p##_slicewise_decrypt(unsigned char *, unsigned long long *, unsigned char *,            \
                                            const unsigned char *, unsigned long long, const unsigned char *, \
                                            unsigned long long, const unsigned char *, const unsigned char *);
AEAD(proest128apev1) AEAD(proest128copav1) AEAD(proest128otrv1)
AEAD(proest256apev1) AEAD(proest256copav1) AEAD(proest256otrv1)
#undef AEAD

static const struct {
    unsigned bits;
    int (*hash)(unsigned char *, const unsigned char *, unsigned long long);
} HASHES[] = {{224, crypto_hash_groestl224_slicewise},
              {256, crypto_hash_groestl256_slicewise},
              {384, crypto_hash_groestl384_slicewise},
              {512, crypto_hash_groestl512_slicewise}};

#define ENTRY(p) {#p, crypto_aead_##p##_slicewise_encrypt, crypto_aead_##p##_slicewise_decrypt}
static const struct {
    const char *name;
    int (*enc)(unsigned char *, unsigned long long *, const unsigned char *, unsigned long long,
               const unsigned char *, unsigned long long, const unsigned char *, const unsigned char *,
               const unsigned char *);
    int (*dec)(unsigned char *, unsigned long long *, unsigned char *, const unsigned char *, unsigned long long,
               const unsigned char *, unsigned long long, const unsigned char *, const unsigned char *);
} AEADS[] = {ENTRY(proest128apev1), ENTRY(proest128copav1), ENTRY(proest128otrv1),
             ENTRY(proest256apev1), ENTRY(proest256copav1), ENTRY(proest256otrv1)};

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s KAT_DIR\n", argv[0]);
        return 2;
    }
    char path[4096];
    for (size_t i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/ShortMsgKAT_%u.txt", argv[1], HASHES[i].bits);
        hash_kat k;
        memset(&k, 0, sizeof k);
        int found = 0;
        if (kv_open(&k.r, path))
            while (!found && hash_kat_next(&k) == 1) found = k.bits >= 1000 && k.bits % 8 == 0;
        unsigned char md[64];
        CHECK(found && HASHES[i].hash(md, k.msg.b, k.bits / 8) == 0 && !memcmp(md, k.md.b, k.md.n),
              "crypto_hash_groestl%u_slicewise, Len = %llu", HASHES[i].bits, k.bits);
        printf("  crypto_hash/groestl%u/slicewise: Len = %llu KAT %s\n", HASHES[i].bits, k.bits,
               g_failures ? "FAILS" : "ok");
        hash_kat_close(&k);
    }
    for (size_t i = 0; i < 6; i++) {
        snprintf(path, sizeof path, "%s/%s.txt", argv[1], AEADS[i].name);
        aead_kat k;
        memset(&k, 0, sizeof k);
        int found = 0;
        if (kv_open(&k.r, path))
            while (aead_kat_next(&k) == 1) found = k.count == 1096;
        CHECK(found, "%s: no record 1096", path);
        if (!found) continue;
        unsigned char *c = xmalloc(k.ct.n), *m = xmalloc(k.ct.n);
        unsigned long long clen = 0, mlen = 0;
        unsigned long before = g_failures;
        CHECK(AEADS[i].enc(c, &clen, k.pt.b, k.pt.n, k.ad.b, k.ad.n, NULL, k.nonce.b, k.key.b) == 0 &&
                  clen == k.ct.n && !memcmp(c, k.ct.b, clen),
              "%s encrypt", AEADS[i].name);
        CHECK(AEADS[i].dec(m, &mlen, NULL, k.ct.b, k.ct.n, k.ad.b, k.ad.n, k.nonce.b, k.key.b) == 0 &&
                  mlen == k.pt.n && !memcmp(m, k.pt.b, mlen),
              "%s decrypt", AEADS[i].name);
        c[clen - 1] ^= 1;
        CHECK(AEADS[i].dec(m, &mlen, NULL, c, clen, k.ad.b, k.ad.n, k.nonce.b, k.key.b) == -1 && mlen == 0,
              "%s forged tag accepted", AEADS[i].name);
        printf("  crypto_aead/%s/slicewise: Count = 1096 KAT (PT %zu, AD %zu bytes) and a forged tag %s\n",
               AEADS[i].name, k.pt.n, k.ad.n, g_failures == before ? "ok" : "FAIL");
        free(c);
        free(m);
        aead_kat_close(&k);
    }
    printf("supercop-glue: %lu passed, %lu failed\n", g_checks - g_failures, g_failures);
    return g_failures ? 1 : 0;
}
