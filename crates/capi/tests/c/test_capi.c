/* C tests of libslicewise, run by scripts/test-c.sh (also under AddressSanitizer):
 *   test_capi KAT_DIR
 * KAT_DIR holds the decompressed files: ShortMsgKAT_{224,256,384,512}.txt,
 * LongMsgKAT_{...}.txt, groestlcoin.json and proest{128,256}{ape,copa,otr}v1.txt.
 *
 * 1. every byte-aligned Grøstl KAT record through the one-shot and the streaming API (the
 *    bit-length records are counted and skipped: the C API takes whole bytes), and the 26
 *    Groestlcoin vectors of groestlcoin.json;
 * 2. all 6 x 1096 Prøst KATs: encryption, decryption, and in place;
 * 3. decryption failures (bit flips in ciphertext, tag, AD, nonce, key; bad lengths) return -1,
 *    set *mlen to 0 and leave exactly the plaintext region zeroed;
 * 4. the streaming API against the one-shot API at every split point, byte at a time, after
 *    memcpy of a state, on every backend this CPU has;
 * 5. argument errors (NULL pointers, bad sizes, misuse of a state);
 * 6. four threads using the library at once, each with its own state and buffers.
 * Prints a summary and exits 1 on any failure. */
#include <pthread.h>

#include "kat.h"

typedef int (*hash_fn)(unsigned char *, const unsigned char *, unsigned long long);
typedef int (*enc_fn)(unsigned char *, unsigned long long *, const unsigned char *, unsigned long long,
                      const unsigned char *, unsigned long long, const unsigned char *,
                      const unsigned char *, const unsigned char *);
typedef int (*dec_fn)(unsigned char *, unsigned long long *, unsigned char *, const unsigned char *,
                      unsigned long long, const unsigned char *, unsigned long long,
                      const unsigned char *, const unsigned char *);

static const struct {
    unsigned bits;
    hash_fn hash;
} HASHES[] = {
    {224, slicewise_groestl224_hash},
    {256, slicewise_groestl256_hash},
    {384, slicewise_groestl384_hash},
    {512, slicewise_groestl512_hash},
};

