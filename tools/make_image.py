#!/usr/bin/env python3
"""Write the test picture of apps/laplace_image: a deterministic 8-bit
grey-level PGM (P5) with gradients and shapes (a disc, a ring, a square, a
triangle, stripes), made with plain Python so it is the same everywhere.

    python tools/make_image.py                   # apps/data/shapes.pgm, 128 x 128
    python tools/make_image.py --size 64 --out /tmp/small.pgm
"""
import argparse
import math
import os


def pixel(x, y):
    """grey level at (x, y) in [0, 1)^2, y down"""
    v = 60 + 90 * x + 40 * y                                  # a diagonal ramp
    if (x - 0.3) ** 2 + (y - 0.3) ** 2 < 0.16 ** 2:           # a bright disc
        v = 235 - 60 * y
    r = math.hypot(x - 0.72, y - 0.7)
    if 0.10 < r < 0.17:                                       # a dark ring
        v = 25
    if 0.55 < x < 0.9 and 0.12 < y < 0.4:                     # a square of stripes
        v = 128 + 80 * math.sin(2 * math.pi * 6 * x)
    if y > 0.55 and x > 0.08 and x < 0.45 and y - 0.55 > abs(x - 0.265) * 1.6:  # a triangle
        v = 180 - 120 * (y - 0.55)
    return max(0, min(255, int(round(v))))


def image(size):
    return bytes(pixel((i + 0.5) / size, (j + 0.5) / size) for j in range(size) for i in range(size))


def main(argv=None):
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--size", type=int, default=128)
    p.add_argument("--out", default=os.path.normpath(os.path.join(here, os.pardir, "apps", "data", "shapes.pgm")))
    a = p.parse_args(argv)
    if a.size < 3:
        p.error(f"--size {a.size}: at least 3")
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "wb") as f:
        f.write(b"P5\n# apps/laplace_image test picture (tools/make_image.py)\n%d %d\n255\n" % (a.size, a.size))
        f.write(image(a.size))
    print(f"wrote {a.out} ({a.size} x {a.size})")


if __name__ == "__main__":
    main()
