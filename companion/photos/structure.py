"""How many pieces an upload is made of, counted before any decoder reads it (issue 29).

A decoder's work grows with the pieces of a file, not only with its pixels: libjpeg makes a pass
over every block of the picture for each scan of a progressive JPEG, so a 400 KB file of some
24,000 scans of one 2048 px picture took 93 s of CPU to decode; Pillow reads a JPEG's segments and
a PNG's chunks one by one in Python (100,000 empty segments: 0.35 s before the picture). Neither
Pillow nor libjpeg-turbo's API as Pillow uses it has a limit on either (djpeg's ``-maxscans`` is
the command's, not the library's), so the pieces are counted here, with the file's own framing,
and :mod:`companion.photos.images` refuses a file with more than it allows.

Hand-written, since no library counts them: a JPEG is markers (``FF`` and a code; every segment but
a few carries its length) with the scans' entropy-coded data between them, in which a marker is
found the way libjpeg finds it (``FF``, maybe more ``FF`` bytes, a code that is not ``00`` nor, in
a scan, a restart); a PNG is chunks with their lengths, a WebP RIFF chunks with theirs. Each count
stops as soon as it passes ``most``: the walk costs no more than the pieces allowed.
"""

from __future__ import annotations

import re
import struct

MARKER = re.compile(rb"(?<=\xff)[^\x00\xff]")  # the code of the next JPEG marker, after its FF bytes
IN_SCAN = re.compile(rb"(?<=\xff)[^\x00\xff\xd0-\xd7]")  # … in a scan's data, where restarts belong
STANDALONE = {0x01, 0xD8, *range(0xD0, 0xD8)}  # TEM, SOI, RST0-7: markers with no length after them
EOI, SOS = 0xD9, 0xDA


def jpeg_pieces(data: bytes, most: int) -> tuple[int, int]:
    """The segments and the scans of a JPEG, each counted up to just past ``most``."""
    segments = scans = 0
    at = 2  # after SOI
    while segments <= most and scans <= most:
        marker = MARKER.search(data, at)
        if marker is None:
            break
        code, at = marker[0][0], marker.end()
        segments += 1
        if code == EOI:
            break
        if code in STANDALONE:
            continue
        if at + 2 > len(data):
            break
        at += max(2, int.from_bytes(data[at:at + 2], "big"))
        if code == SOS:
            scans += 1
            following = IN_SCAN.search(data, at)
            if following is None:
                break
            at = following.start() - 1  # its FF, for MARKER to find
    return segments, scans


def png_chunks(data: bytes, most: int) -> int:
    """The chunks of a PNG, counted up to just past ``most``."""
    count, at = 0, 8  # after the signature
    while count <= most and at + 8 <= len(data):
        length, kind = struct.unpack_from(">I4s", data, at)
        count += 1
        if kind == b"IEND":
            break
        at += 12 + length  # length, type, data, CRC
    return count


def riff_chunks(data: bytes, most: int) -> int:
    """The chunks of a WebP (a RIFF file; an animation's frames are chunks), up to just past ``most``."""
    count, at = 0, 12  # after "RIFF", the size, "WEBP"
    while count <= most and at + 8 <= len(data):
        (length,) = struct.unpack_from("<I", data, at + 4)
        count += 1
        at += 8 + length + (length & 1)  # padded to an even size
    return count