#define AEAD(name, NAME)                                                                          \
    {#name "v1", slicewise_##name##_encrypt, slicewise_##name##_decrypt,                          \
     SLICEWISE_##NAME##_KEYBYTES, SLICEWISE_##NAME##_NPUBBYTES, SLICEWISE_##NAME##_ABYTES,        \
     SLICEWISE_##NAME##_TAGBYTES}
static const struct aead {
    const char *name;
    enc_fn enc;
    dec_fn dec;
    size_t keybytes, npubbytes, abytes, tagbytes;
} AEADS[] = {
    AEAD(proest128ape, PROEST128APE),   AEAD(proest128copa, PROEST128COPA),
    AEAD(proest128otr, PROEST128OTR),   AEAD(proest256ape, PROEST256APE),
    AEAD(proest256copa, PROEST256COPA), AEAD(proest256otr, PROEST256OTR),
};

/* Grøstl through the streaming API in one update. */
static int stream_hash(unsigned bits, unsigned char *out, const unsigned char *in, size_t n) {
    slicewise_groestl_state st;
    int rc = slicewise_groestl_init(&st, bits);
    if (rc == SLICEWISE_OK) rc = slicewise_groestl_update(&st, in, n);
    if (rc == SLICEWISE_OK) rc = slicewise_groestl_final(&st, out);
    return rc;
}

static void groestl_kats(const char *dir) {
    static const char *KINDS[] = {"Short", "Long"};
    unsigned long total = 0, skipped = 0;
    for (size_t v = 0; v < sizeof HASHES / sizeof HASHES[0]; v++) {
        for (size_t kind = 0; kind < 2; kind++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%sMsgKAT_%u.txt", dir, KINDS[kind], HASHES[v].bits);
            hash_kat k;
            memset(&k, 0, sizeof k);
            CHECK(kv_open(&k.r, path), "open %s", path);
            if (!k.r.f) continue;
            unsigned long passed = 0, bitlen = 0, failed_before = g_failures;
            int got;
            while ((got = hash_kat_next(&k)) == 1) {
                if (k.bits % 8) {
                    bitlen++;
                    continue;
                }
                unsigned char one[64], streamed[64];
                size_t n = (size_t)(k.bits / 8);
                CHECK(k.md.n == HASHES[v].bits / 8, "%s: digest length", path);
                int rc1 = HASHES[v].hash(one, k.msg.b, n);
                int rc2 = stream_hash(HASHES[v].bits, streamed, k.msg.b, n);
                int ok = rc1 == 0 && rc2 == 0 && !memcmp(one, k.md.b, k.md.n) &&
                         !memcmp(streamed, k.md.b, k.md.n);
                CHECK(ok, "%s Len = %llu: rc %d/%d, digest mismatch", path, k.bits, rc1, rc2);
                passed += ok;
            }
            CHECK(got == 0, "%s: malformed record", path);
            CHECK(passed > 0 && g_failures == failed_before, "%s: no record passed or some failed", path);
            printf("  groestl-%u %-5s: %4lu byte-aligned records pass, %4lu bit-length records skipped\n",
                   HASHES[v].bits, KINDS[kind], passed, bitlen);
            total += passed;
            skipped += bitlen;
            hash_kat_close(&k);
        }
    }
    printf("Grøstl KATs: %lu byte-aligned records pass (one-shot and streaming), %lu bit-length records skipped\n",
           total, skipped);
}

static int all_zero(const unsigned char *p, size_t n) {
    unsigned char acc = 0;
    for (size_t i = 0; i < n; i++) acc |= p[i];
    return acc == 0;
}

static unsigned long g_rejections;

/* The string value of `"key": "..."` on a pretty-printed JSON line, NUL-terminated in place;
 * NULL if the line holds another key. */
static char *json_string(char *line, const char *key) {
    char *p = line;
    while (isspace((unsigned char)*p)) p++;
    size_t k = strlen(key);
    if (p[0] != '"' || strncmp(p + 1, key, k) || strncmp(p + 1 + k, "\": \"", 4)) return NULL;
    p += k + 5;
    char *q = strchr(p, '"');
    if (!q) return NULL;
    *q = '\0';
    return p;
}

/* groestlcoin.json: 26 vectors of the PyPI groestlcoin-hash package (see its README). */
static void groestlcoin_vectors(const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/groestlcoin.json", dir);
    kv_reader r;
    CHECK(kv_open(&r, path), "open %s", path);
    if (!r.f) return;
    bytes data = {0}, want = {0};
    int have_data = 0;
    unsigned long passed = 0, records = 0;
    while (read_line(&r)) {
        char *v;
        if ((v = json_string(r.line, "data"))) {
            have_data = bytes_from_hex(&data, v);
            CHECK(have_data, "%s: bad data hex", path);
        } else if ((v = json_string(r.line, "hash"))) {
            records++;
            unsigned char got[32];
            int ok = have_data && bytes_from_hex(&want, v) && want.n == 32 &&
                     slicewise_groestlcoin_hash(got, data.b, data.n) == 0 && !memcmp(got, want.b, 32);
            CHECK(ok, "%s: vector %lu (%zu bytes)", path, records, data.n);
            passed += ok;
            have_data = 0;
        }
    }
    CHECK(records == 26 && passed == records, "%s: %lu of %lu vectors pass", path, passed, records);
    printf("Groestlcoin: %lu/%lu groestlcoin-hash vectors pass\n", passed, records);
    bytes_free(&data);
    bytes_free(&want);
    kv_close(&r);
}

/* Decrypts `ct` (tampered or not) into a canary-filled buffer and checks the failure contract:
 * -1, *mlen = 0, the plaintext region (clen - TAG - 1 bytes) zero and nothing written after it. */
static void expect_reject(const struct aead *a, const unsigned char *ct, size_t clen, const unsigned char *ad,
                          size_t adlen, const unsigned char *npub, const unsigned char *key, const char *what,
                          unsigned long count) {
    size_t room = clen + 64;
    unsigned char *m = xmalloc(room);
    memset(m, 0xA5, room);
    unsigned long long mlen = 12345;
    int rc = a->dec(m, &mlen, NULL, ct, clen, ad, adlen, npub, key);
    /* Only called with the genuine ciphertext's length, so a plaintext of up to
     * clen - TAG - 1 bytes was possible: exactly that region must be zero. */
    size_t region = clen - a->tagbytes - 1;
    g_rejections++;
    CHECK(rc == SLICEWISE_ERR_VERIFY, "%s Count %lu %s: rc %d, want -1", a->name, count, what, rc);
    CHECK(mlen == 0, "%s Count %lu %s: *mlen = %llu, want 0", a->name, count, what, mlen);
    int zero = all_zero(m, region);
    int canary = 1;
    for (size_t i = region; i < room; i++) canary &= m[i] == 0xA5;
    CHECK(zero && canary, "%s Count %lu %s: output not exactly the zeroed plaintext region", a->name, count,
          what);
    free(m);
}

static void flip(unsigned char *p, size_t i, int bit) { p[i] ^= (unsigned char)(1u << bit); }

/* Tampering with each input of one valid record. */
static unsigned long forgeries(const struct aead *a, const aead_kat *k) {
    unsigned long before = g_rejections;
    size_t clen = k->ct.n;
    unsigned char *ct = xmalloc(clen), *ad = xmalloc(k->ad.n + 1), *npub = xmalloc(a->npubbytes),
                  *key = xmalloc(a->keybytes);
    memcpy(ad, k->ad.b, k->ad.n);
    memcpy(npub, k->nonce.b, a->npubbytes);
    memcpy(key, k->key.b, a->keybytes);
    /* Ciphertext body (first, middle, last byte before the tag) and tag (first, last byte). */
    size_t body = clen - a->tagbytes;
    size_t where[] = {0, body / 2, body - 1, body, clen - 1};
    for (size_t w = 0; w < sizeof where / sizeof where[0]; w++) {
        for (int bit = 0; bit < 8; bit += 7) {
            memcpy(ct, k->ct.b, clen);
            flip(ct, where[w], bit);
            expect_reject(a, ct, clen, ad, k->ad.n, npub, key, where[w] < body ? "body bit" : "tag bit", k->count);
        }
    }
    if (k->ad.n) {
        flip(ad, k->ad.n - 1, 3);
        expect_reject(a, k->ct.b, clen, ad, k->ad.n, npub, key, "AD bit", k->count);
        flip(ad, k->ad.n - 1, 3);
    }
    /* One AD byte more than was authenticated. */
    ad[k->ad.n] = 0;
    expect_reject(a, k->ct.b, clen, ad, k->ad.n + 1, npub, key, "AD extended", k->count);
    flip(npub, 0, 0);
    expect_reject(a, k->ct.b, clen, ad, k->ad.n, npub, key, "nonce bit", k->count);
    flip(npub, 0, 0);
    flip(key, a->keybytes - 1, 7);
    expect_reject(a, k->ct.b, clen, ad, k->ad.n, npub, key, "key bit", k->count);
    flip(key, a->keybytes - 1, 7);
    free(ct);
    free(ad);
    free(npub);
    free(key);
    return g_rejections - before;
}

/* A truncated or extended ciphertext: -1, *mlen = 0, nothing written for impossible lengths. */
static void bad_lengths(const struct aead *a, const aead_kat *k) {
    size_t clen = k->ct.n;
    unsigned char *m = xmalloc(clen + 64);
    unsigned char *ct = xmalloc(clen + 1);
    memcpy(ct, k->ct.b, clen);
    ct[clen] = 0;
    size_t lens[] = {0, 1, a->tagbytes, clen - 1, clen + 1};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        memset(m, 0xA5, clen + 64);
        unsigned long long mlen = 99;
        int rc = a->dec(m, &mlen, NULL, ct, lens[i], k->ad.b, k->ad.n, k->nonce.b, k->key.b);
        int untouched = 1;
        for (size_t j = 0; j < clen + 64; j++) untouched &= m[j] == 0xA5;
        CHECK(rc == SLICEWISE_ERR_VERIFY && mlen == 0 && untouched, "%s: clen %zu of %zu: rc %d mlen %llu",
              a->name, lens[i], clen, rc, mlen);
    }
    free(m);
    free(ct);
}

