// Discrete distributions on a Philox element stream (kinds 64-127 of rng_dist in
// _kernels/random.hip; named in garray/random/_discrete.py, docs/random-discrete.md).
// Values are returned as doubles and converted to the output dtype (int64) by the
// kernel, so they are exact up to 2**53 and capped below 2**63 (a double at 2**63 would
// not convert).
//
// Note [Discrete samplers]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// 1. Every sampler reads only `st`, element i's own stream, so a rejection loop takes as
//    many words as it needs without touching another element's values (note 4 of
//    random.hip).
// 2. No product feeds an addition (note 5 there): multiply-adds are m::fma.  Logs of
//    uniforms use log_portable; exp, log, log1p, expm1 of other quantities are the
//    device's libm, so draws that reach them may differ in rare last-bit ties between
//    CUDA, ROCm and glibc (equal in law).
// 3. The large-parameter branches are Hormann's transformed rejection (PTRS for poisson,
//    as NumPy; BTRS for binomial where NumPy has BTPE), exact in law; the small ones are
//    inversion by sequential search.
// 4. Parameters are checked on the host (NumPy's errors), so the samplers assume them
//    valid; they still end on NaN or out-of-range values (no infinite loop).
// 5. noncentral_chisquare and noncentral_f return non-integer values (float64 output);
//    they live here because their small-df branch is a poisson mixture.
#pragma once
#include "philox.h"
#include "rand_continuous.h"   // std_gamma (negative_binomial)

