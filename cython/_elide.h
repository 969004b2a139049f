/* Whether an operator was called by the interpreter itself (cython/_ufunc.pxi, Note
 * [Temporary elision]).
 *
 * A CPU array whose only reference is the interpreter's value stack (a + b in a + b + c)
 * may take the operator's result in place, as NumPy's temporary elision does: the value
 * is dropped right after.  A C caller can hold an object with one reference and use it
 * again after PyNumber_Add returns (Cython code: `t = a * b; u = t + c; return t`), so
 * the reference count alone does not prove it.  Like NumPy (temp_elide.c), the call
 * stack must show nothing but this module's frames, then the interpreter's library up to
 * its frame evaluation function: no other C code between.  Addresses are compared with
 * the executable segments of the two objects, found once; backtrace() costs a few
 * microseconds, so the caller asks only for arrays of 256 KiB and more.
 *
 * Python 3.14 pushes locals on the value stack without a reference (LOAD_FAST_BORROW),
 * so there a count of one no longer means a temporary; the free-threaded build shares
 * objects between threads without the GIL.  Both answer 0 here, as do platforms without
 * backtrace() or dl_iterate_phdr().
 */
#ifndef GARRAY_ELIDE_H
#define GARRAY_ELIDE_H

#include <Python.h>

#if defined(__linux__) && defined(__GLIBC__) && PY_VERSION_HEX < 0x030E0000 && \
    !defined(Py_GIL_DISABLED)
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>
#include <stdint.h>

#define GA_ELIDE_SEGS 8
typedef struct {
    uintptr_t lo[GA_ELIDE_SEGS], hi[GA_ELIDE_SEGS];
    int n;
    uintptr_t probe;        /* an address inside the object */
} ga_elide_obj;

static ga_elide_obj ga_elide_py, ga_elide_self;
static uintptr_t ga_elide_eval_lo, ga_elide_eval_hi;   /* _PyEval_EvalFrameDefault */
static int ga_elide_state = 0;                          /* 0 unset, 1 ready, -1 off */

static int ga_elide_segments(struct dl_phdr_info* info, size_t size, void* data) {
    ga_elide_obj* objs[2] = {&ga_elide_py, &ga_elide_self};
    (void)size;
    (void)data;
    for (int k = 0; k < 2; ++k) {
        ga_elide_obj* o = objs[k];
        int has = 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
            const ElfW(Phdr)* p = &info->dlpi_phdr[i];
            uintptr_t lo = info->dlpi_addr + p->p_vaddr;
            if (p->p_type == PT_LOAD && o->probe >= lo && o->probe < lo + p->p_memsz) has = 1;
        }
        if (!has) continue;
        for (int i = 0; i < info->dlpi_phnum && o->n < GA_ELIDE_SEGS; ++i) {
            const ElfW(Phdr)* p = &info->dlpi_phdr[i];
            if (p->p_type == PT_LOAD && (p->p_flags & PF_X)) {
                o->lo[o->n] = info->dlpi_addr + p->p_vaddr;
                o->hi[o->n] = o->lo[o->n] + p->p_memsz;
                o->n++;
            }
        }
    }
    return 0;
}

static int ga_elide_in(const ga_elide_obj* o, uintptr_t a) {
    for (int i = 0; i < o->n; ++i)
        if (a >= o->lo[i] && a < o->hi[i]) return 1;
    return 0;
}

static int ga_elide_setup(void) {
    Dl_info info;
    const ElfW(Sym)* sym = NULL;
    void* eval = dlsym(RTLD_DEFAULT, "_PyEval_EvalFrameDefault");
    if (!eval || !dladdr1(eval, &info, (void**)&sym, RTLD_DL_SYMENT) || !sym ||
        sym->st_size == 0)
        return -1;
    ga_elide_eval_lo = (uintptr_t)eval;
    ga_elide_eval_hi = ga_elide_eval_lo + sym->st_size;
    ga_elide_py.probe = (uintptr_t)eval;
    ga_elide_self.probe = (uintptr_t)&ga_elide_setup;
    dl_iterate_phdr(ga_elide_segments, NULL);
    return ga_elide_py.n && ga_elide_self.n ? 1 : -1;
}

/* 1 when the frames from here up are this module's, then the interpreter's, reaching
 * its frame evaluation; 0 when anything else comes between (or it cannot tell). */
static int ga_called_by_interpreter(void) {
    void* buf[24];
    int n, in_py = 0;
    if (ga_elide_state == 0) ga_elide_state = ga_elide_setup();
    if (ga_elide_state < 0) return 0;
    n = backtrace(buf, 24);
    for (int i = 0; i < n; ++i) {
        uintptr_t a = (uintptr_t)buf[i];
        if (!in_py && ga_elide_in(&ga_elide_self, a)) continue;  /* the operator itself */
        if (!ga_elide_in(&ga_elide_py, a)) return 0;             /* other C code */
        in_py = 1;
        if (a >= ga_elide_eval_lo && a < ga_elide_eval_hi) return 1;
    }
    return 0;
}
#else
static int ga_called_by_interpreter(void) { return 0; }
#endif

#endif
