/* The CPU sanitizer's registry of host memory garray allocated (Note [CPU sanitizer],
 * _kernels/garray/cpu_sanitizer.h): the pool's raw segments and every array's allocation
 * with the bytes it asked for, kept only while GARRAY_CPU_SANITIZE is on.  A sanitized
 * kernel library asks it (through ga_san_lookup, handed over at load) which allocation
 * an address lies in, to tell an access past the end of an array, or into an array the
 * kernel was not given, from a legal one.
 *
 * Two sorted arrays of ranges, binary search, memmove on insert and remove: the sanitizer
 * runs at small shapes, where thousands of live arrays is a lot.  The GIL guards it
 * (allocation, release and sanitized launches all hold it). */
#pragma once
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct { uintptr_t base; size_t len; size_t cap; } ga_san_range;
typedef struct { ga_san_range* r; size_t n, room; } ga_san_set;

static ga_san_set ga_san_allocs = {0, 0, 0};
static ga_san_set ga_san_segments = {0, 0, 0};
static int ga_san_on = 0;
/* The same registry of GPU arrays' allocations, kept while the stub drivers check stream
 * order (cython/_stub_annotate.pxi): the stub hook annotates each built-in launch with
 * the allocations its pointer parameters lie in. */
static ga_san_set ga_stub_allocs = {0, 0, 0};
static int ga_stub_on = 0;

/* index of the first range with base > p */
static size_t ga_san_upper(const ga_san_set* s, uintptr_t p) {
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->r[mid].base <= p) lo = mid + 1; else hi = mid;
    }
    return lo;
}

static int ga_san_insert(ga_san_set* s, uintptr_t base, size_t len, size_t cap) {
    size_t i;
    if (s->n == s->room) {
        size_t room = s->room ? 2 * s->room : 256;
        ga_san_range* r = (ga_san_range*)realloc(s->r, room * sizeof(ga_san_range));
        if (!r) return -1;
        s->r = r;
        s->room = room;
    }
    i = ga_san_upper(s, base);
    if (i && s->r[i - 1].base == base) {     /* a stale entry of a reused address */
        s->r[i - 1].len = len;
        s->r[i - 1].cap = cap;
        return 0;
    }
    memmove(s->r + i + 1, s->r + i, (s->n - i) * sizeof(ga_san_range));
    s->r[i].base = base;
    s->r[i].len = len;
    s->r[i].cap = cap;
    s->n++;
    return 0;
}

static void ga_san_remove(ga_san_set* s, uintptr_t base) {
    size_t i = ga_san_upper(s, base);
    if (!i || s->r[i - 1].base != base) return;
    memmove(s->r + i - 1, s->r + i, (s->n - i) * sizeof(ga_san_range));
    s->n--;
}

static const ga_san_range* ga_san_find(const ga_san_set* s, uintptr_t p) {
    size_t i = ga_san_upper(s, p);
    if (!i) return 0;
    const ga_san_range* r = &s->r[i - 1];
    return p - r->base < (r->cap > r->len ? r->cap : r->len) ? r : 0;
}

/* What the sanitizer runtime calls: 1 when p lies in an array's allocation (base, the
 * bytes it asked for in len, the block's size in cap), 2 when it lies in a pool segment
 * outside every live allocation, 0 when garray did not allocate it (while registering). */
static int ga_san_lookup(uintptr_t p, uintptr_t* base, size_t* len, size_t* cap) {
    const ga_san_range* r = ga_san_find(&ga_san_allocs, p);
    if (r) {
        *base = r->base;
        *len = r->len;
        *cap = r->cap;
        return 1;
    }
    r = ga_san_find(&ga_san_segments, p);
    if (r) {
        *base = r->base;
        *len = 0;
        *cap = r->len;
        return 2;
    }
    return 0;
}

/* Forget every range (the sanitizer was turned off: releases are no longer recorded). */
static void ga_san_clear(void) {
    ga_san_allocs.n = 0;
    ga_san_segments.n = 0;
}

/* Forget the GPU allocations (the stub hook stopped registering them). */
static void ga_stub_clear(void) { ga_stub_allocs.n = 0; }

static intptr_t ga_san_lookup_address(void) { return (intptr_t)&ga_san_lookup; }
