"""Virtual inkblot cards: a deterministic, mirror-symmetric SVG inkblot for every card number.

A table without the box still needs blots to look at. ``inkblot_svg(number)`` draws card
``number`` the way a real blot is made: ink dropped on one half of a sheet, the sheet folded along
its vertical middle, so the picture is the left half and its exact mirror image.

How a blot is drawn (all chance comes from a generator seeded by the card number alone, so card
17 is the same picture on every screen and in every replay):

- The ink is a field over the left half of the sheet: a few large pools along the fold (the body),
  side lobes, runs of small drops that thin out into tendrils, splatter drops thrown further out,
  and a couple of "dry" spots that leave white gaps inside the ink. Two octaves of value noise
  roughen the edges the way ink bleeds into paper.
- The field is copied onto the right half as a mirror image, and its outline is traced with
  marching squares. Points are kept in tenths of a unit and the right half's points are computed as
  exact mirrors of the left half's, so the geometry is symmetric to the last digit.
- The traced outline has a point every 1-2.5 units; only the points the curve needs are kept (none
  that moves it by more than 0.3 units goes), on a grid of 0.2 units, again mirrored exactly. A card
  is a fourth to a third of the bytes of every traced point (8.5 KB on average, 29.6 KB before),
  drawn the same: tests/test_inkblots.py renders both and compares the pixels.
- The outline is drawn as smooth quadratic curves with even-odd filling (so the gaps stay white),
  in two tones: the whole stain, and a denser core where the ink pooled. Specks too small for the
  grid are added as tiny circles, mirrored like everything else.

Pure: no I/O, no clock, no shared state; the result depends on ``number`` only. Drawing a card
takes 30-150 ms, so no request draws one: the cards 1 to :data:`CARDS` are drawn once, by
``python -m companion.inkblots``, and shipped as files the server serves as they are.
"""

from __future__ import annotations

import math
import random

CARDS = 100  # the virtual cards are numbered 1..CARDS, as many as a box of blots; the games deal from them
WIDTH = 400
HEIGHT = 300
STEP = 2.5  # grid spacing of the traced field, in SVG units
COLUMNS = int(WIDTH / STEP)  # grid points run 0..COLUMNS; column COLUMNS // 2 is the fold
ROWS = int(HEIGHT / STEP)
FOLD = COLUMNS // 2
MIDDLE = WIDTH * 10 // 2  # the fold, in the tenths of a unit the outline's points are kept in
TOLERANCE = 3  # tenths of a unit: how far a lean outline may stray from the traced one
THRESHOLD = 0.5  # where the field is at least this, there is ink
CORE = 1.15  # where it is at least this, the ink pooled (the darker tone)
PAPER = "#ffffff"
INK = "#1b1b1b"
DENSE_INK = "#050505"


def inkblot_svg(number: int) -> str:
    """The SVG picture of virtual inkblot card ``number`` (same number, same picture)."""
    if isinstance(number, bool) or not isinstance(number, int):
        raise TypeError("an inkblot card is identified by an integer")
    rng = random.Random(f"inkblot:{number}")
    field, density = _field(rng)
    stain = _outline(field, THRESHOLD)
    core = _outline(density, CORE)
    specks = _specks(rng, field)
    parts = [  # the specks take the ink colour from the sheet
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" fill="{INK}" role="img" aria-label="Inkblot {number}">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="{PAPER}"/>',
        f'<path fill="{INK}" fill-rule="evenodd" d="{stain}"/>',
    ]
    if core:
        parts.append(f'<path fill="{DENSE_INK}" fill-rule="evenodd" d="{core}"/>')
    for x, y, r in specks:
        parts.append(f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(r)}"/>')
    parts.append("</svg>")
    return "".join(parts)


# --- the ink field ------------------------------------------------------------------------------

class _Drop:
    """One pool of ink: an ellipse with a soft edge, adding (or, when dry, removing) ink."""

    __slots__ = ("x", "y", "rx", "ry", "cos", "sin", "weight")

    def __init__(self, x, y, rx, ry, angle=0.0, weight=1.0):
        self.x, self.y, self.rx, self.ry = x, y, rx, ry
        self.cos, self.sin = math.cos(angle), math.sin(angle)
        self.weight = weight


