"""``python -m companion.inkblots``: draw the inkblot cards again into the package (after a change of
``games/inkblots.py``; tests/test_inkblots.py says when)."""

from companion.inkblots import FOLDER, draw

if __name__ == "__main__":
    print(f"{draw()} files changed in {FOLDER}")
