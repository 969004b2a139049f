// Continuous distributions on a Philox element stream (kinds 0-63 of rng_dist in
// _kernels/random.hip; named in garray/random/_continuous.py, whose KINDS must number
// them as the enum below does: a test reads this file to check).
//
// Note [Continuous transforms]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// 1. Each value is a function of element i's own stream `st` (note 4 of random.hip), so
//    rejection loops (gamma, gumbel's u == 1) read more words of that stream only.
// 2. Logarithms are rng::log_portable (fdlibm's reduction and polynomial on fma: within
//    1 ulp and the same bits on every device for every positive normal double, not only
//    uniforms: checked against glibc over 2**-1020 .. 2**1020).  Arguments that could be
//    subnormal (a gamma cube, vonmises' y / v) are screened where the test would reject.
// 3. Exact-in-arithmetic steps (+, -, *, /, sqrt, explicit fma) give the same bits on
//    every device (note 5 of random.hip: no product feeds an addition).  Kinds that call
//    m::exp / m::expm1 / m::pow / m::acos (lognormal, weibull, pareto, power, vonmises,
//    gamma and beta with a parameter below 1) use the device's libm: equal in law, the
//    last bit may differ between CUDA, ROCm and glibc.
// 4. Gamma is Marsaglia-Tsang (2000) for shape >= 1 on st.normal() and
//    st.uniform_open(); shape < 1 boosts: G(shape) = G(shape + 1) * u**(1/shape).  Beta,
//    chi-square, t and F are exact functions of gammas and normals.  Beta with a
//    parameter below 1, and the log-gamma kind behind dirichlet, work with log G so that
//    gammas which underflow (shape 1e-3 gives values below 1e-300 half the time) still
//    give the right ratio.
// 5. Triangular (inversion) and wald (Michael-Schucany-Haas) are NumPy's algorithms;
//    wald's root is rearranged so that it has no cancellation (see wald below).
// 6. The gamma kinds take their first try for rng::LANES elements at once (gamma_first:
//    the vectorised loop on the CPU device, as the packed kernels'); the squeeze accepts
//    ~98% of them for shape 2.  The rest are drawn again from the start of their stream
//    by dist_continuous, which reaches the same first try and goes on, so a value never
//    depends on which path computed it.
#pragma once
#include "philox.h"