def _drops(rng: random.Random) -> list[_Drop]:
    """The pools, lobes, tendrils, splatter and dry spots of one blot (left half, x <= fold)."""
    fold = WIDTH / 2
    drops: list[_Drop] = []
    # The body: pools along the fold, overlapping it so the halves join.
    top = rng.uniform(35, 95)
    bottom = rng.uniform(205, 265)
    for _ in range(rng.randint(3, 5)):
        y = rng.uniform(top, bottom)
        rx = rng.uniform(22, 55)
        ry = rng.uniform(22, 60)
        drops.append(_Drop(fold - rng.uniform(0, 18), y, rx, ry, rng.uniform(-0.6, 0.6), rng.uniform(0.9, 1.3)))
    body = list(drops)
    # Side lobes: the wings, arms and heads people see.
    for _ in range(rng.randint(2, 6)):
        anchor = rng.choice(body)
        angle = rng.uniform(math.pi * 0.55, math.pi * 1.45)
        reach = rng.uniform(35, 105)
        x = anchor.x + math.cos(angle) * reach
        y = anchor.y + math.sin(angle) * reach * 0.8
        drops.append(_Drop(x, y, rng.uniform(14, 42), rng.uniform(12, 40), rng.uniform(0, math.pi), rng.uniform(0.8, 1.2)))
    lobes = drops[len(body):] or body
    # Tendrils: runs of drops that thin out, ending in a droplet.
    for _ in range(rng.randint(1, 5)):
        start = rng.choice(body + lobes)
        x, y = start.x, start.y
        heading = rng.uniform(math.pi * 0.5, math.pi * 1.5)
        size = rng.uniform(7, 13)
        for _ in range(rng.randint(5, 14)):
            heading += rng.gauss(0, 0.35)
            step = rng.uniform(5, 10)
            x += math.cos(heading) * step
            y += math.sin(heading) * step
            drops.append(_Drop(x, y, size * 1.3, size, heading, 1.0))
            size *= rng.uniform(0.82, 0.95)
            if size < 3.2:
                break
        if rng.random() < 0.7:
            x += math.cos(heading) * rng.uniform(8, 16)
            y += math.sin(heading) * rng.uniform(8, 16)
            r = rng.uniform(4, 8)
            drops.append(_Drop(x, y, r, r, 0.0, 1.1))
    # Splatter: drops thrown out from the ink when it hit the paper, most of them close by,
    # elongated away from where they came from, a few flung far.
    for _ in range(rng.randint(6, 24)):
        source = rng.choice(body + lobes)
        angle = rng.uniform(math.pi * 0.45, math.pi * 1.55)
        distance = max(source.rx, source.ry) * rng.uniform(0.9, 1.6) + rng.expovariate(1 / 25)
        x = source.x + math.cos(angle) * distance
        y = source.y + math.sin(angle) * distance * 0.85
        r = rng.uniform(2.5, 8) if rng.random() < 0.8 else rng.uniform(8, 13)
        stretch = rng.uniform(1.0, 2.4)
        drops.append(_Drop(x, y, r * stretch, r, angle, rng.uniform(0.9, 1.25)))
    # Dry spots: white gaps inside the ink (eyes, windows, the space between legs).
    for _ in range(rng.randint(0, 3)):
        anchor = rng.choice(body + lobes)
        x = min(fold - 6, anchor.x + rng.uniform(-20, 20))
        r = rng.uniform(6, 16)
        drops.append(_Drop(x, anchor.y + rng.uniform(-20, 20), r, r * rng.uniform(0.6, 1.6),
                           rng.uniform(0, math.pi), -rng.uniform(0.6, 1.0)))
    return _framed(drops)


def _framed(drops: list[_Drop]) -> list[_Drop]:
    """The drops moved and scaled so the blot sits in the middle of the sheet and fills it well."""
    fold = WIDTH / 2
    wet = [d for d in drops if d.weight > 0]
    top = min(d.y - 0.6 * max(d.rx, d.ry) for d in wet)
    bottom = max(d.y + 0.6 * max(d.rx, d.ry) for d in wet)
    left = min(d.x - 0.6 * max(d.rx, d.ry) for d in wet)
    scale = min(0.84 * HEIGHT / (bottom - top), 0.9 * fold / (fold - left))
    scale = max(0.75, min(1.3, scale))
    middle = (top + bottom) / 2
    for d in drops:
        d.x = fold - (fold - d.x) * scale
        d.y = HEIGHT / 2 + (d.y - middle) * scale
        d.rx *= scale
        d.ry *= scale
    return drops


