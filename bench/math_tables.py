#!/usr/bin/python3
"""Derives the constants of vm/simd_impl.h's f32 log (logF32: its 32-entry table and its
polynomial), f32 tanh (vtanh's polynomial below 1), f32 sin and cos (sinCosF32: their
polynomials on [0, pi/4] and pi/2 in two doubles) and erf and gelu_erf (below), printed as
C++. Needs NumPy and mpmath.

Table: z in [kOff, 2 kOff) (kOff = 0x3f320000, 0.6953125) is split by its bit pattern into
32 intervals of 2^18 patterns; 1.0 lies in the middle of interval 19. Each interval gets
invc, a float of at most 6 significant bits near 1/z over the interval (1 exactly for
interval 19) chosen to minimise max |z*invc - 1|; with 6 bits and |z*invc - 1| < 2^-5,
r = z*invc - 1 is a float exactly (checked below). log(1/invc) is split into a multiple
of 2^-16 (hi: k*ln2hi + hi is then exact for |k| < 256) and the rest rounded to f32 (lo).

Polynomial: log1p(r) ~ r + r^2 (c0 + c1 r + c2 r^2 + c3 r^3) over the r range of the table, the
error relative to r near-minimax (Lawson's iteratively reweighted least squares at
Chebyshev nodes), coefficients rounded to f32.

tanh: tanh(a) ~ a + a^3 R(a^2) on [0, 1], R of degree 6, the error relative to tanh(a)
near-minimax (the same method), coefficients rounded to f32.

sin and cos: sin(r) ~ r + r^3 S(r^2) and cos(r) ~ 1 - r^2/2 + r^4 C(r^2) on [0, pi/4], S
and C of degree 3, the same method, coefficients rounded to f32; pi/2 as hi + lo, hi its
first 33 significant bits (so n * hi is exact in double for |n| < 2^20) and lo the rest
rounded to double.

erf and gelu_erf (vm/simd_impl.h erfOfDoubles, geluErfOfFloats, evaluated in double):
- kErfOne, the float from which f32 erf rounds to 1 (erfc(x) < 2^-25), and erf(s) ~ s P(s^2)
  on [0, kErfOne], P of degree 19 with P(0) = 2/sqrt(pi), the error relative to erf(s) and,
  for s <= 3.5/sqrt(2), to erfc(s) near-minimax (gelu_erf takes Phi(x) = (1 + erf(s))/2,
  s = x/sqrt 2, from P for x >= -3.5, where the sum cancels);
- kPhiZero, a float beyond the x < 0 where x Phi(x) falls below 2^-150 (so rounds to 0 in
  f32), and gelu_erf's tail Phi(-v) ~ t e^(-v^2/2) G(t) for v in [3.5, kPhiZero], t = 1/(1 +
  q v), G of degree 7, the error relative to Phi(-v) near-minimax, q the best of a scan
  (the error moves by bits with q, as the next Chebyshev coefficient passes through zero);
- 1/sqrt(2) as hi + lo (both doubles) and 2/sqrt(pi), for the f64 gelu_erf's correction
  of erfc's argument.
Both fitted in the Chebyshev basis over the interval (powers of s^2 up to 15 are
ill-conditioned for a least-squares solve), converted to powers of the kernel's variable
and rounded to double; the printed errors are of the rounded coefficients evaluated by
Horner in double.

usage: math_tables.py
"""
import struct

import mpmath as mp
import numpy as np

mp.mp.prec = 100
OFF = 0x3f800000 - int(19.5 * (1 << 18))
N = 32


