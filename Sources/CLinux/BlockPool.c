#include "CLinux.h"
#include <stdlib.h>
#include <string.h>

// Blocks of up to RC_POOL_CLASSES * 16 bytes come in 16-byte size classes; a freed block goes onto
// its class's list (at most RC_POOL_DEPTH of them) and the next request for that class takes it back.
#define RC_POOL_CLASSES 64
#define RC_POOL_DEPTH 128

struct rc_block_pool {
    void *free_list[RC_POOL_CLASSES + 1];
    unsigned count[RC_POOL_CLASSES + 1];
};

// Every block starts with this header, which keeps the payload 16-byte aligned as malloc's is.
typedef struct {
    size_t size_class;  // 1...RC_POOL_CLASSES, or 0 for a block the pool does not keep
    size_t capacity;    // payload bytes
} rc_block_header;

_Static_assert(sizeof(rc_block_header) == 16, "the header keeps payloads 16-byte aligned");

rc_block_pool *rc_block_pool_create(void) { return calloc(1, sizeof(rc_block_pool)); }

void rc_block_pool_destroy(rc_block_pool *pool) {
    if (!pool) return;
    for (int c = 1; c <= RC_POOL_CLASSES; c++) {
        void *p = pool->free_list[c];
        while (p) {
            void *next = *(void **)p;
            free((rc_block_header *)p - 1);
            p = next;
        }
    }
    free(pool);
}

void *rc_block_pool_malloc(size_t size, void *user) {
    rc_block_pool *pool = user;
    size_t c = size == 0 ? 1 : (size + 15) >> 4;
    if (c <= RC_POOL_CLASSES) {
        void *p = pool->free_list[c];
        if (p) {
            pool->free_list[c] = *(void **)p;
            pool->count[c]--;
            return p;
        }
    } else {
        c = 0;
    }
    size_t capacity = c ? c << 4 : size;
    if (capacity > SIZE_MAX - sizeof(rc_block_header)) return NULL;
    rc_block_header *h = malloc(sizeof(rc_block_header) + capacity);
    if (!h) return NULL;
    h->size_class = c;
    h->capacity = capacity;
    return h + 1;
}

void rc_block_pool_free(void *p, void *user) {
    if (!p) return;
    rc_block_pool *pool = user;
    rc_block_header *h = (rc_block_header *)p - 1;
    size_t c = h->size_class;
    if (c && pool->count[c] < RC_POOL_DEPTH) {
        *(void **)p = pool->free_list[c];
        pool->free_list[c] = p;
        pool->count[c]++;
        return;
    }
    free(h);
}

void *rc_block_pool_calloc(size_t n, size_t size, void *user) {
    if (size && n > SIZE_MAX / size) return NULL;
    void *p = rc_block_pool_malloc(n * size, user);
    if (p) memset(p, 0, n * size);
    return p;
}

void *rc_block_pool_realloc(void *p, size_t size, void *user) {
    if (!p) return rc_block_pool_malloc(size, user);
    rc_block_header *h = (rc_block_header *)p - 1;
    if (size <= h->capacity && size > 0) return p;
    if (size == 0) {
        rc_block_pool_free(p, user);
        return NULL;
    }
    void *q = rc_block_pool_malloc(size, user);
    if (!q) return NULL;
    memcpy(q, p, h->capacity);
    rc_block_pool_free(p, user);
    return q;
}