static void proest_kats(const char *dir) {
    unsigned long total = 0, tampered = 0;
    for (size_t v = 0; v < sizeof AEADS / sizeof AEADS[0]; v++) {
        const struct aead *a = &AEADS[v];
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.txt", dir, a->name);
        aead_kat k;
        memset(&k, 0, sizeof k);
        CHECK(kv_open(&k.r, path), "open %s", path);
        if (!k.r.f) continue;
        unsigned long passed = 0, records = 0, failed_before = g_failures, forged = 0;
        int got;
        while ((got = aead_kat_next(&k)) == 1) {
            records++;
            CHECK(k.key.n == a->keybytes && k.nonce.n == a->npubbytes, "%s Count %lu: sizes", a->name, k.count);
            if (k.key.n != a->keybytes || k.nonce.n != a->npubbytes) continue;
            size_t mlen = k.pt.n, clen = k.ct.n;
            CHECK(clen <= mlen + a->abytes && clen > mlen + a->tagbytes, "%s Count %lu: clen %zu for mlen %zu",
                  a->name, k.count, clen, mlen);
            unsigned char *c = xmalloc(mlen + a->abytes), *m = xmalloc(clen), *io = xmalloc(clen);
            unsigned long long got_clen = 0, got_mlen = 0;
            int ok = 1;
            int rc = a->enc(c, &got_clen, k.pt.b, mlen, k.ad.b, k.ad.n, NULL, k.nonce.b, k.key.b);
            ok &= rc == 0 && got_clen == clen && !memcmp(c, k.ct.b, clen);
            rc = a->dec(m, &got_mlen, NULL, k.ct.b, clen, k.ad.b, k.ad.n, k.nonce.b, k.key.b);
            ok &= rc == 0 && got_mlen == mlen && !memcmp(m, k.pt.b, mlen);
            /* In place: the message in the ciphertext buffer, then the ciphertext decrypted where
             * it lies. */
            memcpy(io, k.pt.b, mlen);
            rc = a->enc(io, &got_clen, io, mlen, k.ad.b, k.ad.n, NULL, k.nonce.b, k.key.b);
            ok &= rc == 0 && got_clen == clen && !memcmp(io, k.ct.b, clen);
            rc = a->dec(io, &got_mlen, NULL, io, clen, k.ad.b, k.ad.n, k.nonce.b, k.key.b);
            ok &= rc == 0 && got_mlen == mlen && !memcmp(io, k.pt.b, mlen);
            CHECK(ok, "%s Count %lu: KAT mismatch", a->name, k.count);
            passed += ok;
            if (k.count % 97 == 1) {
                forged += forgeries(a, &k);
                bad_lengths(a, &k);
            }
            free(c);
            free(m);
            free(io);
        }
        CHECK(got == 0, "%s: malformed record", path);
        CHECK(records == 1096 && passed == records && g_failures == failed_before, "%s: %lu of %lu records pass",
              a->name, passed, records);
        printf("  %-15s: %4lu/%lu KATs pass (encrypt, decrypt, in place); %lu tampered decryptions rejected\n",
               a->name, passed, records, forged);
        total += passed;
        tampered += forged;
        aead_kat_close(&k);
    }
    printf("Prøst KATs: %lu pass; %lu tampered ciphertexts/tags/ADs/nonces/keys rejected with the output zeroed\n",
           total, tampered);
}

