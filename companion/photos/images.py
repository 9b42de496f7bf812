"""What the server keeps of an uploaded photo: a JPEG it made itself from the pixels alone.

A phone's photo carries more than its picture: EXIF (with the GPS coordinates of where it was taken,
the phone's make, the time), XMP, thumbnails, comments. None of it is stored or shown. An upload is

1. bounded before anything reads it: at most :data:`MAX_UPLOAD_BYTES` (the page scales a photo to at
   most 200 KB on the phone, ``companion/static/photo.js``);
2. one of three types by its first bytes and by the decoder that opens it (JPEG, PNG, WebP: what
   phones' cameras and canvases make; an SVG, a GIF, a TIFF, a PDF or anything else is refused);
3. bounded in its dimensions from its header, before its pixels are decoded (at most
   :data:`MAX_SIDE` px a side). Pillow's own decompression-bomb guard is set to the same bound
   (``Image.MAX_IMAGE_PIXELS``), so a file that claims more pixels stops in ``Image.open``;
4. decoded in full twice: ``verify`` (the file's structure and checksums), then ``load`` (every
   pixel: a truncated file fails here, since Pillow is never told to accept one);
5. turned upright by its EXIF orientation, its colours converted to sRGB by its ICC profile (when
   it has one), transparency laid on white, scaled down to at most :data:`STORED_SIDE` px a side;
6. copied into a new image from its pixels alone (nothing of the upload's ``info`` can follow) and
   encoded as a baseline JPEG with no metadata at all, at a quality that keeps it within
   :data:`STORED_BYTES`.

What is stored is only what step 6 wrote. Anything that fails is refused with a sentence a player
understands (a :class:`games.base.RuleError`), and nothing is stored.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageCms, ImageOps, PngImagePlugin, UnidentifiedImageError

from games.base import RuleError

MAX_UPLOAD_BYTES = 400 * 1024  # what an upload may be, as sent
MAX_SIDE = 2048  # px: the longest side an upload may have
STORED_SIDE = 1600  # px: the longest side of what is stored (a host screen shows it large)
STORED_BYTES = 300 * 1024  # what one stored photo may be, at most
QUALITIES = (85, 75, 65, 55)  # JPEG qualities tried in turn, until the photo fits STORED_BYTES
SIDES = (STORED_SIDE, 1280, 1024, 800)  # … and the sizes, when no quality is enough at one
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
            upright = ImageCms.profileToProfile(upright, ImageCms.ImageCmsProfile(io.BytesIO(profile)),
                                                ImageCms.createProfile("sRGB"), outputMode="RGB")
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
    """A new JPEG of the picture's pixels alone, as large and as good as fits ``STORED_BYTES``."""
    # A new image with the pixels alone: none of the upload's EXIF, XMP, ICC profile or comment
    # (Pillow's JPEG writer takes a comment from ``info``) can follow.
    clean = Image.new("RGB", picture.size)
    clean.paste(picture)
    data, scaled = b"", clean
    for side in SIDES:
        if max(scaled.size) > side:
            ratio = side / max(clean.size)
            size = (max(1, round(clean.width * ratio)), max(1, round(clean.height * ratio)))
            scaled = clean.resize(size, Image.Resampling.LANCZOS, reducing_gap=3.0)
        for quality in QUALITIES:
            out = io.BytesIO()
            scaled.save(out, format="JPEG", quality=quality, optimize=True)
            data = out.getvalue()
            if len(data) <= STORED_BYTES:
                return Checked(data, *scaled.size)
    return Checked(data, *scaled.size)  # 800 px at the lowest quality: far below the bound in practice
