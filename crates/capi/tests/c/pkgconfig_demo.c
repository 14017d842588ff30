/* The smallest program built through pkg-config by scripts/test-c.sh: hashes its argument with
 * Grøstl-256 and prints the digest in hex.  cc pkgconfig_demo.c $(pkg-config --cflags --libs slicewise) */
#include <stdio.h>
#include <string.h>

#include <slicewise.h>

int main(int argc, char **argv) {
    const char *msg = argc > 1 ? argv[1] : "";
    unsigned char md[SLICEWISE_GROESTL256_BYTES];
    int rc = slicewise_groestl256_hash(md, (const unsigned char *)msg, strlen(msg));
    if (rc != SLICEWISE_OK) {
        fprintf(stderr, "slicewise_groestl256_hash: %s\n", slicewise_strerror(rc));
        return 1;
    }
    for (size_t i = 0; i < sizeof md; i++) printf("%02x", md[i]);
    printf("\n");
    return 0;
}