/* Message i of a test: bytes (31 * j + 7 * len) mod 256. */
static void paint(unsigned char *p, size_t n) {
    for (size_t j = 0; j < n; j++) p[j] = (unsigned char)(31 * j + 7 * n);
}

/* A backend name, or what a NULL one means. */
static const char *or_invalid(const char *name) { return name ? name : "none: SLICEWISE_BACKEND is invalid"; }

static const char *BACKENDS[] = {"gfni",     "avx512",   "avx2",     "aesni",     "vperm",
                                 "bitsliced", "portable", "ttable64", "ttable32", "avx2gather"};

static void streaming(void) {
    static const size_t LENS[] = {0, 1, 2, 31, 63, 64, 65, 127, 128, 129, 200, 257, 1000};
    unsigned long splits = 0, bytewise = 0, forks = 0;
    unsigned char msg[1000], want[64], got[64];
    for (size_t v = 0; v < 4; v++) {
        unsigned bits = HASHES[v].bits;
        for (size_t l = 0; l < sizeof LENS / sizeof LENS[0]; l++) {
            size_t n = LENS[l];
            paint(msg, n);
            CHECK(HASHES[v].hash(want, msg, n) == 0, "one-shot");
            for (size_t s = 0; s <= n; s++) {
                slicewise_groestl_state st;
                int rc = slicewise_groestl_init(&st, bits) | slicewise_groestl_update(&st, msg, s) |
                         slicewise_groestl_update(&st, msg + s, n - s) | slicewise_groestl_final(&st, got);
                CHECK(rc == 0 && !memcmp(got, want, bits / 8), "groestl-%u len %zu split %zu", bits, n, s);
                splits++;
            }
            slicewise_groestl_state st, fork;
            int rc = slicewise_groestl_init(&st, bits);
            for (size_t j = 0; j < n; j++) {
                rc |= slicewise_groestl_update(&st, msg + j, 1);
                if (j == n / 2) memcpy(&fork, &st, sizeof st);
            }
            rc |= slicewise_groestl_final(&st, got);
            CHECK(rc == 0 && !memcmp(got, want, bits / 8), "groestl-%u len %zu byte at a time", bits, n);
            bytewise++;
            if (n > 0) {
                /* The copy taken after byte n/2 continues on its own. */
                rc = slicewise_groestl_update(&fork, msg + n / 2 + 1, n - n / 2 - 1) |
                     slicewise_groestl_final(&fork, got);
                CHECK(rc == 0 && !memcmp(got, want, bits / 8), "groestl-%u len %zu memcpy'd state", bits, n);
                forks++;
            }
        }
    }
    printf("Streaming: %lu split points, %lu byte-at-a-time and %lu memcpy'd states agree with one-shot\n",
           splits, bytewise, forks);

    /* Every backend this CPU runs, against the process-wide one. */
    unsigned long available = 0;
    paint(msg, sizeof msg);
    for (size_t b = 0; b < sizeof BACKENDS / sizeof BACKENDS[0]; b++) {
        for (size_t v = 0; v < 4; v++) {
            slicewise_groestl_state st;
            int rc = slicewise_groestl_init_backend(&st, HASHES[v].bits, BACKENDS[b]);
            if (rc == SLICEWISE_ERR_BACKEND) {
                if (v == 0) printf("  backend %s: not available on this CPU (SKIPPED)\n", BACKENDS[b]);
                break;
            }
            const char *name = slicewise_groestl_state_backend(&st);
            CHECK(rc == 0 && name && !strcmp(name, BACKENDS[b]), "init_backend %s: rc %d", BACKENDS[b], rc);
            rc = slicewise_groestl_update(&st, msg, 333) | slicewise_groestl_update(&st, msg + 333, 667) |
                 slicewise_groestl_final(&st, got);
            CHECK(HASHES[v].hash(want, msg, sizeof msg) == 0, "one-shot");
            CHECK(rc == 0 && !memcmp(got, want, HASHES[v].bits / 8), "backend %s groestl-%u", BACKENDS[b],
                  HASHES[v].bits);
            available += v == 0;
        }
    }
    printf("Backends: %lu available ones agree with the process-wide one (%s)\n", available,
           or_invalid(slicewise_groestl_backend_name()));
}