namespace ga {
namespace rng {

enum {
    D_POISSON = 64,            // a = lam
    D_BINOMIAL = 65,           // a = n (truncated), b = p
    D_GEOMETRIC = 66,          // a = p
    D_NEGATIVE_BINOMIAL = 67,  // a = n, b = p
    D_LOGSERIES = 68,          // a = p
    D_HYPERGEOMETRIC = 69,     // a = ngood, b = nbad, c = nsample (integers < 2**31)
    D_NONCENTRAL_CHISQUARE = 70,  // a = df, b = nonc (a float value: float64 output)
    D_NONCENTRAL_F = 71,       // a = dfnum, b = dfden, c = nonc (float64 output)
    D_ZIPF = 72,               // a
};

// The largest double below 2**63: where NumPy returns INT64_MAX (a count that
// overflows), garray returns this (the int64 conversion of 2**63 is undefined).
GA_DEVICE double count_cap() { return 9223372036854774784.0; }

// log(Gamma(x)) for x >= 1 (NumPy's random_loggam: Stirling's series at x0 >= 7, then
// recurrence down).
GA_DEVICE double loggam(double x) {
    if (x == 1.0 || x == 2.0) return 0.0;
    double n = x < 7.0 ? m::floor(7.0 - x) : 0.0;
    double x0 = x + n;
    double x2 = (1.0 / x0) * (1.0 / x0);
    double g = -1.39243221690590e+00;
    g = m::fma(g, x2, 1.796443723688307e-01);
    g = m::fma(g, x2, -2.955065359477124e-02);
    g = m::fma(g, x2, 6.410256410256410e-03);
    g = m::fma(g, x2, -1.917526917526918e-03);
    g = m::fma(g, x2, 8.417508417508418e-04);
    g = m::fma(g, x2, -5.952380952380952e-04);
    g = m::fma(g, x2, 7.936507936507937e-04);
    g = m::fma(g, x2, -2.777777777777778e-03);
    g = m::fma(g, x2, 8.333333333333333e-02);
    double gl = m::fma(x0 - 0.5, m::log(x0), g / x0 + 0.91893853320467274) - x0;
    for (double k = 0; k < n; k += 1.0) {
        gl -= m::log(x0 - 1.0);
        x0 -= 1.0;
    }
    return gl;
}

// log(k!) - log(Stirling(k)), the tail BTRS needs (exact table below 10, then the
// series in 1/(k+1)).
GA_DEVICE double stirling_tail(double k) {
    const double t[10] = {0.0810614667953272, 0.0413406959554092, 0.0276779256849983,
                          0.02079067210376509, 0.0166446911898211, 0.0138761288230707,
                          0.0118967099458917, 0.0104112652619720, 0.00925546218271273,
                          0.00833056343336287};
    if (k <= 9.0) return t[(int)k];
    double kp1 = k + 1.0;
    double s = kp1 * kp1;
    return (1.0 / 12.0 - (1.0 / 360.0 - 1.0 / 1260.0 / s) / s) / kp1;
}

// ---- poisson --------------------------------------------------------------------------

// lam < 10: inversion by sequential search on one uniform.  p_k shrinks to 0 within a
// few hundred steps, which ends the loop even if rounding keeps the sum below u.
GA_DEVICE double poisson_inversion(Stream& st, double lam) {
    double u = st.uniform();
    double p = m::exp(-lam), f = p, k = 0.0;
    while (u > f && p > 0.0) {
        k += 1.0;
        p = p * lam / k;
        f += p;
    }
    return k;
}

// lam >= 10: Hormann's PTRS (transformed rejection with squeeze), NumPy's constants.
GA_DEVICE double poisson_ptrs(Stream& st, double lam) {
    double slam = m::sqrt(lam);
    double loglam = m::log(lam);
    double b = m::fma(2.53, slam, 0.931);
    double a = m::fma(0.02483, b, -0.059);
    double invalpha = 1.1239 + 1.1328 / (b - 3.4);
    double vr = 0.9277 - 3.6224 / (b - 2.0);
    for (;;) {
        double u = st.uniform() - 0.5;
        double v = st.uniform_open();
        double us = 0.5 - m::fabs(u);
        double k = m::floor(m::fma(2.0 * a / us + b, u, lam + 0.43));
        if (us >= 0.07 && v <= vr) return k;
        if (k < 0.0 || (us < 0.013 && v > us)) continue;
        double lhs = log_portable(v) + m::log(invalpha) - m::log(a / (us * us) + b);
        double rhs = m::fma(k, loglam, -lam) - loggam(k + 1.0);
        if (lhs <= rhs) return k;
    }
}

GA_DEVICE double poisson(Stream& st, double lam) {
    if (!(lam > 0.0)) return 0.0;
    return lam >= 10.0 ? poisson_ptrs(st, lam) : poisson_inversion(st, lam);
}

// ---- binomial -------------------------------------------------------------------------

// n * p <= 30 (p <= 1/2): inversion by sequential search, restarting past NumPy's bound
// (mean + 10 sd) where the rounding of the running sum would otherwise matter.
GA_DEVICE double binomial_inversion(Stream& st, double n, double p) {
    double q = 1.0 - p;
    double qn = m::exp(n * m::log1p(-p));
    double np = n * p;
    double bound = m::fmin(n, m::fma(10.0, m::sqrt(m::fma(np, q, 1.0)), np));
    double x = 0.0, px = qn, u = st.uniform();
    while (u > px) {
        x += 1.0;
        if (x > bound) {
            x = 0.0;
            px = qn;
            u = st.uniform();
        } else {
            u -= px;
            px = ((n - x + 1.0) * p * px) / (x * q);
        }
    }
    return x;
}

// n * p > 30 (p <= 1/2): Hormann's BTRS, the acceptance test on Stirling tails (as
// TensorFlow and JAX write it) so it stays accurate for large n.
GA_DEVICE double binomial_btrs(Stream& st, double n, double p) {
    double q = 1.0 - p;
    double spq = m::sqrt(n * p * q);
    double b = m::fma(2.53, spq, 1.15);
    double a = m::fma(0.0248, b, m::fma(0.01, p, -0.0873));
    double c = m::fma(n, p, 0.5);
    double alpha = (2.83 + 5.1 / b) * spq;
    double vr = 0.92 - 4.2 / b;
    double r = p / q;
    double mo = m::floor((n + 1.0) * p);   // the mode
    double tmo = m::log((mo + 1.0) / (r * (n - mo + 1.0)));
    double tails_mo = stirling_tail(mo) + stirling_tail(n - mo);
    for (;;) {
        double u = st.uniform() - 0.5;
        double v = st.uniform_open();
        double us = 0.5 - m::fabs(u);
        double k = m::floor(m::fma(2.0 * a / us + b, u, c));
        if (us >= 0.07 && v <= vr) return k;
        if (k < 0.0 || k > n) continue;
        double lv = log_portable(v) + m::log(alpha / (a / (us * us) + b));
        double t2 = m::log((n - mo + 1.0) / (n - k + 1.0));
        double t3 = m::log(r * (n - k + 1.0) / (k + 1.0));
        double tails = tails_mo - stirling_tail(k) - stirling_tail(n - k);
        double ub = m::fma(mo + 0.5, tmo, m::fma(n + 1.0, t2, m::fma(k + 0.5, t3, tails)));
        if (lv <= ub) return k;
    }
}

GA_DEVICE double binomial(Stream& st, double n, double p) {
    n = m::trunc(n);
    if (!(n > 0.0) || !(p > 0.0)) return 0.0;
    if (p >= 1.0) return n;
    if (p <= 0.5) {
        return n * p <= 30.0 ? binomial_inversion(st, n, p) : binomial_btrs(st, n, p);
    }
    double q = 1.0 - p;
    return n - (n * q <= 30.0 ? binomial_inversion(st, n, q) : binomial_btrs(st, n, q));
}

// ---- geometric, negative binomial, logseries -------------------------------------------

// Inversion: ceil(log(u) / log1p(-p)) for u in (0, 1]; at least 1 (u = 1, p = 1).
GA_DEVICE double geometric(Stream& st, double p) {
    double z = m::ceil(log_portable(st.uniform_open()) / m::log1p(-p));
    if (!(z >= 1.0)) return 1.0;
    return z < count_cap() ? z : count_cap();
}

// NumPy's gamma-poisson mixture: poisson(gamma(n, (1 - p) / p)).  The scale divides
// rather than multiplies, so no product reaches poisson's additions (note 2).
GA_DEVICE double negative_binomial(Stream& st, double n, double p) {
    if (p >= 1.0) return 0.0;
    return poisson(st, std_gamma(st, n) / (p / (1.0 - p)));
}

// NumPy's logseries (Kemp's second accelerated generator, LK).
GA_DEVICE double logseries(Stream& st, double p) {
    double r = m::log1p(-p);
    for (;;) {
        double v = st.uniform();
        if (!(v < p)) return 1.0;
        double u = st.uniform();
        double q = -m::expm1(r * u);
        if (v <= q * q) {
            if (v == 0.0) continue;
            double k = m::floor(1.0 + log_portable(v) / m::log(q));
            if (k < 1.0) continue;
            return k < count_cap() ? k : count_cap();
        }
        return v >= q ? 1.0 : 2.0;
    }
}

// ---- hypergeometric (NumPy's two methods; ngood, nbad < 10**9) --------------------------

// An unbiased integer in [0, range) for range <= 2**32 from element i's stream (Lemire).
GA_DEVICE double interval32(Stream& st, uint64 range) {
    uint64 x = (uint64)st.next32() * range;
    if ((uint32)x < range) {
        uint64 thr = (((uint64)1 << 32) - range) % range;
        while ((uint32)x < thr) x = (uint64)st.next32() * range;
    }
    return (double)(x >> 32);
}

// Draws of the smaller of sample and total - sample (fewer than 10 here), one by one.
GA_DEVICE double hypergeometric_sample(Stream& st, double good, double bad, double sample) {
    double total = good + bad;
    bool flip = sample > m::floor(total / 2.0);
    double todo = flip ? total - sample : sample;
    double left = total, left_good = good;
    while (todo > 0.0 && left_good > 0.0 && left > left_good) {
        left -= 1.0;
        if (interval32(st, (uint64)left + 1) < left_good) left_good -= 1.0;
        todo -= 1.0;
    }
    if (left == left_good) left_good -= todo;
    return flip ? left_good : good - left_good;
}

// Stadlober's ratio-of-uniforms (HRUA), NumPy's constants; log k! as loggam(k + 1).
GA_DEVICE double hypergeometric_hrua(Stream& st, double good, double bad, double sample) {
    double pop = good + bad;
    double ns = m::fmin(sample, pop - sample);
    double lo = m::fmin(good, bad), hi = m::fmax(good, bad);
    double p = lo / pop, q = hi / pop;
    double a = m::fma(ns, p, 0.5);
    double c = m::sqrt((pop - ns) * ns * p * q / (pop - 1.0) + 0.5);
    double h = m::fma(1.7155277699214135, c, 0.8989161620588988);
    double mo = m::floor((ns + 1.0) * (lo + 1.0) / (pop + 2.0));
    double g = loggam(mo + 1.0) + loggam(lo - mo + 1.0) + loggam(ns - mo + 1.0) +
               loggam(hi - ns + mo + 1.0);
    double b = m::fmin(m::fmin(ns, lo) + 1.0, m::floor(m::fma(16.0, c, a)));
    double k;
    for (;;) {
        double u = st.uniform_open();
        double v = st.uniform();
        double x = m::fma(h, (v - 0.5) / u, a);
        if (x < 0.0 || x >= b) continue;
        k = m::floor(x);
        double gp = loggam(k + 1.0) + loggam(lo - k + 1.0) + loggam(ns - k + 1.0) +
                    loggam(hi - ns + k + 1.0);
        double t = g - gp;
        if (m::fma(u, 4.0 - u, -3.0) <= t) break;
        if (u * (u - t) >= 1.0) continue;
        if (2.0 * log_portable(u) <= t) break;
    }
    if (good > bad) k = ns - k;
    if (ns < sample) k = good - k;
    return k;
}

GA_DEVICE double hypergeometric(Stream& st, double good, double bad, double sample) {
    if (sample >= 10.0 && sample <= good + bad - 10.0)
        return hypergeometric_hrua(st, good, bad, sample);
    return hypergeometric_sample(st, good, bad, sample);
}

// ---- noncentral chi-square and F (poisson mixtures, so they live here) -------------

GA_DEVICE double chisquare(Stream& st, double df) { return 2.0 * std_gamma(st, 0.5 * df); }

// NumPy's method: nonc == 0 is chisquare(df); df > 1 adds (Z + sqrt(nonc))**2 to a
// chisquare(df - 1); otherwise the poisson mixture chisquare(df + 2 poisson(nonc / 2)).
GA_DEVICE double noncentral_chisquare(Stream& st, double df, double nonc) {
    if (nonc != nonc) return nonc;
    if (nonc == 0.0) return chisquare(st, df);
    if (df > 1.0) {
        double chi2 = chisquare(st, df - 1.0);
        double n = st.normal() + m::sqrt(nonc);
        return m::fma(n, n, chi2);
    }
    double i = poisson(st, 0.5 * nonc);
    return chisquare(st, m::fma(2.0, i, df));
}

// (ncx2(dfnum, nonc) / dfnum) / (chi2(dfden) / dfden), NumPy's order of operations.
GA_DEVICE double noncentral_f(Stream& st, double dfnum, double dfden, double nonc) {
    double t = noncentral_chisquare(st, dfnum, nonc) * dfden;
    return t / (chisquare(st, dfden) * dfnum);
}

// ---- zipf ------------------------------------------------------------------------------

// NumPy's rejection method (Devroye, X = floor(U**(-1/(a-1))) accepted against the
// ratio of the pmf to its continuous envelope), U drawn from (Umin, 1] so that values
// past 2**63 are never proposed; those that still round past it are rejected (zipf
// truncated below 2**63, as NumPy's to int64 max).  a >= 1025 gives 1 (NumPy: a larger
// value has probability below 3e-309 there, and 2**(a-1) would overflow); so does NaN,
// which the host refuses anyway.
GA_DEVICE double zipf(Stream& st, double a) {
    if (!(a < 1025.0)) return 1.0;
    double am1 = a - 1.0;
    double b = m::pow(2.0, am1);
    double umin = m::pow(9223372036854775808.0, -am1);
    for (;;) {
        double u01 = st.uniform();
        double u = m::fma(u01, umin, 1.0 - u01);
        double v = st.uniform();
        double x = m::floor(m::pow(u, -1.0 / am1));
        if (!(x >= 1.0 && x <= count_cap())) continue;
        double t = m::pow(1.0 + 1.0 / x, am1);
        if (v * x * (t - 1.0) / (b - 1.0) <= t / b) return x;
    }
}

GA_DEVICE double dist_discrete(int64 kind, Stream& st, double a, double b, double c) {
    switch (kind) {
    case D_POISSON: return poisson(st, a);
    case D_BINOMIAL: return binomial(st, a, b);
    case D_GEOMETRIC: return geometric(st, a);
    case D_NEGATIVE_BINOMIAL: return negative_binomial(st, a, b);
    case D_LOGSERIES: return logseries(st, a);
    case D_HYPERGEOMETRIC: return hypergeometric(st, a, b, c);
    case D_NONCENTRAL_CHISQUARE: return noncentral_chisquare(st, a, b);
    case D_NONCENTRAL_F: return noncentral_f(st, a, b, c);
    case D_ZIPF: return zipf(st, a);
    default: return 0.0;     // unreachable: the launcher passes known kinds only
    }
}

// ---- multinomial ------------------------------------------------------------------------

// One row of multinomial(n, pvals): category j gets binomial(left, p_j / rest) of what
// the earlier ones left (NumPy's conditional binomials), the last what remains.  The
// ratio is clamped to [0, 1] since rounding of `rest` can push it past either end.
template <class T>
GA_DEVICE void multinomial_row(Stream& st, double n, const double* pvals, int64 k, T* out) {
    double left = m::trunc(n), rest = 1.0;
    for (int64 j = 0; j + 1 < k; ++j) {
        double x = 0.0;
        if (left > 0.0) {
            double p = pvals[j] / rest;
            p = p >= 0.0 ? (p < 1.0 ? p : 1.0) : 0.0;     // NaN (0 / 0) -> 0
            x = binomial(st, left, p);
        }
        out[j] = (T)x;
        left -= x;
        rest -= pvals[j];
    }
    out[k - 1] = (T)(left > 0.0 ? left : 0.0);
}

}  // namespace rng
}  // namespace ga
