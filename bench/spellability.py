"""How often a random hand of Inkling ink cards can spell a clue word, per language and value.

For each language, the script deals random hands from that language's 108 ink cards
(``games/content/<lang>/inkling_ink.txt``) and counts, for every value 1, 2 and 3, the share of
the clue words of that value (``inkling_clues.txt``) that the hand holds every letter of (a word
needing two E's needs two E cards). Hands hold 14 cards (the last round: the 8 dealt plus 3 drawn
after each of the first two rounds) and 8 (the deal). It is a Monte Carlo estimate with a fixed
seed, so two runs print the same table; ``--exact`` adds the exact share (multivariate
hypergeometric) next to it, and ``x`` is each share as a ratio of English's.

``--tune LANG`` repeats the search that chose LANG's ink counts, as the ink file's header
describes it: start from the letters' frequencies (the language's own, from TEXT_FREQUENCY, where
it has an entry; else the clue words'; largest remainder, never fewer cards of a letter than the
most demanding clue word needs); then, while some one-card move
(a card of one letter becomes a card of another, never below that need) lowers the cost by at
least MIN_GAIN, make the move that lowers it most. The cost is the sum over the three values of
the squared log-ratio of the exact 14-card share to English's (from text frequencies: only of the
shortfall below FLOOR times English's), plus PENALTY (TEXT_PENALTY) times the sum over
the letters of (count - frequency count)^2 / frequency count, so that the deck stays near the
letter frequencies. It prints the moves, then the counts as ink-file lines.

    .venv/bin/python bench/spellability.py [--hands 20000] [--seed 19] [--exact] [--tune pl]

Not a test: ``tests/test_content_languages.py`` recomputes the 14-card shares with fewer hands and
holds Italian and Polish within a band of English's.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections import Counter
from functools import cache

from games import content, inkling

HAND_SIZES = (8, 14)
VALUES = (1, 2, 3)
PENALTY = 0.01  # --tune: weight of a deck's distance from the letter frequencies
MIN_GAIN = 0.001  # --tune: a move must lower the cost by at least this much
# --tune from a language's text frequencies: a share only costs when it falls below FLOOR times
# English's, so the deck stays as near the language as a hand that spells enough allows.
FLOOR = 0.9
TEXT_PENALTY = 0.004  # PENALTY when starting from text frequencies (their distance is larger)
FIELD = 5  # bits per letter in a packed count: 4 for the count (at most 15), 1 guard bit
# Letter frequencies of running text, in per cent, where a deck should follow the language rather
# than its own clue words (whose many -ka nouns would give Polish too many K and too few E and Y).
# Polish: the frequency table of Polish Wikipedia's "Alfabet polski" (PWN corpus figures).
TEXT_FREQUENCY = {
    "pl": {
        "A": 8.91, "I": 8.21, "O": 7.75, "E": 7.66, "Z": 5.64, "N": 5.52, "R": 4.69, "W": 4.65,
        "S": 4.32, "T": 3.98, "C": 3.96, "Y": 3.76, "K": 3.51, "D": 3.25, "P": 3.13, "M": 2.80,
        "U": 2.50, "J": 2.28, "L": 2.10, "Ł": 1.82, "B": 1.47, "G": 1.42, "Ę": 1.11, "H": 1.08,
        "Ą": 0.99, "Ó": 0.85, "Ż": 0.83, "Ś": 0.66, "Ć": 0.40, "F": 0.30, "Ń": 0.20, "Ź": 0.06,
    },
}


def clue_words(lang: str) -> dict[int, list[str]]:
    """The clue words of each value, upper case as the ink cards are."""
    words: dict[int, list[str]] = {v: [] for v in VALUES}
    for card in inkling.clue_deck(lang):
        for word, value in card:
            words[value].append(word.upper())
    return words


def ink_counts(lang: str) -> Counter:
    return Counter(inkling.ink_deck(lang))


def monte_carlo(
    words: dict[int, list[str]], counts: Counter, hand_size: int, hands: int, seed: int
) -> dict[int, float]:
    """The share of each value's words that a random hand spells, averaged over ``hands`` hands.

    A hand and a word are packed into one integer each, FIELD bits per letter, so that "the hand
    holds every letter the word needs" is one subtraction: with the guard bit of every field set
    in the hand, no field of ``hand - word`` borrows from its neighbour, and a field's guard bit
    survives exactly when the hand has at least as many of that letter as the word needs."""
    letters = sorted(set(counts) | {c for ws in words.values() for w in ws for c in w})
    place = {c: FIELD * i for i, c in enumerate(letters)}
    guard = sum(1 << (place[c] + FIELD - 1) for c in letters)
    cards = [1 << place[c] for c in counts for _ in range(counts[c])]  # in the ink file's order
    packed = {v: [sum(k << place[c] for c, k in Counter(w).items()) for w in ws] for v, ws in words.items()}
    top = 1 << (FIELD - 1)
    assert hand_size < top and all(max(Counter(w).values()) < top for ws in words.values() for w in ws)
    rng = random.Random(seed)
    spelled = dict.fromkeys(VALUES, 0)
    for _ in range(hands):
        hand = sum(rng.sample(cards, hand_size)) | guard
        for v, ws in packed.items():
            spelled[v] += sum(1 for w in ws if (hand - w) & guard == guard)
    return {v: spelled[v] / (hands * len(packed[v])) for v in VALUES}


@cache
def _binomials(n: int, top: int) -> tuple[float, ...]:
    return tuple(float(math.comb(n, k)) for k in range(top + 1))


@cache
def word_probability(need: tuple[tuple[int, int], ...], total: int, hand_size: int) -> float:
    """The chance that ``hand_size`` cards dealt from ``total`` hold, for each (cards of a letter
    in the deck, cards the word needs of it) in ``need``, at least the cards the word needs."""
    poly = [1.0] + [0.0] * hand_size  # ways to deal k cards from the word's letters, needs met
    rest = total
    for n, w in need:
        rest -= n
        if w > n:
            return 0.0
        b = _binomials(n, hand_size)
        new = [0.0] * (hand_size + 1)
        for i, p in enumerate(poly):
            if p:
                for k in range(w, min(n, hand_size - i) + 1):
                    new[i + k] += p * b[k]
        poly = new
    b = _binomials(rest, hand_size)
    ways = sum(p * b[hand_size - i] for i, p in enumerate(poly) if hand_size - i <= rest)
    return ways / math.comb(total, hand_size)


def exact(words: dict[int, list[str]], counts: Counter, hand_size: int) -> dict[int, float]:
    """The exact share of each value's words that a random hand of ``hand_size`` spells."""
    total = sum(counts.values())
    shares = {}
    for v, ws in words.items():
        probs = [
            word_probability(tuple((counts[c], k) for c, k in Counter(w).items()), total, hand_size)
            for w in ws
        ]
        shares[v] = sum(probs) / len(probs)
    return shares