class _Noise:
    """Value noise over the left half of the grid: random heights on a lattice, smoothly blended."""

    def __init__(self, rng: random.Random, spacing: float):
        width = int(WIDTH / 2 / spacing) + 3
        height = int(HEIGHT / spacing) + 3
        self.lattice = [[rng.uniform(-1, 1) for _ in range(width)] for _ in range(height)]
        self.cols = [_cell(col * STEP / spacing) for col in range(FOLD + 1)]
        self.rows = [_cell(row * STEP / spacing) for row in range(ROWS + 1)]

    def at(self, row: int, col: int) -> float:
        j, ty = self.rows[row]
        i, tx = self.cols[col]
        upper, lower = self.lattice[j], self.lattice[j + 1]
        a = upper[i] + (upper[i + 1] - upper[i]) * tx
        b = lower[i] + (lower[i + 1] - lower[i]) * tx
        return a + (b - a) * ty


def _cell(position: float) -> tuple[int, float]:
    """The lattice cell a grid point falls in, and its smoothed offset inside the cell."""
    i = int(position)
    t = position - i
    return i, t * t * (3 - 2 * t)


def _field(rng: random.Random) -> tuple[list[list[float]], list[list[float]]]:
    """The amount of ink at every grid point, and how dense it is; right halves mirror left ones."""
    half = [[0.0] * (FOLD + 1) for _ in range(ROWS + 1)]
    for drop in _drops(rng):
        reach = max(drop.rx, drop.ry)
        c0 = max(0, int((drop.x - reach) / STEP))
        c1 = min(FOLD, int((drop.x + reach) / STEP) + 1)
        r0 = max(0, int((drop.y - reach) / STEP))
        r1 = min(ROWS, int((drop.y + reach) / STEP) + 1)
        for row in range(r0, r1 + 1):
            dy = row * STEP - drop.y
            line = half[row]
            for col in range(c0, c1 + 1):
                dx = col * STEP - drop.x
                u = (dx * drop.cos + dy * drop.sin) / drop.rx
                v = (dy * drop.cos - dx * drop.sin) / drop.ry
                t = u * u + v * v
                if t < 1.0:
                    k = 1.0 - t
                    line[col] += drop.weight * k * k * k * 2.0
    coarse, fine, grain, mottle = (_Noise(rng, spacing) for spacing in (22.0, 7.0, 3.2, 12.0))
    margin = 4  # the sheet's edge stays dry so every outline closes
    ink, density = [], []
    for row in range(ROWS + 1):
        ink_line, dense_line = [], []
        for col in range(FOLD + 1):
            value = half[row][col]
            dense = 0.0
            if value > 0.05:
                value += 0.28 * coarse.at(row, col) + 0.2 * fine.at(row, col) + 0.1 * grain.at(row, col)
                dense = value + 0.45 * mottle.at(row, col)
            if row < margin or row > ROWS - margin or col < margin:
                value = dense = 0.0
            ink_line.append(value)
            dense_line.append(dense)
        ink.append(ink_line + ink_line[-2::-1])
        density.append(dense_line + dense_line[-2::-1])
    return ink, density


# --- tracing the outline ------------------------------------------------------------------------

def _outline(field: list[list[float]], level: float) -> str:
    """SVG path data of the region where ``field >= level``: smooth closed curves, exactly mirrored."""
    crossings: dict[tuple, tuple[int, int]] = {}

    def point(edge):
        if edge not in crossings:
            crossings[edge] = _crossing(field, level, edge)
        return crossings[edge]

    neighbours: dict[tuple, list[tuple]] = {}
    inside = [[value >= level for value in line] for line in field]
    for row in range(ROWS):
        upper, lower = inside[row], inside[row + 1]
        for col in range(COLUMNS):
            case = upper[col] * 8 + upper[col + 1] * 4 + lower[col + 1] * 2 + lower[col]
            if case == 0 or case == 15:
                continue
            for a, b in _cell_segments(field, level, row, col, case):
                neighbours.setdefault(a, []).append(b)
                neighbours.setdefault(b, []).append(a)
    loops = []
    seen: set = set()
    for start in sorted(neighbours):
        if start in seen:
            continue
        loop = [start]
        seen.add(start)
        previous, current = None, start
        while True:
            options = [e for e in neighbours[current] if e != previous]
            nxt = options[0] if options else neighbours[current][0]
            if nxt == start or nxt in seen:
                break
            loop.append(nxt)
            seen.add(nxt)
            previous, current = current, nxt
        if len(loop) >= 3:
            loops.append([point(e) for e in loop])
    curves = []
    for loop in loops:
        lean = _lean(loop)
        if len(lean) < 3:  # a drop too small to lose a point: all of it, on the grid of the lean curves
            lean = _snapped(loop)
        if len(lean) >= 3:
            curves.append(_curve(lean))
    return "".join(curves)


