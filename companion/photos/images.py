"""What the server keeps of an uploaded photo: a JPEG it made itself from the pixels alone.

A phone's photo carries more than its picture: EXIF (with the GPS coordinates of where it was taken,
the phone's make, the time), XMP, thumbnails, comments. None of it is stored or shown. An upload is

1. bounded before anything reads it: at most :data:`MAX_UPLOAD_BYTES` (the page scales a photo to at
   most 200 KB on the phone, ``companion/static/photo.js``);
2. one of three types by its first bytes and by the decoder that opens it (JPEG, PNG, WebP: what
   phones' cameras and canvases make; an SVG, a GIF, a TIFF, a PDF or anything else is refused);
3. bounded in its pieces before any decoder reads it (``structure.py``): at most
   :data:`MAX_SEGMENTS` segments and :data:`MAX_SCANS` scans in a JPEG, :data:`MAX_CHUNKS` chunks
   in a PNG or a WebP;
4. bounded in its dimensions from its header, before its pixels are decoded (at most
   :data:`MAX_SIDE` px a side). Pillow's own decompression-bomb guard is set to the same bound
   (``Image.MAX_IMAGE_PIXELS``), so a file that claims more pixels stops in ``Image.open``;
5. checked whole: ``verify`` (the structure and checksums, where the format has them), then
   ``load`` (every pixel, once: a truncated file fails here, since Pillow is never told to accept one);
6. turned upright by its EXIF orientation, its colours converted to sRGB by its ICC profile (when
   it has one), transparency laid on white, scaled down to at most :data:`STORED_SIDE` px a side;
7. copied into a new image from its pixels alone (nothing of the upload's ``info`` can follow) and
   encoded as a baseline JPEG with no metadata at all, as large and as good as fits
   :data:`STORED_BYTES`: at most :data:`MAX_ENCODES` encodings (see :func:`_encode`).

What is stored is only what step 7 wrote. Anything that fails is refused with a sentence a player
understands (a :class:`games.base.RuleError`), and nothing is stored.

So the work of one check is bounded whatever the file (issue 29; ``bench/photo_check.py`` builds
the worst files and measures them): one decoding of at most 2048 x 2048 px (a JPEG's in at most 32
scans), at most four scalings and five JPEG encodings of at most 1600 px a side. The worst file
found costs about 0.3 s of CPU on a 2-core laptop (0.6 s before, and 93 s for a JPEG of 24,000
scans, which is refused now).
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageCms, ImageOps, PngImagePlugin, UnidentifiedImageError

from companion.photos import structure
from games.base import RuleError

MAX_UPLOAD_BYTES = 400 * 1024  # what an upload may be, as sent
MAX_SIDE = 2048  # px: the longest side an upload may have
STORED_SIDE = 1600  # px: the longest side of what is stored (a host screen shows it large)
STORED_BYTES = 300 * 1024  # what one stored photo may be, at most
QUALITIES = (85, 75, 65, 55)  # JPEG qualities tried in turn, until the photo fits STORED_BYTES
SIDES = (STORED_SIDE, 1280, 1024, 800)  # … and the sizes, when no quality is enough at one
# Every (size, quality) in the order they are preferred; the first that fits is found by bisection.
TRIES = tuple((side, quality) for side in SIDES for quality in QUALITIES)
MAX_ENCODES = 1 + (len(TRIES) - 1).bit_length()  # 5: the first try, then a bisection of the other 15
# The pieces of a file, each a pass of a decoder (structure.py). A camera's or a canvas's JPEG is
# baseline (one scan) in some 10-20 segments (its EXIF, an ICC profile in up to 7 pieces, tables);
# a progressive one has about 10 scans (libjpeg's: 10 scans in 25 segments), each with its tables.
# The worst scan measured costs 3-4 ms on a 2048 px picture, so 32 of them cost about 0.13 s.
MAX_SCANS = 32
MAX_SEGMENTS = 256
# A PNG's pixels come in IDAT chunks of 8-64 KB from every common encoder (50 of them fill an
# upload); a WebP photo is a few chunks. 1,024 walked in Python cost Pillow under 10 ms.
MAX_CHUNKS = 1024
MIME = "image/jpeg"  # what every stored photo is

# The types taken, by their first bytes, and the decoders allowed to open them.
SIGNATURES = ((b"\xff\xd8\xff", "JPEG"), (b"\x89PNG\r\n\x1a\n", "PNG"))
FORMATS = ("JPEG", "PNG", "WEBP")

# Pillow's guards, for the whole process (this module is its only user in the server): a file
# claiming more pixels than the largest upload allowed warns, twice that is refused in Image.open;
# a PNG's text chunks (decompressed, they could be a zip bomb of their own) stay small.
Image.MAX_IMAGE_PIXELS = MAX_SIDE * MAX_SIDE
PngImagePlugin.MAX_TEXT_CHUNK = 64 * 1024
PngImagePlugin.MAX_TEXT_MEMORY = 256 * 1024


@dataclass(frozen=True)
class Checked:
    """A photo as the server keeps it: a JPEG of its own making, and its size in pixels."""

    data: bytes
    width: int
    height: int
    mime: str = MIME


def too_large() -> RuleError:
    return RuleError("That photo is too large to send: at most %(most)s KB.", most=MAX_UPLOAD_BYTES // 1024)


def not_a_photo() -> RuleError:
    return RuleError("That is not a photo: send a JPEG, PNG or WebP picture.")


def unreadable() -> RuleError:
    return RuleError("That photo could not be read: it may be damaged or cut short. Take it again.")


def too_many_pixels() -> RuleError:
    return RuleError("That picture is too large: at most %(most)s pixels on its longest side.", most=MAX_SIDE)


def kind_of(data: bytes) -> str | None:
    """The type ``data`` says it is by its first bytes (JPEG, PNG, WEBP), or None."""
    for signature, kind in SIGNATURES:
        if data.startswith(signature):
            return kind
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WEBP"
    return None


def check_photo(data: bytes) -> Checked:
    """The photo the server keeps of the upload ``data``, or the RuleError that says why none."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise too_large()
    kind = kind_of(data)
    if kind is None:
        raise not_a_photo()
    if not _few_pieces(data, kind):
        raise unreadable()  # no camera makes such a file; a phone's page sends a plain JPEG
    try:
        _open(data, kind).verify()  # the structure and checksums; the image cannot be used after it
        image = _open(data, kind)
        image.load()  # every pixel: a file cut short fails here
        picture = _upright_srgb(image)
    except RuleError:
        raise
    except Image.DecompressionBombError:
        raise too_many_pixels() from None
    except Exception as error:  # noqa: BLE001 - a hostile file can break a decoder in any way
        raise unreadable() from error
    return _encode(picture)


