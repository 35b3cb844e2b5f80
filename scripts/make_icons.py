#!/usr/bin/env python3
"""Draw the app icons (PNG): a playing card with a spade on green felt.

    python scripts/make_icons.py [--out web/offline/icons]

Writes icon-192.png and icon-512.png (purpose "any": a rounded felt tile, transparent corners)
and icon-maskable-512.png (purpose "maskable": full-bleed felt, the card inside the central
safe circle of radius 40 %). The files are committed; rerun this only to change the drawing.
Each pixel is the average of 4x4 samples of the shapes below (anti-aliasing). With PyPI `zopfli`
installed (requirements-dev.txt), each file is then re-encoded losslessly by its zopflipng (filters
chosen per row, Zopfli's deflate): about 30 % smaller, bytes every first visit precaches.
"""

from __future__ import annotations

import argparse
import math
import struct
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "web" / "offline" / "icons"

RGBA = tuple[float, float, float, float]
FELT_CENTRE: RGBA = (0x1A / 255, 0x7A / 255, 0x4F / 255, 1.0)
FELT_EDGE: RGBA = (0x0D / 255, 0x4D / 255, 0x32 / 255, 1.0)  # the page's theme colour
CARD: RGBA = (0xFB / 255, 0xF8 / 255, 0xF0 / 255, 1.0)
CARD_EDGE: RGBA = (0xC9 / 255, 0xC2 / 255, 0xAE / 255, 1.0)
INK: RGBA = (0x1B / 255, 0x1B / 255, 0x1B / 255, 1.0)
SHADOW: RGBA = (0.0, 0.0, 0.0, 0.35)
CLEAR: RGBA = (0.0, 0.0, 0.0, 0.0)
SAMPLES = 4


def rounded_box(x: float, y: float, half_w: float, half_h: float, radius: float) -> bool:
    """Inside an axis-aligned rectangle centred on 0 with rounded corners."""
    dx, dy = abs(x) - (half_w - radius), abs(y) - (half_h - radius)
    if dx <= 0 or dy <= 0:
        return abs(x) <= half_w and abs(y) <= half_h
    return dx * dx + dy * dy <= radius * radius


def spade(x: float, y: float) -> bool:
    """A spade of height ~1 centred on 0 (y grows downwards): an upside-down heart and a stem."""
    # The heart curve (x²+y²-1)³ - x²y³ <= 0 points down with y upwards: read with y downwards,
    # as here, it points up.
    hx, hy = x * 2.3, (y + 0.1) * 2.3
    if (hx * hx + hy * hy - 1) ** 3 - hx * hx * hy**3 <= 0:
        return True
    # The stem: a small triangle under the lobes.
    top, bottom = 0.15, 0.5
    if top <= y <= bottom:
        half = 0.03 + (y - top) / (bottom - top) * 0.14
        return abs(x) <= half
    return False


def over(top: RGBA, bottom: RGBA) -> RGBA:
    """Porter-Duff 'over' with straight alpha."""
    alpha = top[3] + bottom[3] * (1 - top[3])
    if alpha == 0:
        return CLEAR
    mix = [(top[i] * top[3] + bottom[i] * bottom[3] * (1 - top[3])) / alpha for i in range(3)]
    return (mix[0], mix[1], mix[2], alpha)


def sample(u: float, v: float, maskable: bool) -> RGBA:
    """Colour at (u, v) in [-0.5, 0.5]², y downwards."""
    if not maskable and not rounded_box(u, v, 0.5, 0.5, 0.18):
        return CLEAR
    t = min(1.0, math.hypot(u, v) / 0.7)
    r, g, b = (FELT_CENTRE[i] * (1 - t) + FELT_EDGE[i] * t for i in range(3))
    felt: RGBA = (r, g, b, 1.0)
    scale = 0.78 if maskable else 1.0  # the card's half-diagonal stays within the 0.4 safe circle
    x, y = u / scale, v / scale
    half_w, half_h, radius = 0.255, 0.355, 0.045
    colour = felt
    if rounded_box(x - 0.018, y - 0.022, half_w, half_h, radius):
        colour = over(SHADOW, colour)
    if rounded_box(x, y, half_w, half_h, radius):
        colour = CARD_EDGE
        if rounded_box(x, y, half_w - 0.01, half_h - 0.01, radius - 0.01):
            colour = CARD
            if spade(x / 0.36, (y + 0.01) / 0.36):
                colour = INK
            for cx, cy in ((-0.19, -0.27), (0.19, 0.27)):  # corner pips
                if spade((x - cx) / 0.085, (y - cy) / 0.085 * (1 if cy < 0 else -1)):
                    colour = INK
    return colour


def render(size: int, maskable: bool) -> bytes:
    """Raw RGBA rows, each prefixed by PNG filter byte 0."""
    rows = bytearray()
    step = 1 / (size * SAMPLES)
    for py in range(size):
        rows.append(0)
        for px in range(size):
            acc = [0.0, 0.0, 0.0, 0.0]
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    u = (px * SAMPLES + sx + 0.5) * step - 0.5
                    v = (py * SAMPLES + sy + 0.5) * step - 0.5
                    r, g, b, a = sample(u, v, maskable)
                    acc[0] += r * a
                    acc[1] += g * a
                    acc[2] += b * a
                    acc[3] += a
            alpha = acc[3] / SAMPLES**2
            rgb = [acc[i] / acc[3] for i in range(3)] if alpha > 0 else [0.0, 0.0, 0.0]
            rows += bytes(round(255 * c) for c in (*rgb, alpha))
    return bytes(rows)


def png(width: int, height: int, rows: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def optimised(data: bytes) -> bytes:
    """The same image, smaller: zopflipng's lossless re-encoding when PyPI `zopfli` is there."""
    try:
        import zopfli.png  # type: ignore[import-untyped]
    except ImportError:
        return data
    smaller = bytes(zopfli.png.optimize(data))
    return smaller if len(smaller) < len(data) else data


ICONS = {"icon-192.png": (192, False), "icon-512.png": (512, False), "icon-maskable-512.png": (512, True)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Draw the PWA icons.")
    parser.add_argument("--out", type=Path, default=OUT, help="folder (default web/offline/icons)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, (size, maskable) in ICONS.items():
        data = optimised(png(size, size, render(size, maskable)))
        (args.out / name).write_bytes(data)
        print(f"{args.out / name}: {size}x{size}, {len(data) / 1e3:.1f} kB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
