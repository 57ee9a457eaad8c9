/* bench/identity/hash_time.c: time of one argon2id hash and one verify with
 * the tier's parameters (httpd/src/password_hash.hpp: t=2, m=19456 KiB, p=1),
 * single thread. Prints "HASH <hash ms> <verify ms>". */
#include <argon2.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <stdlib.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
int main(int argc, char **argv) {
    unsigned t = 2, m = 19456, p = 1; int n = 10;
    if (argc > 1) t = (unsigned)atoi(argv[1]);
    const char *pw = "Bench-password-123"; const unsigned char salt[16] = "0123456789abcdef";
    char enc[256]; double t0 = now();
    for (int i = 0; i < n; i++)
        if (argon2id_hash_encoded(t, m, p, pw, strlen(pw), salt, sizeof salt, 32, enc, sizeof enc) != ARGON2_OK) return 1;
    double h = (now() - t0) / n * 1000; t0 = now();
    for (int i = 0; i < n; i++)
        if (argon2id_verify(enc, pw, strlen(pw)) != ARGON2_OK) return 1;
    printf("HASH %.1f %.1f\n", h, (now() - t0) / n * 1000);
    return 0;
}
