/* SPDX-License-Identifier: MIT */
/* test_mbedtls.c - Debian's mbedTLS (libmbedcrypto) doing real work, for a run
 * on libstow_malloc.so, and the adapter's hooks on a heap of their own.
 *
 * Debian builds mbedTLS without MBEDTLS_PLATFORM_MEMORY: its calloc and free are
 * the C library's, so adapters/mbedtls/check.sh runs this program twice, plainly
 * and with LD_PRELOAD=libstow_malloc.so, and compares the outputs; every mbedTLS
 * allocation of the second run is on the interposer's stow heap, whose check must
 * pass at exit.
 *
 * Known-answer checks: SHA-256 ("abc", and a million 'a's: FIPS 180-2), AES-128
 * (FIPS-197 appendix C.1) and AES-256-CBC round trip; the library's own self
 * tests (bignum, RSA, ECP, SHA-256, AES); ECDSA P-256 and RSA-1024 key generation,
 * signature and verification with a deterministic random generator (so both runs
 * print the same signatures). Then stow_mbedtls.h's hooks on a stow heap: zeroed
 * memory, overflow refused, free(NULL), every byte back. Ends "N passed, N failed".
 */
#include <stdio.h>
#include <string.h>

#include <mbedtls/aes.h>
#include <mbedtls/bignum.h>
#include <mbedtls/ecdsa.h>
#include <mbedtls/ecp.h>
#include <mbedtls/rsa.h>
#include <mbedtls/sha256.h>

#include "stow_mbedtls.h"

static unsigned passed;
static unsigned failed;

static void expect(bool ok, const char *what)
{
    printf("%s %s\n", ok ? "ok" : "FAIL", what);
    if (ok) {
        passed++;
    } else {
        failed++;
    }
}

static void hex(const char *label, const unsigned char *b, size_t n)
{
    printf("%s ", label);
    for (size_t i = 0; i < n; i++) {
        printf("%02x", b[i]);
    }
    printf("\n");
}

static bool hex_is(const unsigned char *b, const char *want)
{
    char text[129];
    size_t n = strlen(want) / 2u;
    for (size_t i = 0; i < n; i++) {
        snprintf(text + 2u * i, 3u, "%02x", b[i]);
    }
    return strncmp(text, want, 2u * n) == 0;
}

/* A deterministic generator: SHA-256 of (seed, counter), block after block. */
struct det_rng {
    uint32_t seed;
    uint32_t counter;
};

static int det_random(void *ctx, unsigned char *out, size_t len)
{
    struct det_rng *r = ctx;
    while (len > 0u) {
        unsigned char in[8], block[32];
        memcpy(in, &r->seed, 4u);
        memcpy(in + 4, &r->counter, 4u);
        r->counter++;
        if (mbedtls_sha256_ret(in, sizeof in, block, 0) != 0) {
            return -1;
        }
        size_t n = len < sizeof block ? len : sizeof block;
        memcpy(out, block, n);
        out += n;
        len -= n;
    }
    return 0;
}

