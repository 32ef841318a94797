#include <zlib.h>

/// deflateInit2 and inflateInit2 are macros (they pass the library version and the stream's
/// size), which Swift cannot import. windowBits 31 is the gzip format, -15 raw deflate.
static inline int czlib_deflate_init(z_streamp stream, int level, int windowBits) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY);
}

static inline int czlib_inflate_init(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}