namespace ga {
namespace rng {

GA_DEVICE double param(const double* p, double v, int64 i) { return p ? p[i] : v; }

enum {
    D_STD_EXPONENTIAL = 0,   // -log(u), u in (0, 1]
    D_EXPONENTIAL = 1,       // a = scale
    D_STD_GAMMA = 2,         // a = shape
    D_GAMMA = 3,             // a = shape, b = scale
    D_BETA = 4,              // a, b
    D_CHISQUARE = 5,         // a = df
    D_STD_T = 6,             // a = df
    D_F = 7,                 // a = dfnum, b = dfden
    D_LOGNORMAL = 8,         // a = mean, b = sigma
    D_LAPLACE = 9,           // a = loc, b = scale
    D_LOGISTIC = 10,         // a = loc, b = scale
    D_GUMBEL = 11,           // a = loc, b = scale
    D_WEIBULL = 12,          // a
    D_PARETO = 13,           // a
    D_RAYLEIGH = 14,         // a = scale
    D_STD_CAUCHY = 15,
    D_POWER = 16,            // a
    D_LOG_STD_GAMMA = 17,    // a = shape: log G (dirichlet normalises these)
    D_VONMISES = 18,         // a = mu, b = kappa
    D_TRIANGULAR = 19,       // a = left, b = mode, c = right
    D_WALD = 20,             // a = mean, b = scale
};

GA_DEVICE double std_exponential(Stream& st) { return -log_portable(st.uniform_open()); }

// Marsaglia-Tsang for shape >= 1: returns (d, v) with G = d * v, so the log-gamma kind
// can take log d + log v without forming a product that might overflow.
GA_DEVICE void gamma_mt(Stream& st, double shape, double* d_out, double* v_out) {
    double d = shape - 1.0 / 3.0;
    double c = 1.0 / m::sqrt(9.0 * d);
    for (;;) {
        double x = st.normal();
        double v = m::fma(c, x, 1.0);
        if (v <= 0.0) continue;
        v = v * v * v;
        double u = st.uniform_open();
        double x2 = x * x;
        // The squeeze 1 - 0.0331 x**4 accepts ~98% without a logarithm.
        // A cube below the smallest normal (log_portable's domain) would fail the log
        // test anyway: log v < -708 and d >= 2/3.
        if (u < m::fma(-0.0331, x2 * x2, 1.0) ||
            (v >= 2.2250738585072014e-308 &&
             log_portable(u) < m::fma(d, (1.0 - v) + log_portable(v), 0.5 * x2))) {
            *d_out = d;
            *v_out = v;
            return;
        }
    }
}

// G(shape) = G(shape + 1) * u**(1/shape) for 0 < shape < 1 (note 4).
GA_DEVICE double boost_gamma(double g1, double u, double shape) {
    return g1 * m::exp(log_portable(u) / shape);
}

// A standard gamma variate of `shape` >= 0 (0 gives 0, as NumPy).
GA_DEVICE double std_gamma(Stream& st, double shape) {
    if (shape == 0.0) return 0.0;
    double d, v;
    if (shape >= 1.0 || shape != shape) {   // NaN falls through to a NaN result
        gamma_mt(st, shape, &d, &v);
        return d * v;
    }
    gamma_mt(st, shape + 1.0, &d, &v);
    return boost_gamma(d * v, st.uniform_open(), shape);
}

// The gamma kinds (note 6): value = mult * std_gamma(shape).
GA_DEVICE bool gamma_kind(int64 kind) {
    return kind == D_STD_GAMMA || kind == D_GAMMA || kind == D_CHISQUARE;
}

// The first Marsaglia-Tsang try of the LANES gamma-kind elements g .. g + LANES - 1 at
// once (note 6).  Element i's stream gives its first normal from block 0 (L0: box_muller,
// as st.normal()) and then reads block 1 (L1): words 0-1 the try's uniform, words 2-3 the
// boost's (u2s[l]).  ok[l] = 1 when the squeeze accepts with shape >= 1 (the value is
// val[l]), 2 when it accepts with 0 < shape < 1 (boost_gamma of val[l] still to take), 0:
// shape 0 or NaN, v <= 0 and the logarithm's test are left to dist_continuous.  Every
// step is std_gamma's, so an accepted lane has its bits.
GA_FORCE_INLINE void gamma_first(int64 kind, const double* pa, double a, const double* pb,
                                 double b, int64 g, const Lanes& L0, const Lanes& L1,
                                 double* val, double* u2s, double* mult, int32* ok) {
    double shapes[LANES];
    for (int l = 0; l < LANES; ++l) {   // the parameters' branches kept out of the next loop
        double x = param(pa, a, g + l);
        shapes[l] = kind == D_CHISQUARE ? 0.5 * x : x;
        mult[l] = kind == D_GAMMA ? param(pb, b, g + l) : kind == D_CHISQUARE ? 2.0 : 1.0;
    }
    for (int l = 0; l < LANES; ++l) {
        double shape = shapes[l];
        bool boost = shape < 1.0;
        // shape + 0 or 1 (exact: shape >= 1 unchanged): a conditional addition would be a
        // branch (g++ under -ftrapping-math does not if-convert it), and a branch stops
        // the vectoriser
        double d = (shape + (double)(int32)boost) - 1.0 / 3.0;
        double c = 1.0 / m::sqrt(9.0 * d);
        double z0, z1;
        box_muller(L0.w[0][l], L0.w[1][l], L0.w[2][l], L0.w[3][l], &z0, &z1);
        double v = m::fma(c, z0, 1.0);
        double v3 = v * v * v;
        double u = exact53(bits53(L1.w[0][l], L1.w[1][l]) + 1) * 1.1102230246251565e-16;
        double u2 = exact53(bits53(L1.w[2][l], L1.w[3][l]) + 1) * 1.1102230246251565e-16;
        double x2 = z0 * z0;
        // & rather than &&: no branch in the loop
        int32 pass = (int32)(shape > 0.0) & (int32)(v > 0.0) &
                     (int32)(u < m::fma(-0.0331, x2 * x2, 1.0));
        val[l] = d * v3;
        u2s[l] = u2;
        ok[l] = pass + (pass & (int32)boost);
    }
}

// log of a standard gamma variate (-inf for shape 0).  Only log_portable: the same bits
// on every device.
GA_DEVICE double log_std_gamma(Stream& st, double shape) {
    if (shape == 0.0) return u64_as_double(0xfff0000000000000ull);   // -inf
    double d, v;
    if (shape >= 1.0 || shape != shape) {
        gamma_mt(st, shape, &d, &v);
        return log_portable(d) + log_portable(v);
    }
    gamma_mt(st, shape + 1.0, &d, &v);
    double u = st.uniform_open();
    return (log_portable(d) + log_portable(v)) + log_portable(u) / shape;
}

// X / (X + Y) for X ~ G(a), Y ~ G(b).  With a parameter below 1 either gamma may
// underflow to 0 (0 / 0), so the ratio is taken from the logs: 1 / (1 + exp(lY - lX)).
GA_DEVICE double beta(Stream& st, double a, double b) {
    if (a >= 1.0 && b >= 1.0) {
        double x = std_gamma(st, a);
        double y = std_gamma(st, b);
        return x / (x + y);
    }
    double lx = log_std_gamma(st, a);
    double ly = log_std_gamma(st, b);
    return 1.0 / (1.0 + m::exp(ly - lx));
}

// NumPy's von Mises sampler (Best and Fisher 1979, with its kappa cut-offs): cos(pi u)
// from garray's own cossin_turn on a 52-bit u (pi u = 2 pi k / 2**53, exact), acos from
// the device's libm.
GA_DEVICE double vonmises(Stream& st, double mu, double kappa) {
    const double pi = 3.141592653589793;
    if (kappa != kappa) return kappa;
    if (kappa < 1e-8) return pi * m::fma(2.0, st.uniform(), -1.0);
    double s;
    if (kappa < 1e-5) {
        s = 1.0 / kappa + kappa;     // second-order Taylor: rho underflows to 0 here
    } else if (kappa <= 1e6) {
        double r = 1.0 + m::sqrt(m::fma(4.0 * kappa, kappa, 1.0));
        double rho = (r - m::sqrt(2.0 * r)) / (2.0 * kappa);
        s = m::fma(rho, rho, 1.0) / (2.0 * rho);
    } else {                         // wrapped normal, as NumPy
        double x = m::fma(m::sqrt(1.0 / kappa), st.normal(), mu);
        if (x < -pi) x += 2.0 * pi;
        if (x > pi) x -= 2.0 * pi;
        return x;
    }
    double w;
    for (;;) {
        double z, unused;
        cossin_turn(st.next64() >> 12, &z, &unused);
        w = m::fma(s, z, 1.0) / (s + z);
        double y = kappa * (s - w);
        double v = st.uniform_open();
        double q = y / v;
        // log of a subnormal or non-positive q would be garbage: it rejects anyway.
        // y is a product, so 2 - y and log(q) + 1 - y are written as fma (note 5).
        if (m::fma(y, m::fma(-kappa, s - w, 2.0), -v) >= 0.0 ||
            (q >= 2.2250738585072014e-308 &&
             m::fma(-kappa, s - w, log_portable(q) + 1.0) >= 0.0))
            break;
    }
    double x = m::acos(w);
    if (st.uniform() < 0.5) x = -x;
    x += mu;
    bool neg = x < 0.0;
    double r = m::fmod(m::fabs(x) + pi, 2.0 * pi) - pi;
    return neg ? -r : r;
}

// NumPy's inversion of the triangular cdf on one 53-bit u in [0, 1).
GA_DEVICE double triangular(Stream& st, double left, double mode, double right) {
    double base = right - left;
    double leftbase = mode - left;
    double u = st.uniform();
    if (u <= leftbase / base) return left + m::sqrt(u * (leftbase * base));
    return right - m::sqrt((1.0 - u) * ((right - mode) * base));
}

// Michael-Schucany-Haas (NumPy's wald): with Y = mean Z**2, the smaller root of the
// inverse Gaussian's quadratic is X = mean + mean / (2 scale) (Y - sqrt(4 scale Y + Y**2)),
// kept with probability mean / (mean + X), else mean**2 / X.  NumPy's form cancels
// (Y - sqrt(...)) when Y >> scale; the same root written as X = mean v, v = 1 / w**2,
// w = z + sqrt(1 + z**2), z = |Z| sqrt(mean / (4 scale)), has no subtraction, and the test
// becomes u <= 1 / (1 + v), the other root mean / v.
GA_DEVICE double wald(Stream& st, double mean, double scale) {
    double n = m::fabs(st.normal()), k = 0.5 * m::sqrt(mean / scale);
    double z = n * k;
    double w = m::fma(n, k, m::sqrt(m::fma(z, z, 1.0)));   // z + sqrt(1 + z**2)
    double v = 1.0 / (w * w);
    double u = st.uniform();
    return u <= 1.0 / (1.0 + v) ? mean * v : mean / v;
}

// A uniform in (0, 1) from 52 bits, (k + 1/2) 2**-52: 1 - u is exact, and neither is 0.
GA_DEVICE double uniform_mid(Stream& st) {
    return ((double)(st.next64() >> 12) + 0.5) * 2.220446049250313e-16;
}

GA_DEVICE double dist_continuous(int64 kind, Stream& st, double a, double b, double c) {
    switch (kind) {
    case D_STD_EXPONENTIAL: return std_exponential(st);
    case D_EXPONENTIAL: return a * std_exponential(st);
    case D_STD_GAMMA: return std_gamma(st, a);
    case D_GAMMA: return b * std_gamma(st, a);
    case D_BETA: return beta(st, a, b);
    case D_CHISQUARE: return 2.0 * std_gamma(st, 0.5 * a);
    case D_STD_T: {   // z / sqrt(chi2(df) / df), chi2(df) / df = G(df/2) / (df/2)
        double z = st.normal();
        return z / m::sqrt(std_gamma(st, 0.5 * a) / (0.5 * a));
    }
    case D_F: {       // (chi2(d1) / d1) / (chi2(d2) / d2)
        double x = std_gamma(st, 0.5 * a) / (0.5 * a);
        return x / (std_gamma(st, 0.5 * b) / (0.5 * b));
    }
    case D_LOGNORMAL: return m::exp(m::fma(b, st.normal(), a));
    case D_LAPLACE: {  // loc -+ scale * E, the sign from one more word
        double e = std_exponential(st);
        return m::fma((st.next32() >> 31) ? -b : b, e, a);
    }
    case D_LOGISTIC: {  // loc + scale * log(u / (1 - u))
        double u = uniform_mid(st);
        return m::fma(b, log_portable(u) - log_portable(1.0 - u), a);
    }
    case D_GUMBEL: {   // loc - scale * log(-log(u)), u in (0, 1) as NumPy (u == 1 redrawn)
        double u;
        do {
            u = st.uniform_open();
        } while (u == 1.0);
        return m::fma(-b, log_portable(-log_portable(u)), a);
    }
    case D_WEIBULL: return a == 0.0 ? 0.0 : m::pow(std_exponential(st), 1.0 / a);
    case D_PARETO: return m::expm1(std_exponential(st) / a);
    case D_RAYLEIGH: return a * m::sqrt(-2.0 * log_portable(st.uniform_open()));
    case D_STD_CAUCHY: {
        double num = st.normal();
        return num / st.normal();
    }
    case D_POWER: return m::exp(log_portable(st.uniform_open()) / a);   // u**(1/a)
    case D_LOG_STD_GAMMA: return log_std_gamma(st, a);
    case D_VONMISES: return vonmises(st, a, b);
    case D_TRIANGULAR: return triangular(st, a, b, c);
    case D_WALD: return wald(st, a, b);
    default: return 0.0;     // unreachable: the launcher passes known kinds only
    }
}

}  // namespace rng
}  // namespace ga