static void hashes(void)
{
    unsigned char d[32];
    mbedtls_sha256_ret((const unsigned char *)"abc", 3u, d, 0);
    expect(hex_is(d, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"), "SHA-256(\"abc\")");
    static unsigned char million[1000000];
    memset(million, 'a', sizeof million);
    mbedtls_sha256_ret(million, sizeof million, d, 0);
    expect(hex_is(d, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
           "SHA-256 of a million 'a's");
}

static void aes(void)
{
    static const unsigned char key[16] = {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
                                          0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f};
    static const unsigned char plain[16] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                                            0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
    unsigned char out[16];
    mbedtls_aes_context ctx;
    mbedtls_aes_init(&ctx);
    mbedtls_aes_setkey_enc(&ctx, key, 128);
    mbedtls_aes_crypt_ecb(&ctx, MBEDTLS_AES_ENCRYPT, plain, out);
    mbedtls_aes_free(&ctx);
    expect(hex_is(out, "69c4e0d86a7b0430d8cdb78070b4c55a"), "AES-128 (FIPS-197 C.1)");

    unsigned char key256[32], iv[16], iv2[16], text[4096], enc[4096], dec[4096];
    for (size_t i = 0; i < sizeof text; i++) {
        text[i] = (unsigned char)(i * 7u);
    }
    memset(key256, 0x5a, sizeof key256);
    memset(iv, 0xa5, sizeof iv);
    memcpy(iv2, iv, sizeof iv);
    mbedtls_aes_init(&ctx);
    mbedtls_aes_setkey_enc(&ctx, key256, 256);
    mbedtls_aes_crypt_cbc(&ctx, MBEDTLS_AES_ENCRYPT, sizeof text, iv, text, enc);
    mbedtls_aes_setkey_dec(&ctx, key256, 256);
    mbedtls_aes_crypt_cbc(&ctx, MBEDTLS_AES_DECRYPT, sizeof text, iv2, enc, dec);
    mbedtls_aes_free(&ctx);
    unsigned char d[32];
    mbedtls_sha256_ret(enc, sizeof enc, d, 0);
    hex("aes-256-cbc ciphertext sha256", d, sizeof d);
    expect(memcmp(dec, text, sizeof text) == 0, "AES-256-CBC round trip");
}

static void self_tests(void)
{
    expect(mbedtls_mpi_self_test(0) == 0, "mbedtls_mpi_self_test");
    expect(mbedtls_rsa_self_test(0) == 0, "mbedtls_rsa_self_test");
    expect(mbedtls_ecp_self_test(0) == 0, "mbedtls_ecp_self_test");
    expect(mbedtls_sha256_self_test(0) == 0, "mbedtls_sha256_self_test");
    expect(mbedtls_aes_self_test(0) == 0, "mbedtls_aes_self_test");
}

static void ecdsa(void)
{
    struct det_rng rng = {1u, 0u};
    mbedtls_ecdsa_context key;
    mbedtls_ecdsa_init(&key);
    unsigned char hash[32], sig[MBEDTLS_ECDSA_MAX_LEN];
    size_t sig_len = 0;
    mbedtls_sha256_ret((const unsigned char *)"stow", 4u, hash, 0);
    int rc = mbedtls_ecdsa_genkey(&key, MBEDTLS_ECP_DP_SECP256R1, det_random, &rng);
    if (rc == 0) {
        rc = mbedtls_ecdsa_write_signature(&key, MBEDTLS_MD_SHA256, hash, sizeof hash, sig, &sig_len, det_random,
                                           &rng);
    }
    if (rc == 0) {
        rc = mbedtls_ecdsa_read_signature(&key, hash, sizeof hash, sig, sig_len);
    }
    hash[0] ^= 1u;
    bool tampered = mbedtls_ecdsa_read_signature(&key, hash, sizeof hash, sig, sig_len) != 0;
    mbedtls_ecdsa_free(&key);
    hex("ecdsa p-256 signature", sig, sig_len);
    expect(rc == 0 && tampered, "ECDSA P-256: key generation, signature, verification (and a tampered hash fails)");
}

static void rsa(void)
{
    struct det_rng rng = {2u, 0u};
    mbedtls_rsa_context key;
    mbedtls_rsa_init(&key, MBEDTLS_RSA_PKCS_V15, 0);
    unsigned char hash[32], sig[128];
    mbedtls_sha256_ret((const unsigned char *)"stow heap", 9u, hash, 0);
    int rc = mbedtls_rsa_gen_key(&key, det_random, &rng, 1024u, 65537);
    if (rc == 0) {
        rc = mbedtls_rsa_pkcs1_sign(&key, det_random, &rng, MBEDTLS_RSA_PRIVATE, MBEDTLS_MD_SHA256, 32u, hash, sig);
    }
    if (rc == 0) {
        rc = mbedtls_rsa_pkcs1_verify(&key, NULL, NULL, MBEDTLS_RSA_PUBLIC, MBEDTLS_MD_SHA256, 32u, hash, sig);
    }
    mbedtls_rsa_free(&key);
    unsigned char d[32];
    mbedtls_sha256_ret(sig, sizeof sig, d, 0);
    hex("rsa-1024 signature sha256", d, sizeof d);
    expect(rc == 0, "RSA-1024: key generation, PKCS#1 v1.5 signature, verification");
}

/* The adapter's hooks, on a heap of their own. */
STOW_HEAP_DEFINE_STATIC(tls_heap, 64u * 1024u);
STOW_MBEDTLS_DEFINE_HOOKS(tls_heap)

static void hooks(void)
{
    stow_mbedtls_set_heap(&tls_heap);
    unsigned char *a = stow_mbedtls_calloc(10u, 100u);
    bool zero = a != NULL;
    for (size_t i = 0; zero && i < 1000u; i++) {
        zero = a[i] == 0u;
    }
    memset(a, 0xff, 1000u);
    stow_mbedtls_free(a);
    unsigned char *b = stow_mbedtls_calloc(10u, 100u); /* may reuse a's bytes: zeroed again */
    for (size_t i = 0; zero && b != NULL && i < 1000u; i++) {
        zero = b[i] == 0u;
    }
    stow_mbedtls_free(b);
    expect(zero, "stow_mbedtls_calloc zeroes, even over reused bytes");
    stow_stats_t st;
    stow_heap_stats(&tls_heap, &st);
    uint32_t fails = st.fails;
    expect(stow_mbedtls_calloc(SIZE_MAX / 2u, 4u) == NULL && stow_mbedtls_calloc(1u, 1u << 20) == NULL,
           "stow_mbedtls_calloc: NULL when n * size overflows or does not fit");
    stow_mbedtls_free(NULL);
    void *c = stow_mbedtls_heap_calloc(3u, 5u); /* STOW_MBEDTLS_DEFINE_HOOKS's */
    stow_mbedtls_heap_free(c);
    stow_heap_stats(&tls_heap, &st);
    expect(c != NULL && st.used == 0u && st.fails == fails + 2u && stow_heap_check(&tls_heap),
           "free(NULL) ignored, every byte back, the refusals counted");
}

int main(void)
{
    hashes();
    aes();
    self_tests();
    ecdsa();
    rsa();
    hooks();
    printf("%u passed, %u failed\n", passed, failed);
    return failed == 0u ? 0 : 1;
}