static void argument_errors(void) {
    unsigned char out[64], in[4] = {1, 2, 3, 4};
    slicewise_groestl_state st;
    memset(&st, 0, sizeof st);
    CHECK(slicewise_groestl256_hash(NULL, in, 4) == SLICEWISE_ERR_NULL, "NULL out");
    CHECK(slicewise_groestl256_hash(out, NULL, 1) == SLICEWISE_ERR_NULL, "NULL in, length 1");
    CHECK(slicewise_groestl256_hash(out, NULL, 0) == SLICEWISE_OK, "NULL in, length 0");
    CHECK(slicewise_groestlcoin_hash(NULL, in, 4) == SLICEWISE_ERR_NULL, "groestlcoin NULL out");
    CHECK(slicewise_groestl_update(&st, in, 4) == SLICEWISE_ERR_STATE, "update before init");
    CHECK(slicewise_groestl_final(&st, out) == SLICEWISE_ERR_STATE, "final before init");
    CHECK(slicewise_groestl_init(&st, 160) == SLICEWISE_ERR_ARGUMENT, "bits 160");
    CHECK(slicewise_groestl_update(&st, in, 4) == SLICEWISE_ERR_STATE, "update after failed init");
    CHECK(slicewise_groestl_init(NULL, 256) == SLICEWISE_ERR_NULL, "init NULL");
    CHECK(slicewise_groestl_init_backend(&st, 256, "nonexistent") == SLICEWISE_ERR_BACKEND, "unknown backend");
    CHECK(slicewise_groestl_init(&st, 256) == SLICEWISE_OK, "init");
    CHECK(slicewise_groestl_update(&st, NULL, 1) == SLICEWISE_ERR_NULL, "update NULL, length 1");
    CHECK(slicewise_groestl_update(&st, NULL, 0) == SLICEWISE_OK, "update NULL, length 0");
    CHECK(slicewise_groestl_final(&st, NULL) == SLICEWISE_ERR_NULL, "final NULL");
    CHECK(slicewise_groestl_final(&st, out) == SLICEWISE_OK, "final");
    CHECK(slicewise_groestl_final(&st, out) == SLICEWISE_ERR_STATE, "final twice");

    /* Groestlcoin = first half of Grøstl-512 applied twice. */
    unsigned char once[64], twice[64], coin[32];
    CHECK(slicewise_groestl512_hash(once, in, 4) == 0 && slicewise_groestl512_hash(twice, once, 64) == 0 &&
              slicewise_groestlcoin_hash(coin, in, 4) == 0 && !memcmp(coin, twice, 32),
          "groestlcoin composition");

    unsigned char key[64] = {0}, npub[64] = {0}, c[128];
    unsigned long long clen = 7, mlen = 7;
    CHECK(slicewise_proest128otr_encrypt(c, &clen, NULL, 0, NULL, 0, NULL, npub, key) == 0 &&
              clen == SLICEWISE_PROEST128OTR_ABYTES,
          "empty message, NULL m and ad");
    CHECK(slicewise_proest128otr_encrypt(c, &clen, NULL, 5, NULL, 0, NULL, npub, key) == SLICEWISE_ERR_NULL &&
              clen == 0,
          "NULL m with mlen 5");
    CHECK(slicewise_proest128otr_encrypt(c, &clen, in, 4, NULL, 0, NULL, npub, NULL) == SLICEWISE_ERR_NULL,
          "NULL key");
    CHECK(slicewise_proest128otr_encrypt(c, NULL, in, 4, NULL, 0, NULL, npub, key) == SLICEWISE_ERR_NULL,
          "NULL clen");
    CHECK(slicewise_proest128otr_encrypt(c, &clen, in, 4, NULL, 0, NULL, npub, key) == 0, "encrypt");
    memset(out, 0xA5, sizeof out);
    CHECK(slicewise_proest128otr_decrypt(out, &mlen, NULL, c, clen, NULL, 0, NULL, key) == SLICEWISE_ERR_NULL &&
              mlen == 0 && all_zero(out, clen - SLICEWISE_PROEST128OTR_TAGBYTES - 1),
          "decrypt with NULL nonce wipes and fails");
    CHECK(slicewise_proest128otr_decrypt(NULL, &mlen, NULL, c, clen, NULL, 0, npub, key) == SLICEWISE_ERR_NULL,
          "decrypt NULL m");
    CHECK(slicewise_proest128otr_decrypt(out, &mlen, NULL, c, clen, NULL, 0, npub, key) == 0 && mlen == 4 &&
              !memcmp(out, in, 4),
          "decrypt");
    CHECK(strcmp(slicewise_strerror(SLICEWISE_ERR_VERIFY), "verification failed") == 0, "strerror");
    CHECK(slicewise_proest_backend_name() != NULL, "proest backend name");
}

