"""The photos that cost the server the most to check, each within what an upload may be (issue 29):
made here for the test of the bound (tests/test_photos.py) and for the benchmark that measures it
(bench/photo_check.py).

Each is a picture as large as the server takes (``images.MAX_SIDE`` a side) and as hard as fits in
``images.MAX_UPLOAD_BYTES``: noise (the most bytes a picture of its size can need, so every
re-encoding is at its largest), or flat (the largest ratio of pixels to bytes), or a file whose
structure makes a decoder loop: thousands of scans in a progressive JPEG (each one a pass over
every block of the picture), thousands of chunks in a PNG, thousands of empty segments before a
JPEG's picture. Made with Pillow, then, where no encoder writes such a file, edited by hand.
"""

from __future__ import annotations

import io
import random
import struct
import zlib
from collections.abc import Callable

from PIL import Image, ImageFile

from companion.photos import images

SIDE = images.MAX_SIDE
LIMIT = images.MAX_UPLOAD_BYTES


def _noise(size: tuple[int, int], mode: str = "RGB", seed: int = 29) -> Image.Image:
    """A picture of random pixels (the same for the same seed)."""
    rows = (size[0] + 7) // 8 * size[1] if mode == "1" else size[0] * size[1] * len(mode)
    return Image.frombytes(mode, size, random.Random(seed).randbytes(rows))


def _saved(image: Image.Image, kind: str, **params) -> bytes:
    out = io.BytesIO()
    image.save(out, kind, **params)
    return out.getvalue()


def _best_fitting(make: Callable[[int], bytes], low: int, high: int) -> bytes:
    """``make(quality)`` at the highest quality in ``low..high`` that still fits an upload."""
    best = make(low)
    while low <= high:
        middle = (low + high) // 2
        data = make(middle)
        if len(data) <= LIMIT:
            best, low = data, middle + 1
        else:
            high = middle - 1
    return best


def jpeg_noise() -> bytes:
    """A baseline JPEG of noise, MAX_SIDE a side, at the best quality that fits."""
    picture = _noise((SIDE, SIDE))
    return _best_fitting(lambda q: _saved(picture, "JPEG", quality=q), 1, 95)


def webp_noise() -> bytes:
    """A lossy WebP of noise, MAX_SIDE a side, at the best quality that fits."""
    picture = _noise((SIDE, SIDE))
    return _best_fitting(lambda q: _saved(picture, "WEBP", quality=q, method=0), 0, 100)


def webp_lossless_flat() -> bytes:
    """A lossless WebP, MAX_SIDE a side, of one colour: the most pixels for the fewest bytes."""
    return _saved(Image.new("RGB", (SIDE, SIDE), (120, 130, 140)), "WEBP", lossless=True)


def png_noise() -> bytes:
    """A PNG of one-bit noise, as many rows of MAX_SIDE px as fit (2048 x 1536): the most pixels of
    noise an upload can hold, every one a colour to re-encode."""
    rows = LIMIT * 8 // SIDE * 95 // 100
    return _saved(_noise((SIDE, rows), "1"), "PNG")


def png_flat_interlaced() -> bytes:
    """An interlaced 16-bit RGBA PNG, MAX_SIDE a side, of one colour: 33 MB of pixels in a few KB,
    decoded in seven passes."""
    picture = Image.new("RGBA", (SIDE, SIDE), (120, 130, 140, 200))
    flat = _saved(picture, "PNG")
    return _with_header(flat, bit_depth=16, interlace=1, data=_rows(SIDE, SIDE, 8))


def png_many_chunks() -> bytes:
    """A small PNG with private chunks (12 bytes each) filling the upload: tens of thousands of them
    for the decoder to walk, one by one, before the picture."""
    plain = _saved(Image.new("RGB", (64, 64), (0, 90, 200)), "PNG")
    end = plain.index(b"IDAT") - 4
    junk = _chunk(b"prVt", b"")
    count = (LIMIT - len(plain)) // len(junk)
    return plain[:end] + junk * count + plain[end:]


def jpeg_many_scans() -> bytes:
    """A progressive JPEG, MAX_SIDE a side, whose last scan is repeated until the upload is full:
    some 24,000 scans, each a pass over every block of the picture (the decoder warns that the
    progression is odd, and goes on)."""
    flat = _saved(Image.new("RGB", (SIDE, SIDE), (120, 130, 140)), "JPEG", quality=90, progressive=True)
    end = len(flat) - 2  # the EOI marker
    last = flat[flat.rindex(b"\xff\xda"):end]
    return flat[:end] + last * ((LIMIT - len(flat)) // len(last)) + flat[end:]


def jpeg_many_segments() -> bytes:
    """A small JPEG with empty comment segments (4 bytes each) before its picture, filling the
    upload: some 100,000 markers for the decoder to read one by one."""
    plain = _saved(Image.new("RGB", (64, 64), (200, 40, 30)), "JPEG")
    comment = b"\xff\xfe\x00\x02"
    count = (LIMIT - len(plain)) // len(comment)
    return plain[:2] + comment * count + plain[2:]


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _rows(width: int, height: int, pixel_bytes: int) -> bytes:
    """The deflated pixel data of a flat interlaced picture: each Adam7 pass's rows, filter 0."""
    passes = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2))
    raw = bytearray()
    pixel = bytes((0, 120, 0, 130, 0, 140, 0, 200))[:pixel_bytes]
    for x0, y0, dx, dy in passes:
        columns = (width - x0 + dx - 1) // dx
        lines = (height - y0 + dy - 1) // dy
        if columns and lines:
            raw += (b"\0" + pixel * columns) * lines
    return zlib.compress(bytes(raw), 9)


def _with_header(png: bytes, bit_depth: int, interlace: int, data: bytes) -> bytes:
    """``png``'s size and colour type, with another bit depth, interlacing and pixel data."""
    width, height, _, colour = struct.unpack(">IIBB", png[16:26])
    header = struct.pack(">IIBBBBB", width, height, bit_depth, colour, 0, 0, interlace)
    return (png[:8] + _chunk(b"IHDR", header) + _chunk(b"IDAT", data) + _chunk(b"IEND", b""))


class Work:
    """Counts what Pillow is asked to do while it is in use: pixels decoded, scalings, encodings."""

    def __init__(self):
        self.decoded = self.scalings = self.encodings = 0

    def __enter__(self):
        self.saved = ImageFile.ImageFile.load, Image.Image.resize, Image.Image.save
        load, resize, save = self.saved
        work = self

        def counted_load(image, *args, **kwargs):
            if image.tile:  # pixels still to decode
                work.decoded += image.width * image.height
            return load(image, *args, **kwargs)

        def counted_resize(image, *args, **kwargs):
            work.scalings += 1
            return resize(image, *args, **kwargs)

        def counted_save(image, *args, **kwargs):
            work.encodings += 1
            return save(image, *args, **kwargs)

        ImageFile.ImageFile.load, Image.Image.resize, Image.Image.save = counted_load, counted_resize, counted_save
        return self

    def __exit__(self, *exc):
        ImageFile.ImageFile.load, Image.Image.resize, Image.Image.save = self.saved


CASES: dict[str, Callable[[], bytes]] = {
    "jpeg-noise": jpeg_noise,
    "jpeg-24000-scans": jpeg_many_scans,
    "jpeg-100000-segments": jpeg_many_segments,
    "webp-noise": webp_noise,
    "webp-lossless-flat": webp_lossless_flat,
    "png-1bit-noise": png_noise,
    "png-16bit-interlaced": png_flat_interlaced,
    "png-30000-chunks": png_many_chunks,
}
