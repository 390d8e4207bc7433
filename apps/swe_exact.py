"""Reference solutions for the swe app's checks, in plain NumPy on gathered
coordinates (independent of the solver and of the backend):
Stoker's and Ritter's dam breaks on a flat bed, and the Bernoulli steady state
of subcritical flow over a bump."""
import numpy


def _stoker_middle(hl, hr, g):
    """Depth between the rarefaction and the shock: the root of
    2(cl - cm) = (hm - hr) sqrt(g (hm + hr) / (2 hm hr)) in (hr, hl)."""
    cl = numpy.sqrt(g * hl)

    def f(hm):
        return 2.0 * (cl - numpy.sqrt(g * hm)) - (hm - hr) * numpy.sqrt(g * (hm + hr) / (2.0 * hm * hr))

    lo, hi = hr, hl  # f(hr) > 0 > f(hl)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def dambreak(x, t, x0, hl, hr, g):
    """Depth and discharge of the dam break at x0 at time t > 0: Stoker's
    solution (rarefaction, shock) when hr > 0, Ritter's (rarefaction to a dry
    front) when hr = 0. x is a NumPy array of cell centres."""
    x = numpy.asarray(x, dtype=float)
    xi = (x - x0) / t
    cl = numpy.sqrt(g * hl)
    fan_h = (2.0 * cl - xi) ** 2 / (9.0 * g)
    fan_u = 2.0 / 3.0 * (xi + cl)
    h = numpy.full_like(x, hl)
    u = numpy.zeros_like(x)
    fan = xi >= -cl
    if hr == 0.0:
        front = 2.0 * cl
        h = numpy.where(fan, fan_h, h)
        u = numpy.where(fan, fan_u, u)
        dry = xi >= front
        h = numpy.where(dry, 0.0, h)
        u = numpy.where(dry, 0.0, u)
    else:
        hm = _stoker_middle(hl, hr, g)
        cm = numpy.sqrt(g * hm)
        um = 2.0 * (cl - cm)
        s = hm * um / (hm - hr)  # shock speed (mass balance across it)
        h = numpy.where(fan, fan_h, h)
        u = numpy.where(fan, fan_u, u)
        mid = xi >= um - cm
        h = numpy.where(mid, hm, h)
        u = numpy.where(mid, um, u)
        right = xi >= s
        h = numpy.where(right, hr, h)
        u = numpy.where(right, 0.0, u)
    return h, h * u


def bernoulli(b, q, h_out, g):
    """Subcritical depth h(x) with q^2/(2 g h^2) + h + b = const, the
    constant set by depth h_out where b = 0 (the outflow), by Newton's method
    per cell from h_out (the subcritical branch, h above critical)."""
    b = numpy.asarray(b, dtype=float)
    energy = q * q / (2.0 * g * h_out * h_out) + h_out
    h = numpy.full_like(b, h_out)
    for _ in range(100):
        f = q * q / (2.0 * g * h * h) + h + b - energy
        df = 1.0 - q * q / (g * h ** 3)
        h = h - f / df
    return h
