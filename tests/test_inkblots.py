"""Virtual inkblots: deterministic, distinct, mirror-symmetric, valid SVG; a fraction of the bytes of
every traced point, drawn the same; and the files the server ships are what the generator draws."""

from __future__ import annotations

import gzip
import hashlib
import io
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
import resvg_py
from PIL import Image, ImageChops

from companion import inkblots as shipped
from games import inkblots
from games.inkblots import inkblot_svg

SVG = "{http://www.w3.org/2000/svg}"
TOKEN = re.compile(r"[MmLlQqTtZz]|-?(?:\d+\.?\d*|\.\d+)")


def points_of(path_data: str) -> list[tuple[float, float]]:
    """Every point of an SVG path (end and control points, those of smooth curves ``T`` implied by
    the one before), in absolute coordinates."""
    tokens = TOKEN.findall(path_data)
    points, x, y, start = [], 0.0, 0.0, (0.0, 0.0)
    command, i = None, 0
    control = None  # the last quadratic curve's control point, which a smooth curve mirrors
    arity = {"m": 2, "l": 2, "q": 4, "t": 2, "z": 0}
    while i < len(tokens):
        if tokens[i].isalpha():
            command = tokens[i]
            i += 1
            if command in "Zz":
                x, y = start
                control = None
                continue
        values = [float(v) for v in tokens[i:i + arity[command.lower()]]]
        i += arity[command.lower()]
        relative = command.islower()
        pairs = [(values[k] + (x if relative else 0), values[k + 1] + (y if relative else 0))
                 for k in range(0, len(values), 2)]
        if command in "Tt":
            pairs.insert(0, (2 * x - control[0], 2 * y - control[1]) if control else (x, y))
        points.extend(pairs)
        control = pairs[0] if command in "QqTt" else None
        x, y = pairs[-1]
        if command in "Mm":
            start = (x, y)
            command = "l" if relative else "L"  # further pairs after a move are lines
    return points


def loops_of(path_data: str, mirror: bool = False) -> Counter:
    """The closed curves of a path, each as the set of its points (optionally mirrored at the fold)."""
    loops = Counter()
    for sub in re.findall(r"[Mm][^Mm]*", path_data):
        loops[frozenset((round(inkblots.WIDTH - x if mirror else x, 2), round(y, 2))
                        for x, y in points_of(sub))] += 1
    return loops


def test_the_same_number_always_draws_the_same_blot():
    assert inkblot_svg(17) == inkblot_svg(17)


@pytest.fixture(scope="module")
def every_card() -> dict[int, str]:
    """Every card a game can deal, drawn (3-4 s in all: drawn once for the tests that need them all)."""
    return {n: inkblot_svg(n) for n in range(1, inkblots.CARDS + 1)}


def test_the_shipped_files_are_every_card_as_the_generator_draws_it(every_card):
    # The server serves companion/inkblots/ and never draws (companion/web/blots.py): after a change
    # of games/inkblots.py, `python -m companion.inkblots` draws them again, or this fails.
    names = shipped.files()
    assert sorted(names) == list(shipped.numbers()) == sorted(every_card)
    assert sorted(p.name for p in shipped.FOLDER.glob("*.svg*")) == sorted(
        [*names.values(), *(name + ".gz" for name in names.values())])  # nothing else is served there
    for number, name in names.items():
        data = (shipped.FOLDER / name).read_bytes()
        assert data == every_card[number].encode(), f"{name} is not card {number} as drawn now"
        assert name == f"{number}.{hashlib.sha256(data).hexdigest()[:12]}.svg"
        assert gzip.decompress((shipped.FOLDER / f"{name}.gz").read_bytes()) == data


def test_a_hundred_cards_give_a_hundred_different_blots(every_card):
    shapes = {ET.fromstring(svg).find(f"{SVG}path").get("d") for svg in every_card.values()}
    assert len(shapes) == 100


@pytest.mark.parametrize("number", [1, 2, 3, 17, 42, 99, 100, 250, 0, -5])
def test_a_blot_is_valid_svg_black_ink_on_white_paper(number):
    root = ET.fromstring(inkblot_svg(number))
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox") == f"0 0 {inkblots.WIDTH} {inkblots.HEIGHT}"
    background = root.find(f"{SVG}rect")
    assert background.get("fill") == "#ffffff"
    paths = root.findall(f"{SVG}path")
    assert paths and all(p.get("fill") in (inkblots.INK, inkblots.DENSE_INK) for p in paths)
    assert all(int(p.get("fill")[1:3], 16) < 0x30 for p in paths)  # near-black ink


