#!/usr/bin/python3
"""Derives the constants of vm/simd_impl.h's f32 log (logF32: its 32-entry table and its
polynomial), f32 tanh (vtanh's polynomial below 1) and f32 sin and cos (sinCosF32: their
polynomials on [0, pi/4] and pi/2 in two doubles), printed as C++. Needs NumPy and
mpmath.

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


def lawson_fit(u, R, wgt, deg, iterations=80):
    """Coefficients c of sum c_i u^i near-minimax for the error |P(u) - R| * wgt (Lawson's
    iteratively reweighted least squares), rounded to f32, and that error's maximum."""
    A = np.vander(u, deg + 1, increasing=True)
    w = np.ones_like(u)
    for _ in range(iterations):
        sw = np.sqrt(w) * wgt
        c, *_ = np.linalg.lstsq(A * sw[:, None], R * sw, rcond=None)
        e = np.abs(A @ c - R) * wgt
        w = w * e / (w * e).sum()
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


if __name__ == "__main__":
    main()
