#ifndef COPENSSL_SHIM_TLS_H
#define COPENSSL_SHIM_TLS_H
#include <openssl/ssl.h>

// SSL_CTX_set_min_proto_version is a function-like macro over SSL_CTX_ctrl.
static inline long rc_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version) {
    return SSL_CTX_set_min_proto_version(ctx, version);
}
// SSL_CTX_set_mode is a macro over SSL_CTX_ctrl.
static inline long rc_SSL_CTX_set_mode(SSL_CTX *ctx, long mode) { return SSL_CTX_set_mode(ctx, mode); }
// SSL_set_tlsext_host_name is a macro over SSL_ctrl.
static inline long rc_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}
// SSL_OP_* are 64-bit shift macros that Swift cannot import.
static const uint64_t rc_SSL_OP_NO_COMPRESSION = SSL_OP_NO_COMPRESSION;
static const uint64_t rc_SSL_OP_NO_RENEGOTIATION = SSL_OP_NO_RENEGOTIATION;
static const uint64_t rc_SSL_OP_CIPHER_SERVER_PREFERENCE = SSL_OP_CIPHER_SERVER_PREFERENCE;

#endif
