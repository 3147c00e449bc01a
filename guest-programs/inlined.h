/* Helpers that gcc inlines into their callers (always_inline makes it sure,
   at -O0 too): the inlined functions of inlined.c. */
static inline __attribute__((always_inline)) unsigned mix(unsigned h, unsigned x)
{
    h ^= x;
    h *= 16777619u;
    return h;
}

static inline __attribute__((always_inline)) unsigned mix2(unsigned h, unsigned x)
{
    h = mix(h, x);
    return mix(h, x >> 16);
}
