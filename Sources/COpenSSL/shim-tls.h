#ifndef COPENSSL_SHIM_TLS_H
#define COPENSSL_SHIM_TLS_H
#include <string.h>
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
static const uint64_t rc_SSL_OP_NO_TICKET = SSL_OP_NO_TICKET;

// SSL_CTX_add0_chain_cert is a macro over SSL_CTX_ctrl; takes ownership of the certificate.
static inline long rc_SSL_CTX_add0_chain_cert(SSL_CTX *ctx, X509 *cert) { return SSL_CTX_add0_chain_cert(ctx, cert); }
// BIO_ctrl_pending is a function, but BIO_pending is a macro; wrap for clarity at the call site.
static inline size_t rc_BIO_pending(BIO *bio) { return BIO_ctrl_pending(bio); }
// BIO_set_mem_eof_return is a macro: a drained memory BIO should say "retry", not EOF.
static inline long rc_BIO_set_mem_eof_return(BIO *bio, long v) { return BIO_set_mem_eof_return(bio, v); }
// SSL_CTX_set_session_cache_mode is a macro over SSL_CTX_ctrl.
static inline long rc_SSL_CTX_set_session_cache_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_session_cache_mode(ctx, mode);
}
// The ALPN select callback's `out` is `const unsigned char **`; expose a select helper that picks
// h2, then http/1.1, from the client's list without pointer-cast gymnastics in Swift.
// Returns 1 for h2, 2 for http/1.1, 0 when neither was offered.
static inline int rc_alpn_pick(const unsigned char **out, unsigned char *outlen, const unsigned char *in,
                               unsigned int inlen, int allow_http1) {
    int best = 0;
    const unsigned char *bestp = 0;
    unsigned int i = 0;
    while (i < inlen) {
        unsigned int n = in[i];
        if (i + 1 + n > inlen) break;
        const unsigned char *p = in + i + 1;
        if (n == 2 && p[0] == 'h' && p[1] == '2') { best = 1; bestp = p; break; }
        if (allow_http1 && n == 8 && best == 0 && memcmp(p, "http/1.1", 8) == 0) { best = 2; bestp = p; }
        i += 1 + n;
    }
    if (best) {
        *out = bestp;
        *outlen = best == 1 ? 2 : 8;
    }
    return best;
}

#endif