def b2f(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def table():
    rows, rmin, rmax = [], 0.0, 0.0
    for i in range(N):
        lo, hi = b2f(OFF + i * (1 << 18)), b2f(OFF + (i + 1) * (1 << 18) - 1)
        if lo <= 1.0 <= hi:
            invc = 1.0
        else:
            mid = 2 / (lo + hi)
            step = 2.0 ** (np.floor(np.log2(mid)) - 5)  # 6 significant bits
            cands = [m * step for m in range(round(mid / step) - 3, round(mid / step) + 4)]
            invc = min(cands, key=lambda v: max(abs(lo * v - 1), abs(hi * v - 1)))
        r0, r1 = lo * invc - 1, hi * invc - 1
        assert max(abs(r0), abs(r1)) < 2 ** -5, (i, r0, r1)
        rmin, rmax = min(rmin, r0), max(rmax, r1)
        logc = -mp.log(mp.mpf(invc))
        lhi = float(mp.nint(logc * 2 ** 16) / 2 ** 16)
        llo = float(np.float32(float(logc - lhi)))
        # Fast2Sum(k*ln2hi + lhi, r) in vlog needs |lhi| >= |r| when lhi != 0 (k = 0).
        assert lhi == 0 or abs(lhi) >= max(abs(r0), abs(r1)), i
        rows.append((invc, lhi, llo))
    return rows, rmin, rmax


def poly(a, b, deg=4, n=4000):
    t = np.cos(np.pi * (np.arange(n) + 0.5) / n)
    r = (a + b) / 2 + (b - a) / 2 * t
    r = r[np.abs(r) > 1e-6]
    q = np.array([float((mp.log1p(mp.mpf(x)) - x) / mp.mpf(x) ** 2) for x in r])
    A = np.vander(r, deg, increasing=True)
    w = np.ones_like(r)
    for _ in range(60):
        sw = np.sqrt(w) * np.abs(r)
        c, *_ = np.linalg.lstsq(A * sw[:, None], q * sw, rcond=None)
        e = np.abs(A @ c - q) * np.abs(r)
        w = w * e / (w * e).sum()
    c32 = np.array([np.float32(x) for x in c], dtype=np.float64)
    return c32, (np.abs(A @ c32 - q) * np.abs(r)).max()


def lawson_fit(u, R, wgt, deg, iterations=80, interval=None):
    """Coefficients c of sum c_i u^i near-minimax for the error |P(u) - R| * wgt (Lawson's
    iteratively reweighted least squares), rounded to f32, and that error's maximum.
    With interval=(lo, hi) (u within it), fitted in the Chebyshev basis over the interval,
    converted to powers of u and rounded to double instead, the error that of Horner's
    evaluation in double."""
    if interval is None:
        A = np.vander(u, deg + 1, increasing=True)
    else:
        lo, hi = interval
        A = np.polynomial.chebyshev.chebvander((2 * u - lo - hi) / (hi - lo), deg)
    w = np.ones_like(u)
    for _ in range(iterations):
        sw = np.sqrt(w) * wgt
        c, *_ = np.linalg.lstsq(A * sw[:, None], R * sw, rcond=None)
        e = np.abs(A @ c - R) * wgt
        w = w * e / (w * e).sum()
    if interval is not None:
        powers = np.polynomial.Polynomial(np.polynomial.chebyshev.cheb2poly(c))
        c = powers(np.polynomial.Polynomial([-(lo + hi) / (hi - lo), 2 / (hi - lo)])).coef
        return c, (np.abs(np.polynomial.polynomial.polyval(u, c) - R) * wgt).max()
    c32 = np.array([np.float32(x) for x in c], dtype=np.float64)
    return c32, (np.abs(A @ c32 - R) * wgt).max()


def tanh_poly(deg=6, n=3000):
    t = np.cos(np.pi * (np.arange(n) + 0.5) / n)
    u = (1 + t) / 2
    a = np.sqrt(u)
    th = np.array([float(mp.tanh(mp.mpf(x))) for x in a])
    R = np.array([float((mp.tanh(mp.mpf(x)) - mp.mpf(x)) / mp.mpf(x) ** 3) for x in a])
    return lawson_fit(u, R, a ** 3 / th, deg)


def trig_poly(kind, deg=3, n=3000):
    t = np.cos(np.pi * (np.arange(n) + 0.5) / n)
    u = float(mp.pi / 4) ** 2 * (1 + t) / 2
    r = np.sqrt(u)
    if kind == "sin":
        fx = np.array([float(mp.sin(mp.mpf(x))) for x in r])
        R = np.array([float((mp.sin(mp.mpf(x)) - mp.mpf(x)) / mp.mpf(x) ** 3) for x in r])
        return lawson_fit(u, R, r ** 3 / fx, deg)
    fx = np.array([float(mp.cos(mp.mpf(x))) for x in r])
    R = np.array([float((mp.cos(mp.mpf(x)) - 1 + mp.mpf(x) ** 2 / 2) / mp.mpf(x) ** 4) for x in r])
    return lawson_fit(u, R, r ** 4 / fx, deg)


def chebyshev_nodes(lo, hi, n):
    return (lo + hi) / 2 + (hi - lo) / 2 * np.cos(np.pi * (np.arange(n) + 0.5) / n)


def erf_one():
    """The float nearest erfinv(1 - 2^-25), checked to lie above it: from there erf(x)
    is within 2^-25 of 1 and rounds to 1 in f32; below it, to 1 - 2^-24 or less."""
    x = mp.erfinv(1 - mp.mpf(2) ** -25)
    f = float(np.float32(float(x)))
    assert f > x and float(np.nextafter(np.float32(f), np.float32(0))) < x
    return f


# gelu_erf's Phi(x) = (1 + erf(x/sqrt 2))/2 is taken from erf's polynomial for x >= -GELU_SPLIT
# and from the tail form below it.
GELU_SPLIT = 3.5


def erf_poly(deg=19, n=4000):
    """erf(s) ~ s P(s^2) on [0, kErfOne], P(0) = 2/sqrt(pi) rounded to double (so erf of a
    tiny s is that product, rounded), the other coefficients near-minimax for the error
    relative to erf(s) and, for s up to GELU_SPLIT/sqrt(2), also relative to erfc(s) = 1 -
    erf(s) (gelu_erf's Phi(-x) there is erfc(s)/2, which 1 + erf(-s) gives only as
    accurately as erf's absolute error)."""
    X = erf_one()
    c0 = float(2 / mp.sqrt(mp.pi))
    u = chebyshev_nodes(0, X * X, n)
    s = np.sqrt(u)
    erf = np.array([float(mp.erf(mp.mpf(v))) for v in s])
    erfc = np.array([float(mp.erfc(mp.mpf(v))) for v in s])
    R = np.array([float((mp.erf(mp.mpf(v)) / mp.mpf(v) - c0) / mp.mpf(v) ** 2) for v in s])
    wgt = s * np.maximum(1 / erf, np.where(s <= GELU_SPLIT / np.sqrt(2), 1 / erfc, 0))
    c, err = lawson_fit(u, R, wgt * u, deg - 1, iterations=150, interval=(0, X * X))
    c = np.concatenate([[c0], c])
    full = np.array([float(mp.erf(mp.mpf(v)) / mp.mpf(v)) for v in s])
    relative_to_erf = (np.abs(np.polynomial.polynomial.polyval(u, c) - full) * s / erf).max()
    return c, err, relative_to_erf


def phi_zero():
    """A float above the v where v Phi(-v) = 2^-150 (x Phi(x) at x = -v rounds to -0 in
    f32 beyond it)."""
    v = mp.findroot(lambda v: v * mp.ncdf(-v) - mp.mpf(2) ** -150, 14.3)
    f = float(np.nextafter(np.float32(float(v)), np.float32(100)))
    assert f > v
    return f


def phi_tail(q, deg, n):
    """Phi(-v) ~ t e^(-v^2/2) G(t), t = 1/(1 + q v), for v in [GELU_SPLIT, kPhiZero], the
    error relative to Phi(-v)."""
    tlo, thi = 1 / (1 + q * phi_zero()), 1 / (1 + q * GELU_SPLIT)
    t = chebyshev_nodes(tlo, thi, n)
    v = (1 / t - 1) / q
    G = np.array([float(mp.ncdf(-mp.mpf(x)) * mp.exp(mp.mpf(x) ** 2 / 2) / mp.mpf(y)) for x, y in zip(v, t)])
    return lawson_fit(t, G, 1 / G, deg, iterations=150, interval=(tlo, thi))


def phi_poly(deg=7):
    """phi_tail at the q of [0.15, 0.8] (steps of 0.01) with the smallest error: the
    error moves with q by bits, as the next Chebyshev coefficient passes through zero."""
    q = min((round(0.15 + 0.01 * i, 2) for i in range(66)), key=lambda q: phi_tail(q, deg, 600)[1])
    c, err = phi_tail(q, deg, 3000)
    return q, c, err


def main():
    rows, rmin, rmax = table()
    ln2 = mp.log(2)
    ln2hi = float(mp.nint(ln2 * 2 ** 16) / 2 ** 16)
    ln2lo = float(np.float32(float(ln2 - ln2hi)))
    c, err = poly(rmin * 1.001, rmax * 1.001)
    def hexf(v):
        if v == 0:
            return "0.0f"
        mant, exp = float(np.float32(v)).hex().split("p")
        return "%sp%sf" % (mant.rstrip("0").rstrip("."), exp)

    print("// kOff 0x%08x, r in [%.6f, %.6f]" % (OFF, rmin, rmax))
    print("invc[32] = {%s};" % ", ".join("%rf" % r[0] for r in rows))
    print("logcHi[32] = {%s};" % ", ".join("%rf" % r[1] for r in rows))
    print("logcLo[32] = {%s};" % ", ".join(hexf(r[2]) for r in rows))
    print("ln2hi = %rf, ln2lo = %s;" % (ln2hi, hexf(ln2lo)))
    print("poly[4] = {%s};  // max error relative to r: 2^%.2f" % (", ".join(hexf(v) for v in c), np.log2(err)))
    c, err = tanh_poly()
    print("tanh R[7] = {%s};  // max error relative to tanh: 2^%.2f" % (", ".join(hexf(v) for v in c), np.log2(err)))
    for kind in ("sin", "cos"):
        c, err = trig_poly(kind)
        print("%s poly[4] = {%s};  // max error relative to %s: 2^%.2f" % (
            kind, ", ".join(hexf(v) for v in c), kind, np.log2(err)))
    half_pi = mp.pi / 2
    e = int(mp.floor(mp.log(half_pi, 2)))
    hi = float(mp.floor(half_pi * 2 ** (32 - e)) / 2 ** (32 - e))
    lo = float(half_pi - mp.mpf(hi))
    print("pi/2 = %s + %s; 2/pi = %s" % (float(hi).hex(), float(lo).hex(), float(2 / mp.pi).hex()))
    def hexd(cs):
        return ", ".join(float(v).hex() for v in cs)
    c, err, rel = erf_poly()
    print("kErfOne = %s (%.9g)" % (hexf(erf_one()), erf_one()))
    print("erf P[%d] = {%s};  // max error relative to erf and (s < %g/sqrt 2) erfc: 2^%.2f; to erf: 2^%.2f" % (
        len(c), hexd(c), GELU_SPLIT, np.log2(err), np.log2(rel)))
    q, c, err = phi_poly()
    print("kPhiZero = %s (%.9g), q = %r" % (hexf(phi_zero()), phi_zero(), q))
    print("Phi G[%d] = {%s};  // max error relative to Phi(-v): 2^%.2f" % (len(c), hexd(c), np.log2(err)))
    r = 1 / mp.sqrt(2)
    print("1/sqrt(2) = %s + %s; 2/sqrt(pi) = %s" % (float(r).hex(), float(r - mp.mpf(float(r))).hex(),
                                                   float(2 / mp.sqrt(mp.pi)).hex()))


if __name__ == "__main__":
    main()