def _few_pieces(data: bytes, kind: str) -> bool:
    """Whether ``data`` has no more pieces (JPEG segments and scans, PNG or WebP chunks) than allowed."""
    if kind == "JPEG":
        segments, scans = structure.jpeg_pieces(data, MAX_SEGMENTS)
        return segments <= MAX_SEGMENTS and scans <= MAX_SCANS
    if kind == "PNG":
        return structure.png_chunks(data, MAX_CHUNKS) <= MAX_CHUNKS
    return structure.riff_chunks(data, MAX_CHUNKS) <= MAX_CHUNKS


def _open(data: bytes, kind: str) -> Image.Image:
    """``data`` opened by the decoder its first bytes name (only its header read), its size checked."""
    try:
        image = Image.open(io.BytesIO(data), formats=[kind])
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise too_many_pixels() from None
    except UnidentifiedImageError:
        raise unreadable() from None
    if image.format not in FORMATS:  # pragma: no cover - formats=[kind] allows no other
        raise not_a_photo()
    width, height = image.size
    if max(width, height) > MAX_SIDE:
        raise too_many_pixels()
    if min(width, height) < 1:
        raise unreadable()
    return image


def _upright_srgb(image: Image.Image) -> Image.Image:
    """The first frame, turned by its EXIF orientation, in sRGB, opaque (transparency on white)."""
    try:
        upright = ImageOps.exif_transpose(image) or image
    except Exception:  # noqa: BLE001 - a broken orientation tag: the picture as it is stored
        upright = image
    profile = image.info.get("icc_profile")
    if profile and upright.mode in ("RGB", "CMYK"):
        try:
            converted = ImageCms.profileToProfile(upright, ImageCms.ImageCmsProfile(io.BytesIO(profile)),
                                                  ImageCms.createProfile("sRGB"), outputMode="RGB")
            if converted is not None:  # None only for a conversion in place, which this is not
                upright = converted
        except (ImageCms.PyCMSError, OSError, ValueError, TypeError):
            pass  # a profile that cannot be read: the pixels as they are
    if upright.mode in ("I;16", "I;16B", "I;16L", "I"):
        upright = upright.convert("I").point(lambda value: value * (1 / 256)).convert("L")
    elif upright.mode == "F":
        upright = upright.convert("L")
    if upright.mode in ("RGBA", "LA", "PA") or (upright.mode == "P" and "transparency" in upright.info):
        rgba = upright.convert("RGBA")
        paper = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        upright = Image.alpha_composite(paper, rgba)
    return upright.convert("RGB")


def _encode(picture: Image.Image) -> Checked:
    """A new JPEG of the picture's pixels alone, as large and as good as fits ``STORED_BYTES``.

    The best of :data:`TRIES` that fits: the first (the whole size, the best quality) fits nearly
    every photo; past it the others are bisected, a JPEG's bytes falling along the list (a smaller
    size or a lower quality), so a picture that fits none (noise) costs five encodings, not sixteen.
    Each size is scaled once, from the nearest larger one made (each scaling a shorter one).
    """
    # A new image with the pixels alone: none of the upload's EXIF, XMP, ICC profile or comment
    # (Pillow's JPEG writer takes a comment from ``info``) can follow.
    clean = Image.new("RGB", picture.size)
    clean.paste(picture)
    scaled: dict[int, Image.Image] = {}

    def at(side: int) -> Image.Image:
        if max(clean.size) <= side:
            return clean
        if side not in scaled:
            source = min((image for s, image in scaled.items() if s > side), key=lambda i: i.width, default=clean)
            ratio = side / max(clean.size)
            size = (max(1, round(clean.width * ratio)), max(1, round(clean.height * ratio)))
            scaled[side] = source.resize(size, Image.Resampling.LANCZOS, reducing_gap=3.0)
        return scaled[side]

    def encoded(index: int) -> bytes:
        side, quality = TRIES[index]
        out = io.BytesIO()
        at(side).save(out, format="JPEG", quality=quality, optimize=True)
        return out.getvalue()

    data = encoded(0)
    if len(data) <= STORED_BYTES:
        return Checked(data, *at(TRIES[0][0]).size)
    # The first of the others that fits, or the last (800 px at the lowest quality) if none does.
    low, high, made = 1, len(TRIES) - 1, {}
    while low < high:
        middle = (low + high) // 2
        made[middle] = encoded(middle)
        if len(made[middle]) <= STORED_BYTES:
            high = middle
        else:
            low = middle + 1  # so ``low``, if it was tried, fitted
    data = made[low] if low in made else encoded(low)
    return Checked(data, *at(TRIES[low][0]).size)
