#!/usr/bin/env python3
"""Whether an export's drawing keeps everything inside its own edges, as a slide shows it:
each SVG of FILE (an .svg, or an HTML page's inline <svg> charts) is rendered by
rsvg-convert on a canvas MARGIN pixels larger on every side, and any ink outside the
drawing's own width and height (text running past its edge, which a slide or a browser
clips) is reported with where it is. With --slide WxH the drawing must also fit a slide of
that size without being scaled down. Prints "ok" or what is wrong; exit status 0 or 1.

   python3 svg_unclipped.py FILE [--slide 1920x1080]
"""
import re
import struct
import subprocess
import sys
import zlib

MARGIN = 120      # drawing units around the drawing
ZOOM = 0.5        # rendered at half size: text is still ink, and the check is quick


def png_pixels(data):
    """Width, height and rows of RGBA bytes of an 8-bit RGBA or RGB PNG (rsvg-convert's)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), "an RGB(A) 8-bit PNG"
            bpp = 4 if ctype == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev, at = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        if bpp == 3:
            line = bytearray(b"".join(bytes(line[i:i + 3]) + b"\xff" for i in range(0, stride, 3)))
        rows.append(line)
    return width, height, rows


def check(svg, slide):
    m = re.search(r"<svg\b[^>]*>", svg)
    tag = m.group(0)
    w = re.search(r'\bwidth="(\d+(?:\.\d+)?)"', tag)
    h = re.search(r'\bheight="(\d+(?:\.\d+)?)"', tag)
    if not w or not h:
        return "the drawing gives no width and height in pixels"
    W, H = float(w.group(1)), float(h.group(1))
    vb = re.search(r'\bviewBox="([^"]+)"', tag)
    x0, y0, vw, vh = (float(v) for v in vb.group(1).split()) if vb else (0, 0, W, H)
    if abs(vw - W) > 0.5 or abs(vh - H) > 0.5:
        return "its viewBox (%gx%g) is not its size (%gx%g): the check needs them equal" % (vw, vh, W, H)
    new = re.sub(r'\b(width|height|viewBox)="[^"]*"', "", tag)
    new = new[:-1].rstrip("/") + ' width="%d" height="%d" viewBox="%g %g %g %g">' % (
        W + 2 * MARGIN, H + 2 * MARGIN, x0 - MARGIN, y0 - MARGIN, W + 2 * MARGIN, H + 2 * MARGIN)
    if "xmlns=" not in new:
        new = new.replace("<svg", '<svg xmlns="http://www.w3.org/2000/svg"', 1)
    big = svg[:m.start()] + new + svg[m.end():]
    png = subprocess.run(["rsvg-convert", "-f", "png", "-z", str(ZOOM)], input=big.encode(), capture_output=True)
    if png.returncode:
        return "rsvg-convert: " + png.stderr.decode(errors="replace").strip()
    width, height, rows = png_pixels(png.stdout)
    inside = (MARGIN * ZOOM, MARGIN * ZOOM, (MARGIN + W) * ZOOM, (MARGIN + H) * ZOOM)
    ink = 0
    first = None
    for y in range(height):
        row = rows[y]
        for x in range(width):
            if inside[0] <= x < inside[2] and inside[1] <= y < inside[3]:
                continue
            r, g, b, a = row[4 * x:4 * x + 4]
            if a > 32 and min(r, g, b) < 200:
                ink += 1
                if first is None:
                    first = (x / ZOOM - MARGIN, y / ZOOM - MARGIN)
    if ink:
        return "%d pixels of ink outside the %gx%g drawing (the first at x=%d y=%d): something runs past its edge" % (
            ink, W, H, first[0], first[1])
    if slide and (W > slide[0] or H > slide[1]):
        return "%gx%g does not fit a %dx%d slide unscaled" % (W, H, slide[0], slide[1])
    return None


def main():
    path = sys.argv[1]
    slide = None
    if "--slide" in sys.argv:
        slide = tuple(int(v) for v in sys.argv[sys.argv.index("--slide") + 1].split("x"))
    text = open(path, encoding="utf-8").read()
    svgs = re.findall(r"<svg\b.*?</svg>", text, re.S)
    if not svgs:
        print("%s: no <svg> drawing" % path)
        return 1
    for i, svg in enumerate(svgs):
        why = check(svg, slide)
        if why:
            print("%s%s: %s" % (path, " (chart %d)" % (i + 1) if len(svgs) > 1 else "", why))
            return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
