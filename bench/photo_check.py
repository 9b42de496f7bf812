"""The CPU one photo check costs the server, for the worst files an upload can be (issue 29).

Builds each file of ``tests/hostile_photos.py`` (noise as large as an upload holds, flat pictures
of the most pixels, a progressive JPEG of 24,000 scans, 30,000 PNG chunks, 100,000 JPEG segments)
and checks it as an upload is checked (``companion.photos.images.check_photo``), printing the CPU
seconds of the check (the least of ``--runs``), what came of it, and the work done: the pixels
decoded, the scalings and the JPEG encodings made.

    .venv/bin/python bench/photo_check.py [--runs 3] [--only jpeg-noise,...]

Run from the root of a checkout: it measures that checkout's ``companion``. To measure another build
(before a change), copy this file and ``tests/hostile_photos.py`` into that checkout and run it
there. Not a test: ``tests/test_photos.py`` holds every file to the bound in work done, not time.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.getcwd())

from companion.photos import images  # noqa: E402
from tests.hostile_photos import CASES, Work  # noqa: E402


def check(data: bytes) -> str:
    """What came of checking ``data``: the stored size, or the refusal's sentence."""
    try:
        kept = images.check_photo(data)
    except Exception as error:  # noqa: BLE001 - a refusal (RuleError) is a result like any other
        return f"refused: {error}"[:60]
    return f"kept {kept.width}x{kept.height}, {len(kept.data) // 1024} KB"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="checks of each file; the least CPU is shown")
    parser.add_argument("--only", help="comma-separated names of the files to check")
    args = parser.parse_args(argv)
    names = args.only.split(",") if args.only else list(CASES)
    print(f"{'file':22} {'bytes':>7} {'CPU s':>7} {'decoded px':>11} {'scalings':>8} {'encodings':>9}  result")
    for name in names:
        data = CASES[name]()
        times = []
        for _ in range(args.runs):
            with Work() as work:
                start = time.process_time()
                result = check(data)
                times.append(time.process_time() - start)
        print(f"{name:22} {len(data):7} {min(times):7.3f} {work.decoded:11,} {work.scalings:8} {work.encodings:9}  {result}",
              flush=True)


if __name__ == "__main__":
    main()