def _crossing(field, level, edge) -> tuple[int, int]:
    """Where the outline crosses a grid edge, in tenths of a unit; right-half edges mirror left ones."""
    kind, row, col = edge
    if kind == "h":  # between (row, col) and (row, col + 1)
        if col >= FOLD:
            x, y = _crossing(field, level, ("h", row, COLUMNS - 1 - col))
            return WIDTH * 10 - x, y
        a, b = field[row][col], field[row][col + 1]
        t = (level - a) / (b - a)
        return round((col + t) * STEP * 10), round(row * STEP * 10)
    # "v": between (row, col) and (row + 1, col)
    if col > FOLD:
        x, y = _crossing(field, level, ("v", row, COLUMNS - col))
        return WIDTH * 10 - x, y
    a, b = field[row][col], field[row + 1][col]
    t = (level - a) / (b - a)
    return round(col * STEP * 10), round((row + t) * STEP * 10)


def _cell_segments(field, level, row, col, case):
    """Marching squares: the outline's pieces inside one grid cell, as pairs of crossed edges."""
    top, bottom = ("h", row, col), ("h", row + 1, col)
    left, right = ("v", row, col), ("v", row, col + 1)
    if case in (5, 10):  # a saddle: the cell's centre decides whether the two corners connect
        centre = (field[row][col] + field[row][col + 1] + field[row + 1][col] + field[row + 1][col + 1]) / 4
        joined = centre >= level
        if case == 5:  # top-right and bottom-left are ink
            return ((top, left), (bottom, right)) if joined else ((top, right), (bottom, left))
        return ((top, right), (bottom, left)) if joined else ((top, left), (bottom, right))
    edges = {"t": top, "b": bottom, "l": left, "r": right}
    a, b = _CASES[case]
    return ((edges[a], edges[b]),)


# For each marching-squares case (corners top-left, top-right, bottom-right, bottom-left as bits
# 8, 4, 2, 1), the two cell edges the outline crosses; saddles (5, 10) are decided per cell.
_CASES = {
    1: "lb", 2: "br", 3: "lr", 4: "tr", 6: "tb", 7: "tl",
    8: "tl", 9: "tb", 11: "tr", 12: "lr", 13: "br", 14: "lb",
}


# --- lean curves ----------------------------------------------------------------------------------