/* Threads: each hashes and encrypts/decrypts with its own state and buffers, and asks for the
 * backend names (the first use of the process-wide choices may happen here, concurrently). */
#define THREADS 4
#define ROUNDS 200

struct job {
    unsigned char want_md[32], want_ct[300 + SLICEWISE_PROEST256OTR_ABYTES];
    unsigned long long want_clen;
    const unsigned char *msg, *key, *npub;
    int ok;
};

static void *worker(void *arg) {
    struct job *j = arg;
    j->ok = 1;
    for (int r = 0; r < ROUNDS; r++) {
        unsigned char md[32], ct[sizeof j->want_ct], pt[sizeof j->want_ct];
        unsigned long long clen = 0, mlen = 0;
        slicewise_groestl_state st;
        int rc = slicewise_groestl_init(&st, 256) | slicewise_groestl_update(&st, j->msg, 100) |
                 slicewise_groestl_update(&st, j->msg + 100, 200) | slicewise_groestl_final(&st, md);
        rc |= slicewise_proest256otr_encrypt(ct, &clen, j->msg, 300, j->msg, 7, NULL, j->npub, j->key);
        rc |= slicewise_proest256otr_decrypt(pt, &mlen, NULL, ct, clen, j->msg, 7, j->npub, j->key);
        j->ok &= rc == 0 && !memcmp(md, j->want_md, 32) && clen == j->want_clen && !memcmp(ct, j->want_ct, clen) &&
                 mlen == 300 && !memcmp(pt, j->msg, 300) && slicewise_groestl_backend_name() != NULL &&
                 slicewise_proest_backend_name() != NULL;
    }
    return NULL;
}

