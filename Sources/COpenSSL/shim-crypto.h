#ifndef COPENSSL_SHIM_CRYPTO_H
#define COPENSSL_SHIM_CRYPTO_H
#include <openssl/crypto.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/ec.h>

// OPENSSL_free is a macro that passes file and line to CRYPTO_free.
static inline void rc_OPENSSL_free(void *p) { OPENSSL_free(p); }
// BIO_get_mem_data is a macro over BIO_ctrl.
static inline long rc_BIO_get_mem_data(BIO *bio, char **out) { return BIO_get_mem_data(bio, out); }
// EVP_PKEY_CTX_set_ec_paramgen_curve_nid is a macro in some 3.x headers; wrap for a stable import.
static inline int rc_EVP_PKEY_CTX_set_ec_paramgen_curve_nid(EVP_PKEY_CTX *ctx, int nid) {
    return EVP_PKEY_CTX_set_ec_paramgen_curve_nid(ctx, nid);
}
// EVP_PKEY_CTX_set_rsa_keygen_bits may be a macro; wrap it likewise.
static inline int rc_EVP_PKEY_CTX_set_rsa_keygen_bits(EVP_PKEY_CTX *ctx, int bits) {
    return EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, bits);
}

#endif
