"""Draws the app's icons (companion/static/icons/), for the web app manifest: three cards fanned
on the table's dark cloth, the middle one turned face up with its gold mark. Run once after a
change of design (``python deploy/icons.py``); the PNG files are committed, so the app draws
nothing at run time. Pillow (a dependency already, for the photos) does the drawing.

The maskable icon keeps its cards within the safe zone (the middle 80%), as a phone crops it to a
circle or a squircle; the plain icon fills its square with rounded corners of its own.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

ICONS = Path(__file__).resolve().parent.parent / "companion" / "static" / "icons"
CLOTH, PANEL, LINE, GOLD, INK = "#14161c", "#292e3a", "#3a4050", "#f2b33d", "#f4f1ea"
SCALE = 4  # drawn large, then reduced: smooth edges without an antialiasing pass of our own


def card(size: int, angle: float, face: bool) -> Image.Image:
    """One card, ``size`` px high, turned by ``angle`` degrees; the face-up one with its mark."""
    w, h = int(size * 0.66), size
    layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    radius = size // 9
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius, fill=INK if face else PANEL, outline=LINE,
                           width=max(2, size // 40))
    if face:
        r = w // 4
        cx, cy = w // 2, h // 2
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=GOLD)
        draw.rounded_rectangle((w // 5, h // 8, w - w // 5, h // 8 + size // 14), size // 28, fill=GOLD)
    return layer.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True)


def icon(px: int, safe: float, rounded: bool) -> Image.Image:
    """The icon at ``px`` px square; the cards within the middle ``safe`` share of it."""
    big = px * SCALE
    out = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(out)
    if rounded:
        draw.rounded_rectangle((0, 0, big - 1, big - 1), big // 5, fill=CLOTH)
    else:
        draw.rectangle((0, 0, big - 1, big - 1), fill=CLOTH)
    h = int(big * safe * 0.72)
    for angle, dx, face in ((18, -0.2, False), (-18, 0.2, False), (0, 0.0, True)):
        layer = card(h, angle, face)
        x = int(big / 2 + dx * big * safe - layer.width / 2)
        y = int(big / 2 - layer.height / 2 + (0 if face else big * 0.03))
        out.alpha_composite(layer, (x, y))
    return out.resize((px, px), Image.Resampling.LANCZOS)


def main() -> None:
    ICONS.mkdir(parents=True, exist_ok=True)
    for px in (192, 512):
        icon(px, 0.9, rounded=True).save(ICONS / f"icon-{px}.png", optimize=True)
        icon(px, 0.72, rounded=False).save(ICONS / f"maskable-{px}.png", optimize=True)


if __name__ == "__main__":
    main()
