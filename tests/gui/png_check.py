#!/usr/bin/env python3
"""Checks that a PNG is a real picture (Python 3 standard library only).

Usage: png_check.py FILE --width W --height H [--min-colours N] [--max-share F]
       png_check.py --self-test
Exit 0 when the file is a valid 8-bit RGB/RGBA PNG of exactly W x H pixels with at least
N distinct colours and no single colour covering more than F of the pixels; 1 otherwise.
--self-test encodes random pictures with every filter type (0-4) and checks the decoder.
"""
import argparse
import collections
import itertools
import struct
import sys
import zlib

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class PngError(Exception):
    pass


def read_png(path):
    """Returns (width, height, channels, pixels) with pixels the unfiltered bytes, row by row."""
    with open(path, "rb") as f:
        data = f.read()
    if not data.startswith(PNG_SIGNATURE):
        raise PngError("not a PNG file (bad signature)")
    pos = len(PNG_SIGNATURE)
    ihdr = None
    idat = []
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc = data[pos + 8 + length:pos + 12 + length]
        if len(body) != length or len(crc) != 4:
            raise PngError("truncated chunk %r" % kind)
        if zlib.crc32(kind + body) & 0xFFFFFFFF != struct.unpack(">I", crc)[0]:
            raise PngError("bad CRC in chunk %r" % kind)
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + length
    if ihdr is None or not idat:
        raise PngError("missing IHDR or IDAT")
    width, height, depth, colour_type, _, _, interlace = ihdr
    if depth != 8 or colour_type not in (2, 6) or interlace != 0:
        raise PngError("unsupported PNG: depth %d, colour type %d, interlace %d" % (depth, colour_type, interlace))
    channels = 3 if colour_type == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    return width, height, channels, unfilter(raw, width, height, channels)


def unfilter(raw, width, height, bpp):
    """Undoes the per-row filters 0 (None), 1 (Sub), 2 (Up), 3 (Average), 4 (Paeth)."""
    stride = width * bpp
    if len(raw) != height * (stride + 1):
        raise PngError("image data has %d bytes, expected %d" % (len(raw), height * (stride + 1)))
    out = bytearray(height * stride)
    prev = bytes(stride)
    mask = (255).__and__
    for y in range(height):
        start = y * (stride + 1)
        ft = raw[start]
        line = bytearray(raw[start + 1:start + 1 + stride])
        if ft == 0:
            pass
        elif ft == 1:  # Sub: a running sum per channel
            for c in range(bpp):
                line[c::bpp] = bytes(map(mask, itertools.accumulate(line[c::bpp])))
        elif ft == 2:  # Up
            line = bytearray(map(mask, map(int.__add__, line, prev)))
        elif ft == 3:  # Average
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif ft == 4:  # Paeth
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        else:
            raise PngError("bad filter type %d in row %d" % (ft, y))
        out[y * stride:(y + 1) * stride] = line
        prev = line
    return bytes(out)


def colour_counts(pixels, channels):
    if channels == 3:
        # Pixels as 24-bit integers: pad to 4 bytes per pixel is slower; slice per pixel instead.
        view = memoryview(pixels)
        return collections.Counter(bytes(view[i:i + 3]) for i in range(0, len(pixels), 3))
    ints = struct.unpack("<%dI" % (len(pixels) // 4), pixels)
    return collections.Counter(ints)


def check(path, width, height, min_colours, max_share):
    """Returns a list of problems (empty: the picture is fine)."""
    try:
        w, h, channels, pixels = read_png(path)
    except (OSError, PngError, zlib.error) as e:
        return ["%s: %s" % (path, e)]
    problems = []
    if (w, h) != (width, height):
        problems.append("size is %dx%d, expected %dx%d" % (w, h, width, height))
    counts = colour_counts(pixels, channels)
    total = w * h
    top, top_n = counts.most_common(1)[0]
    share = top_n / total
    print("%s: %dx%d, %d colours, most common colour covers %.1f%%" % (path, w, h, len(counts), 100 * share))
    if len(counts) < min_colours:
        problems.append("only %d distinct colours (at least %d expected)" % (len(counts), min_colours))
    if share > max_share:
        problems.append("one colour covers %.1f%% of the pixels (at most %.0f%% expected)" % (100 * share, 100 * max_share))
    return problems


def encode_png(width, height, channels, pixels, filters):
    """A PNG of `pixels` whose row y uses filter filters[y % len(filters)] (for the self-test)."""
    stride = width * channels
    rows = []
    prev = bytes(stride)
    for y in range(height):
        line = pixels[y * stride:(y + 1) * stride]
        ft = filters[y % len(filters)]
        enc = bytearray([ft])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if ft == 0:
                pred = 0
            elif ft == 1:
                pred = a
            elif ft == 2:
                pred = b
            elif ft == 3:
                pred = (a + b) >> 1
            else:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            enc.append((line[i] - pred) & 255)
        rows.append(bytes(enc))
        prev = line

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2 if channels == 3 else 6, 0, 0, 0)
    return PNG_SIGNATURE + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b"")


def self_test():
    import os
    import random
    import tempfile
    rng = random.Random(1)
    failures = 0
    for channels in (3, 4):
        for filters in ([0], [1], [2], [3], [4], [0, 1, 2, 3, 4]):
            w, h = rng.randint(1, 40), rng.randint(1, 30)
            pixels = bytes(rng.randrange(256) for _ in range(w * h * channels))
            with tempfile.NamedTemporaryFile(suffix=".png", delete=False) as f:
                f.write(encode_png(w, h, channels, pixels, filters))
            try:
                got = read_png(f.name)
            finally:
                os.unlink(f.name)
            if got != (w, h, channels, pixels):
                print("FAIL: %d channels, filters %s: decoded picture differs" % (channels, filters))
                failures += 1
    print("self-test: %s" % ("failed" if failures else "every filter type decodes exactly"))
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?")
    ap.add_argument("--width", type=int)
    ap.add_argument("--height", type=int)
    ap.add_argument("--min-colours", type=int, default=50)
    ap.add_argument("--max-share", type=float, default=0.9)
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    if not a.file or a.width is None or a.height is None:
        ap.error("FILE, --width and --height are required")
    problems = check(a.file, a.width, a.height, a.min_colours, a.max_share)
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