@pytest.mark.parametrize("number", range(1, 31))
def test_the_geometry_is_mirrored_across_the_fold(number):
    root = ET.fromstring(inkblot_svg(number))
    for path in root.findall(f"{SVG}path"):
        assert len(points_of(path.get("d"))) > 100  # traced curves, not a handful of geometric shapes
        assert loops_of(path.get("d")) == loops_of(path.get("d"), mirror=True)
    specks = [(float(c.get("cx")), float(c.get("cy")), c.get("r")) for c in root.findall(f"{SVG}circle")]
    assert Counter((round(x, 2), y, r) for x, y, r in specks) == \
        Counter((round(inkblots.WIDTH - x, 2), y, r) for x, y, r in specks)


@pytest.mark.parametrize("number", range(1, 21))
def test_the_ink_has_a_body_across_the_fold_and_splatter_around_it(number):
    root = ET.fromstring(inkblot_svg(number))
    stain = root.find(f"{SVG}path").get("d")
    loops = stain.count("M")
    assert loops >= 3  # the stain plus separate drops
    xs = [x for x, _ in points_of(stain)]
    ys = [y for _, y in points_of(stain)]
    assert min(xs) < inkblots.WIDTH * 0.3 and max(xs) > inkblots.WIDTH * 0.7
    assert 0 < min(ys) and max(ys) < inkblots.HEIGHT and 0 < min(xs) and max(xs) < inkblots.WIDTH
    assert any(abs(x - inkblots.WIDTH / 2) < 0.01 for x in xs)  # the outline crosses the fold


def test_the_card_number_must_be_an_integer():
    with pytest.raises(TypeError):
        inkblot_svg("7")
    with pytest.raises(TypeError):
        inkblot_svg(True)


def test_the_parser_used_here_reads_absolute_and_relative_paths():
    assert points_of("M1 2q1 1 2 0z") == [(1, 2), (2, 3), (3, 2)]
    assert points_of("M10 10L20 10 20 20Z") == [(10, 10), (20, 10), (20, 20)]
    # a smooth curve's control point mirrors the one before through the current point
    assert points_of("M0 0q1 1 2 0t2 0 2 0z") == [(0, 0), (1, 1), (2, 0), (3, -1), (4, 0), (5, 1), (6, 0)]
    assert points_of("M0 0q1.5.5 2-1z") == [(0, 0), (1.5, 0.5), (2, -1)]  # numbers as short as they go


# --- lean outlines, same look ----------------------------------------------------------------------

BEFORE = Path(__file__).resolve().parent / "data" / "inkblots"  # <n>.svg.gz: card n as drawn before


def rendered(svg: str, zoom: float) -> Image.Image:
    """The SVG as a browser draws it (resvg), in grey levels."""
    return Image.open(io.BytesIO(bytes(resvg_py.svg_to_bytes(svg_string=svg, zoom=zoom)))).convert("L")


def difference(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """How far two renderings are apart: the mean difference of a pixel (of 255), and the share of
    pixels turned from ink to paper or back (a difference of half the scale or more)."""
    histogram = ImageChops.difference(a, b).histogram()
    pixels = a.width * a.height
    return sum(level * n for level, n in enumerate(histogram)) / pixels, sum(histogram[128:]) / pixels


def before(number: int) -> str:
    return gzip.decompress((BEFORE / f"{number}.svg.gz").read_bytes()).decode()


@pytest.mark.parametrize("zoom", [1, 2])  # the host screen's size, and a phone's at twice the pixels
@pytest.mark.parametrize("number", sorted(int(p.name.split(".")[0]) for p in BEFORE.glob("*.svg.gz")))
def test_a_lean_blot_looks_like_the_traced_one_served_before(number, zoom):
    # tests/data/inkblots/ holds cards as the generator drew them before its outlines were made lean
    # (every traced point, 17-43 KB a card); the lean one has a fraction of the bytes and the same look.
    old, new = before(number), inkblot_svg(number)
    assert len(new) < 0.4 * len(old)
    mean, flipped = difference(rendered(old, zoom), rendered(new, zoom))
    assert mean < 1.0 and flipped < 0.001, (mean, flipped)


def test_the_comparison_sees_a_different_blot():
    mean, flipped = difference(rendered(before(1), 1), rendered(inkblot_svg(17), 1))
    assert mean > 10 and flipped > 0.05, (mean, flipped)


def test_blots_are_small(every_card):
    sizes = [len(every_card[n].encode()) for n in range(1, 41)]
    assert max(sizes) < 15_000 and sum(sizes) / len(sizes) < 10_000, sizes  # traced: 29.6 KB on average