def frequency_counts(words: list[str], total: int = 108, freq: dict[str, float] | None = None) -> Counter:
    """Each letter's share of ``total`` cards is its share in ``freq`` (by default, of the clue
    words' letters; largest remainder), never below what the most demanding word needs of it."""
    if freq is None:
        freq = Counter(c for w in words for c in w)
    need = Counter()
    for w in words:
        for c, k in Counter(w).items():
            need[c] = max(need[c], k)
    letters = sum(freq.values())
    quota = {c: total * freq[c] / letters for c in freq}
    counts = Counter({c: max(need[c], int(quota[c])) for c in freq})
    while sum(counts.values()) < total:
        counts[max(counts, key=lambda c: (quota[c] - counts[c], freq[c]))] += 1
    while sum(counts.values()) > total:
        over = [c for c in counts if counts[c] > need[c]]
        counts[min(over, key=lambda c: (quota[c] - counts[c], freq[c]))] -= 1
    return counts


def tune(lang: str, reference: str = "en", hand_size: int = 14, penalty: float | None = None) -> Counter:
    """The ink counts for ``lang`` found by the search the module docstring describes, matching
    the ``hand_size``-card shares of ``reference``'s deck."""
    words = clue_words(lang)
    target = exact(clue_words(reference), ink_counts(reference), hand_size)
    flat = [w for ws in words.values() for w in ws]
    need = Counter()
    for w in flat:
        for c, k in Counter(w).items():
            need[c] = max(need[c], k)
    start = frequency_counts(flat, freq=TEXT_FREQUENCY.get(lang))
    counts = start.copy()

    floor = math.log(FLOOR) if lang in TEXT_FREQUENCY else None
    if penalty is None:
        penalty = TEXT_PENALTY if lang in TEXT_FREQUENCY else PENALTY

    def cost(c: Counter) -> float:
        shares = exact(words, c, hand_size)
        drift = sum((c[k] - start[k]) ** 2 / start[k] for k in c)
        gaps = [math.log(shares[v] / target[v]) for v in VALUES]
        if floor is not None:
            gaps = [min(0.0, gap - floor) for gap in gaps]
        return sum(gap**2 for gap in gaps) + penalty * drift

    best = cost(counts)
    print(f"  frequency counts: cost {best:.4f}", file=sys.stderr)
    while True:
        moves = []
        for a in sorted(counts):
            if counts[a] <= need[a]:
                continue
            for b in sorted(counts):
                if b != a:
                    counts[a] -= 1
                    counts[b] += 1
                    moves.append((cost(counts), a, b))
                    counts[a] += 1
                    counts[b] -= 1
        score, a, b = min(moves)
        if score > best - MIN_GAIN:
            return counts
        counts[a] -= 1
        counts[b] += 1
        best = score
        print(f"  {a} -> {b}: cost {score:.4f}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--exact", action="store_true", help="also print the exact shares")
    parser.add_argument("--tune", metavar="LANG", help="print tuned ink counts for LANG")
    args = parser.parse_args(argv)
    if args.tune:
        counts = tune(args.tune)
        order = [line.split()[0] for line in content.deck("inkling_ink", args.tune)]
        for letter in [c for c in order if c in counts] + sorted(set(counts) - set(order)):
            print(letter, counts[letter])
        return 0
    figures = {
        (lang, h): monte_carlo(clue_words(lang), ink_counts(lang), h, args.hands, args.seed)
        for h in sorted(HAND_SIZES, reverse=True)
        for lang in content.LANGUAGES
    }
    print(f"Share of each value's clue words that a random hand spells ({args.hands} hands, seed {args.seed})")
    print("x: the share as a ratio of English's (not shown when English's is under 0.005%)")
    if args.exact:
        print("(in brackets: the exact share)")
    width = 28 if args.exact else 19
    print(f"{'lang':<6}{'hand':>4}" + "".join(f"{'value ' + str(v):>{width}}" for v in VALUES))
    for (lang, h), shares in figures.items():
        row = f"{lang:<6}{h:>4}"
        exact_shares = exact(clue_words(lang), ink_counts(lang), h) if args.exact else {}
        for v in VALUES:
            english = figures[("en", h)][v]
            cell = f"{100 * shares[v]:.3f}%"
            if args.exact:
                cell += f" ({100 * exact_shares[v]:.3f})"
            cell += f" x{shares[v] / english:.2f}" if english >= 5e-5 else " x -  "
            row += f"{cell:>{width}}"
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
