/* Readers for the KAT files (decompressed) and the small helpers the C tests share.
 *
 * Grøstl: NIST SHA-3 format, records of `Len = bits`, `Msg = hex`, `MD = hex`.
 * Prøst: SUPERCOP genkat format, records of `Count`, `Key`, `Nonce`, `PT`, `AD`, `CT`.
 * Both are read line by line as `Name = value`; a record ends with its last field (MD, CT). */
#ifndef SLICEWISE_TEST_KAT_H
#define SLICEWISE_TEST_KAT_H

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slicewise.h"

static unsigned long g_checks, g_failures;

/* Counts one check; prints the first 20 failures. */
#define CHECK(cond, ...)                                                                          \
    do {                                                                                          \
        g_checks++;                                                                               \
        if (!(cond)) {                                                                            \
            if (g_failures++ < 20) {                                                              \
                fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                              \
                fprintf(stderr, __VA_ARGS__);                                                     \
                fputc('\n', stderr);                                                              \
            }                                                                                     \
        }                                                                                         \
    } while (0)

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

/* A growable byte buffer. */
typedef struct {
    unsigned char *b;
    size_t n, cap;
} bytes;

static void bytes_free(bytes *x) {
    free(x->b);
    x->b = NULL;
    x->n = x->cap = 0;
}

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    c = tolower(c);
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

/* Decodes the hex string `s` into `x`; returns 0 on malformed input. */
static int bytes_from_hex(bytes *x, const char *s) {
    size_t len = strlen(s);
    while (len && isspace((unsigned char)s[len - 1])) len--;
    if (len % 2) return 0;
    if (x->cap < len / 2 + 1) {
        free(x->b);
        x->cap = len / 2 + 1;
        x->b = xmalloc(x->cap);
    }
    x->n = len / 2;
    for (size_t i = 0; i < x->n; i++) {
        int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
        if (hi < 0 || lo < 0) return 0;
        x->b[i] = (unsigned char)(hi << 4 | lo);
    }
    return 1;
}

/* Line reader: the next `Name = value` line (others are skipped). Returns 0 at end of file. */
typedef struct {
    FILE *f;
    char *line;
    size_t cap;
    const char *name, *value;
} kv_reader;

static int kv_open(kv_reader *r, const char *path) {
    memset(r, 0, sizeof *r);
    r->f = fopen(path, "r");
    if (!r->f) {
        perror(path);
        return 0;
    }
    return 1;
}

static void kv_close(kv_reader *r) {
    if (r->f) fclose(r->f);
    free(r->line);
    memset(r, 0, sizeof *r);
}

/* Reads the next line, however long, into r->line without its line ending; 0 at end of file. */
static int read_line(kv_reader *r) {
    if (!r->line) {
        r->cap = 256;
        r->line = xmalloc(r->cap);
    }
    size_t used = 0;
    int c;
    while ((c = fgetc(r->f)) != EOF && c != '\n') {
        if (used + 2 > r->cap) {
            r->cap *= 2;
            char *grown = realloc(r->line, r->cap);
            if (!grown) {
                fprintf(stderr, "out of memory\n");
                exit(2);
            }
            r->line = grown;
        }
        r->line[used++] = (char)c;
    }
    if (c == EOF && used == 0) return 0;
    r->line[used] = '\0';
    while (used && isspace((unsigned char)r->line[used - 1])) r->line[--used] = '\0';
    return 1;
}

static int kv_next(kv_reader *r) {
    while (read_line(r)) {
        char *eq = strchr(r->line, '=');
        if (r->line[0] == '#' || !eq) continue;
        char *end = eq;
        while (end > r->line && end[-1] == ' ') end--;
        *end = '\0';
        char *value = eq + 1;
        while (*value == ' ') value++;
        r->name = r->line;
        r->value = value;
        return 1;
    }
    return 0;
}

/* One Grøstl KAT record: message of `bits` bits (bytes in msg, NIST's dummy 00 for Len = 0
 * dropped) and digest. */
typedef struct {
    kv_reader r;
    unsigned long long bits;
    bytes msg, md;
} hash_kat;

/* Reads the next record; returns 1, 0 at the end, -1 on a malformed file. */
static int hash_kat_next(hash_kat *k) {
    int have_len = 0, have_msg = 0;
    while (kv_next(&k->r)) {
        if (!strcmp(k->r.name, "Len")) {
            k->bits = strtoull(k->r.value, NULL, 10);
            have_len = 1;
        } else if (!strcmp(k->r.name, "Msg")) {
            if (!bytes_from_hex(&k->msg, k->r.value)) return -1;
            have_msg = 1;
        } else if (!strcmp(k->r.name, "MD")) {
            if (!have_len || !have_msg || !bytes_from_hex(&k->md, k->r.value)) return -1;
            if (k->msg.n > (k->bits + 7) / 8) k->msg.n = (size_t)((k->bits + 7) / 8);
            return 1;
        }
    }
    return 0;
}

/* One SUPERCOP AEAD KAT record. */
typedef struct {
    kv_reader r;
    unsigned long count;
    bytes key, nonce, pt, ad, ct;
} aead_kat;

static int aead_kat_next(aead_kat *k) {
    int fields = 0;
    while (kv_next(&k->r)) {
        const char *n = k->r.name, *v = k->r.value;
        int ok = 1;
        if (!strcmp(n, "Count")) k->count = strtoul(v, NULL, 10);
        else if (!strcmp(n, "Key")) ok = bytes_from_hex(&k->key, v);
        else if (!strcmp(n, "Nonce")) ok = bytes_from_hex(&k->nonce, v);
        else if (!strcmp(n, "PT")) ok = bytes_from_hex(&k->pt, v);
        else if (!strcmp(n, "AD")) ok = bytes_from_hex(&k->ad, v);
        else if (!strcmp(n, "CT")) {
            if (!bytes_from_hex(&k->ct, v) || fields != 5) return -1;
            return 1;
        } else continue;
        if (!ok) return -1;
        fields++;
    }
    return 0;
}

static void aead_kat_close(aead_kat *k) {
    kv_close(&k->r);
    bytes_free(&k->key);
    bytes_free(&k->nonce);
    bytes_free(&k->pt);
    bytes_free(&k->ad);
    bytes_free(&k->ct);
}

static void hash_kat_close(hash_kat *k) {
    kv_close(&k->r);
    bytes_free(&k->msg);
    bytes_free(&k->md);
}

#endif