def _lean(loop: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The traced loop with only the points its curve needs, as exactly mirrored as the full loop.

    The grid puts a point every 1-2.5 units along the outline, most of them on stretches a curve
    through far fewer follows as closely: Ramer-Douglas-Peucker keeps a point only where leaving it
    out would move the outline by more than ``TOLERANCE``. A loop in the right half is made as the
    mirror of its twin in the left half; a loop across the fold is cut at its points on the fold,
    and each piece right of it is the mirror of its twin left of it, so the symmetry stays exact.
    """
    xs = [x for x, _ in loop]
    if max(xs) <= MIDDLE:
        return _snapped(_lean_closed(loop))
    if min(xs) >= MIDDLE:
        return _mirrored(_lean(_mirrored(loop)))
    start = xs.index(MIDDLE)
    loop = loop[start:] + loop[:start]
    on_fold = [i for i, (x, _) in enumerate(loop) if x == MIDDLE] + [len(loop)]
    loop = loop + loop[:1]
    out: list[tuple[int, int]] = []
    for a, b in zip(on_fold, on_fold[1:]):
        piece = loop[a:b + 1]
        if piece[len(piece) // 2][0] > MIDDLE:  # the mirror image of its twin, traversed the other way
            piece = _mirrored(_lean_open(_mirrored(piece)[::-1]))[::-1]
        else:
            piece = _lean_open(piece)
        out += piece[:-1]
    return _snapped(out)


def _mirrored(points: list[tuple[int, int]]) -> list[tuple[int, int]]:
    return [(WIDTH * 10 - x, y) for x, y in points]


def _lean_closed(loop: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A closed loop (wholly left of the fold) made lean, from a start that depends on its points only."""
    start = loop.index(min(loop))
    loop = loop[start:] + loop[:start]
    if loop[-1] < loop[1]:  # one direction, whichever way the tracing went
        loop = loop[:1] + loop[:0:-1]
    far = max(range(len(loop)), key=lambda i: (_distance2(loop[0], loop[i]), -i))
    lean = _lean_open(loop[:far + 1])[:-1] + _lean_open(loop[far:] + loop[:1])[:-1]
    return lean if len(lean) >= 3 else loop


def _lean_open(points: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Ramer-Douglas-Peucker: the ends, and between them the points farther than ``TOLERANCE`` from
    the chord of what is kept."""
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    stack = [(0, len(points) - 1)]
    while stack:
        a, b = stack.pop()
        if b - a < 2:
            continue
        (ax, ay), (bx, by) = points[a], points[b]
        dx, dy = bx - ax, by - ay
        length2 = dx * dx + dy * dy
        best, far = -1.0, a
        for i in range(a + 1, b):
            px, py = points[i]
            if length2:
                cross = (px - ax) * dy - (py - ay) * dx
                d2 = cross * cross / length2
            else:
                d2 = float((px - ax) ** 2 + (py - ay) ** 2)
            if d2 > best:
                best, far = d2, i
        if best > TOLERANCE * TOLERANCE:
            keep[far] = True
            stack += [(a, far), (far, b)]
    return [p for p, kept in zip(points, keep) if kept]


def _distance2(a: tuple[int, int], b: tuple[int, int]) -> int:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


def _snapped(points: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The points on a grid of 0.2 units (so the curve's midpoints fall on whole tenths), repeats dropped.

    Half-even rounding of the halves against an even sheet width keeps mirrored points mirrored.
    """
    out: list[tuple[int, int]] = []
    for x, y in points:
        point = (2 * round(x / 2), 2 * round(y / 2))
        if not out or point != out[-1]:
            out.append(point)
    while len(out) > 1 and out[-1] == out[0]:
        out.pop()
    return out


def _curve(points: list[tuple[int, int]]) -> str:
    """A closed smooth curve through the midpoints of a loop's sides, its corners the control points.

    Written as one quadratic curve and then smooth continuations (``t``), each naming only its end:
    the control point it implies, the mirror image of the previous one through the current point, is
    the loop's next corner exactly, since every midpoint lies halfway between two corners on whole
    tenths. Relative moves, with numbers as short as they go, keep the SVG small.
    """
    n = len(points)
    mids = [((points[i][0] + points[(i + 1) % n][0]) // 2, (points[i][1] + points[(i + 1) % n][1]) // 2)
            for i in range(n)]
    x, y = mids[-1]
    moves = [points[0][0] - x, points[0][1] - y]
    for mx, my in mids:
        moves += [mx - x, my - y]
        x, y = mx, my
    return f"M{_numbers(mids[-1])}q{_numbers(moves[:4])}t{_numbers(moves[4:])}z"


def _numbers(values) -> str:
    """Whole tenths written as path numbers, with a separator only where one is needed: none before
    a minus sign, nor before a point after a number that has one already ("1.5.5" is 1.5 and .5)."""
    out = []
    previous = ""
    for value in values:
        text = _tenths(value)
        if previous and not (text[0] == "-" or (text[0] == "." and "." in previous)):
            out.append(" ")
        out.append(text)
        previous = text
    return "".join(out)


def _tenths(value: int) -> str:
    """A whole number of tenths written in SVG units, as short as it goes (12 -> 1.2, -5 -> -.5)."""
    sign = "-" if value < 0 else ""
    whole, tenth = divmod(abs(value), 10)
    if tenth == 0:
        return f"{sign}{whole}"
    return f"{sign}{whole if whole else ''}.{tenth}"


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


# --- specks ---------------------------------------------------------------------------------------

def _specks(rng: random.Random, field) -> list[tuple[float, float, float]]:
    """Fine spray too small for the grid: tiny dots near the ink, each with its mirror image."""
    specks = []
    for _ in range(rng.randint(6, 30)):
        col = rng.randint(6, FOLD - 2)
        row = rng.randint(6, ROWS - 6)
        value = field[row][col]
        if not 0.04 < value < THRESHOLD * 0.8:
            continue
        x = round(col * STEP + rng.uniform(-1, 1), 1)
        y = round(row * STEP + rng.uniform(-1, 1), 1)
        r = round(rng.uniform(0.7, 2.2), 1)
        specks.append((x, y, r))
        specks.append((round(WIDTH - x, 1), y, r))
    return specks
