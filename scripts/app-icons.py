#!/usr/bin/env python3
"""Draws the web app's home-screen icons from the tree of static/tree.svg, with no dependency beyond
Python: icon-192.png and icon-512.png (a rounded tile), and icon-maskable-192.png and
icon-maskable-512.png (full bleed, the tree inside the central 80 % that every mask keeps).

    scripts/app-icons.py [--out Sources/GroveServer/Resources/static]

The PNGs are committed; run this again only when the tree changes."""
import argparse, struct, zlib

# tree.svg, in its 40 x 48 viewBox: the trunk, then the two layers of needles.
TRUNK = ((18, 30), (22, 44), (0x7a, 0x52, 0x30))
LAYERS = [(((20, 4), (34, 26), (6, 26)), (0x2e, 0x7d, 0x32)), (((20, 14), (36, 36), (4, 36)), (0x43, 0xa0, 0x47))]
GROUND = (0xe8, 0xf5, 0xe9)
SAMPLES = 3  # per axis: 9 samples a pixel smooth the edges


def inside(p, tri):
    (x, y), (a, b, c) = p, tri
    def side(p1, p2):
        return (x - p2[0]) * (p1[1] - p2[1]) - (p1[0] - p2[0]) * (y - p2[1])
    d1, d2, d3 = side(a, b), side(b, c), side(c, a)
    return not ((d1 < 0 or d2 < 0 or d3 < 0) and (d1 > 0 or d2 > 0 or d3 > 0))


def colour_at(x, y, size, tree_box, rounded):
    """The colour of the point (x, y) of a size x size icon, or None outside a rounded tile."""
    if rounded:
        r = size * 0.22
        cx, cy = min(max(x, r), size - r), min(max(y, r), size - r)
        if (x - cx) ** 2 + (y - cy) ** 2 > r * r:
            return None
    left, top, scale = tree_box
    tx, ty = (x - left) / scale, (y - top) / scale
    colour = GROUND
    (x0, y0), (x1, y1), trunk = TRUNK
    if x0 <= tx <= x1 and y0 <= ty <= y1:
        colour = trunk
    for tri, green in LAYERS:
        if inside((tx, ty), tri):
            colour = green
    return colour


def icon(size, maskable):
    # The tree's 40 x 48 box fills 70 % of the tile's height, or 60 % inside a mask's safe zone.
    height = size * (0.6 if maskable else 0.7)
    scale = height / 48
    box = ((size - 40 * scale) / 2, (size - height) / 2, scale)
    rows = []
    for py in range(size):
        row = bytearray([0])
        for px in range(size):
            acc, hits = [0, 0, 0], 0
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    c = colour_at(px + (sx + 0.5) / SAMPLES, py + (sy + 0.5) / SAMPLES, size, box, not maskable)
                    if c:
                        hits += 1
                        for i in range(3):
                            acc[i] += c[i]
            n = SAMPLES * SAMPLES
            row += bytes([acc[i] // hits if hits else 0 for i in range(3)] + [255 * hits // n])
        rows.append(bytes(row))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b"")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="Sources/GroveServer/Resources/static")
    out = parser.parse_args().out
    for size in (192, 512):
        for maskable in (False, True):
            name = f"{out}/icon-{'maskable-' if maskable else ''}{size}.png"
            with open(name, "wb") as f:
                f.write(icon(size, maskable))
            print(name)


if __name__ == "__main__":
    main()