static void threads(void) {
    static unsigned char msg[THREADS][300], key[SLICEWISE_PROEST256OTR_KEYBYTES], npub[SLICEWISE_PROEST256OTR_NPUBBYTES];
    struct job jobs[THREADS];
    pthread_t tid[THREADS];
    for (int i = 0; i < THREADS; i++) {
        for (size_t b = 0; b < sizeof msg[i]; b++) msg[i][b] = (unsigned char)(b * (i + 3));
        jobs[i].msg = msg[i];
        jobs[i].key = key;
        jobs[i].npub = npub;
        CHECK(slicewise_groestl256_hash(jobs[i].want_md, msg[i], 300) == 0 &&
                  slicewise_proest256otr_encrypt(jobs[i].want_ct, &jobs[i].want_clen, msg[i], 300, msg[i], 7, NULL,
                                                 npub, key) == 0,
              "thread %d reference", i);
    }
    int started = 0;
    for (int i = 0; i < THREADS; i++) started += pthread_create(&tid[i], NULL, worker, &jobs[i]) == 0;
    CHECK(started == THREADS, "pthread_create");
    unsigned long ok = 0;
    for (int i = 0; i < started; i++) {
        pthread_join(tid[i], NULL);
        CHECK(jobs[i].ok, "thread %d got a different result", i);
        ok += (unsigned long)jobs[i].ok;
    }
    printf("Threads: %lu of %d threads x %d rounds of streaming Grøstl-256 and Prøst-OTR-256 agree\n", ok, THREADS,
           ROUNDS);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s KAT_DIR\n", argv[0]);
        return 2;
    }
    printf("libslicewise %s; Grøstl backend %s, Prøst backend %s\n", slicewise_version(),
           or_invalid(slicewise_groestl_backend_name()), or_invalid(slicewise_proest_backend_name()));
    groestl_kats(argv[1]);
    groestlcoin_vectors(argv[1]);
    proest_kats(argv[1]);
    streaming();
    argument_errors();
    threads();
    printf("capi: %lu passed, %lu failed\n", g_checks - g_failures, g_failures);
    return g_failures ? 1 : 0;
}
