#ifndef CNghttp2_SHIM_H
#define CNghttp2_SHIM_H
#include <nghttp2/nghttp2.h>

#endif
