"""A seeded evening of 60 rounds, played through the JSON API (tests/conftest.py's ``table``), with
every move drawn from one seeded generator and written down as it is made: the counts a group's
statistics must come to are worked out here from those moves alone, by hand as it were, and never
by the statistics' own code (games/*_stats.py).

The evening: Dixit to its end, Rorschach and Rorschach (teams) for a few questions each (ended by
the host when no one has won by then: an early end keeps only the rounds completed), Doodles on
paper, Inkling's three rounds, and Doodles again for the rounds left. ``ROUNDS`` is 60 revealed rounds in all (Inkling's clue cards
are revealed once, at the end of its three rounds: three rounds here, one record).
"""

from __future__ import annotations

import random
from collections import Counter

PLAYERS = ("Ann", "Ben", "Cat", "Dan")
ROUNDS = 60
RORSCHACH_ROUNDS = 3  # then the host ends it: an early end keeps its three rounds
TEAMS_ROUNDS = 8
DOODLES_ROUNDS = 20  # the most a game of Doodles has; a second game fills the evening to 60
INKLING_ROUNDS = 3


class Expected:
    """What the moves made say, counted as they are made."""

    def __init__(self):
        self.rounds = 0
        self.dixit_told = Counter()
        self.dixit_found = Counter()  # storyteller -> voters who found the story card
        self.dixit_votes_on = Counter()  # storyteller -> voters in their rounds
        self.dixit_kind = Counter()  # (storyteller, "some" | "everyone" | "nobody")
        self.dixit_who_whom = Counter()  # (voter, owner of the card voted for)
        self.alike = {"rorschach": (Counter(), Counter()), "rorschach-teams": (Counter(), Counter())}
        self.drawn = Counter()
        self.right_on = Counter()  # artist -> right guesses on their doodles
        self.guesses_on = Counter()
        self.nobody = Counter()
        self.guessed_by = Counter()  # (voter, artist) right
        self.reads = Counter()  # (guesser, neighbour) -> words found
        self.read_points = Counter()
        self.side_by_side = Counter()

    def pair(self, game, a, b, same):
        """A pair's round together, in seating order."""
        key = tuple(sorted((a, b), key=PLAYERS.index))
        together, alike = self.alike[game]
        together[key] += 1
        alike[key] += same


def names_of(view):
    return [p["name"] for p in view["players"]]


def play_dixit(t, rng, e):
    """Dixit until the pile runs out: random places, random votes (never one's own card)."""
    while (view := t.view("host"))["phase"] != "over":
        if view["phase"] == "revealed":
            t.act("host", "next_round")
            continue
        names = names_of(view)
        places = list(range(1, len(names) + 1))
        rng.shuffle(places)
        owner = dict(zip(places, names))
        for name, place in zip(names, places):
            t.act(name, "claim", position=place)
        teller = next(p["name"] for p in view["players"] if p["seat"] == view["storyteller"]["seat"])
        finders = 0
        voters = [n for n in names if n != teller]
        for voter in voters:
            place = rng.choice([p for p in places if owner[p] != voter])
            t.act(voter, "vote", position=place)
            e.dixit_who_whom[voter, owner[place]] += 1
            finders += owner[place] == teller
        e.dixit_told[teller] += 1
        e.dixit_found[teller] += finders
        e.dixit_votes_on[teller] += len(voters)
        e.dixit_kind[teller, "nobody" if finders == 0 else "everyone" if finders == len(voters) else "some"] += 1
        e.rounds += 1


def rounds_of(t, rounds):
    """The host's view at the start of each of ``rounds`` rounds (the host starts each after the
    first), until the game is over; then, if it is not, the host ends it."""
    for number in range(1, rounds + 1):
        view = t.view("host")
        if view["phase"] == "over":
            return
        if number > 1:
            t.act("host", "next_round", round=number)
            view = t.view("host")
        yield view
    if t.view("host")["phase"] != "over":
        t.act("host", "end_game")


def play_rorschach(t, rng, e, rounds):
    """Rorschach: every player picks a blot at random, ``rounds`` questions unless someone wins
    first; then the host ends the game."""
    for view in rounds_of(t, rounds):
        blots = [b["number"] for b in view["blots"]]
        picks = {name: rng.choice(blots) for name in names_of(view)}
        for name, blot in picks.items():
            t.act(name, "pick", number=blot)
        names = list(picks)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                e.pair("rorschach", a, b, picks[a] == picks[b])
        e.rounds += 1


def play_teams(t, rng, e, rounds):
    """Rorschach (teams): the control team hides image 4, the test subject matches at random, the
    test team and the control team guess at random; ``rounds`` rounds unless a team wins first."""
    for view in rounds_of(t, rounds):
        test, control = view["test_team"], view["control_team"]
        testers, controllers = view["teams"][test]["names"], view["teams"][control]["names"]
        subject = view["test_subject_name"]
        guesser = next(n for n in testers if n != subject)
        words = ["A", "B", "C"]
        rng.shuffle(words)
        matching = dict(zip(["1", "2", "3"], words))
        t.act(controllers[-1], "hide", image=4)
        t.act(subject, "match", matching=matching)
        image, word = rng.choice(["1", "2", "3"]), rng.choice("ABC")
        t.act(guesser, "guess", image=image, word=word)
        control_word = rng.choice("ABC")
        t.act(controllers[0], "control_guess", word=control_word)
        if t.view("host")["phase"] == "second_guess":
            other = next(i for i in ("1", "2", "3") if i != image)
            t.act(guesser, "guess", image=other, word=next(w for w in "ABC" if w != word))
        marker = matching[image]
        for name in testers:
            if name != subject:
                e.pair("rorschach-teams", subject, name, word == marker)
        for name in controllers:
            e.pair("rorschach-teams", subject, name, control_word == marker)
        e.rounds += 1


def play_doodles(t, rng, e, clock):
    """Doodles on paper: every vote at random, every doodle revealed, the rounds of the options."""
    while True:
        view = t.view("host")
        names = names_of(view)
        seats = {p["name"]: p["seat"] for p in view["players"]}
        truth = {n: t.view(n)["you"]["subject"] for n in names}
        t.act("host", "start_timer")
        clock.now += 31
        right = Counter()
        for voter in names:
            for artist in names:
                if artist != voter:
                    vote = rng.randint(1, 3)
                    t.act(voter, "vote", artist=seats[artist], subject=vote)
                    ok = vote == truth[artist]
                    e.guesses_on[artist] += 1
                    right[artist] += ok
                    e.guessed_by[voter, artist] += ok
        for artist in names:
            t.act("host", "reveal", artist=seats[artist])
            e.drawn[artist] += 1
            e.right_on[artist] += right[artist]
            e.nobody[artist] += right[artist] == 0
        e.rounds += 1
        view = t.view("host")
        if view["phase"] == "over":
            return
        t.act("host", "next_round", round=view["round"] + 1)


def play_inkling(t, rng, e):
    """Inkling with the ink on paper: in the first round each player writes for each neighbour
    two of the neighbour's clue words (drawn at random) and a wrong word; the host confirms."""
    view = t.view("host")
    names = names_of(view)
    seats = {p["name"]: p["seat"] for p in view["players"]}
    clues = {n: {c["word"]: c["value"] for c in t.view(n)["you"]["clue_card"]} for n in names}
    first = True
    while (view := t.view("host"))["phase"] != "over":
        if view["phase"] == "review":
            t.act("host", "confirm_scores")
        elif view["phase"] == "arrange":
            for name in names:
                t.act(name, "finish_arranging")
        elif view["phase"] == "guess":
            for name in names if first else ():
                i = names.index(name)
                for neighbour in dict.fromkeys((names[(i + 1) % len(names)], names[i - 1])):
                    words = rng.sample(sorted(clues[neighbour]), 2)
                    for word in (*words, "zebracorn"):
                        t.act(name, "guess", neighbour=seats[neighbour], word=word)
                    e.reads[name, neighbour] += 2
                    e.read_points[name, neighbour] += sum(clues[neighbour][w] for w in words)
                    e.side_by_side[name, neighbour] += 1
            first = False
            for name in names:
                t.act(name, "finish_guessing")
    e.rounds += INKLING_ROUNDS


def play_evening(t, clock, seed=35):
    """The whole evening in room ``t`` (Dixit, seated and started): what the moves made say."""
    rng = random.Random(seed)
    e = Expected()
    play_dixit(t, rng, e)
    t.act("host", "next_game", game="rorschach")
    t.act("host", "start")
    play_rorschach(t, rng, e, RORSCHACH_ROUNDS)
    t.act("host", "next_game", game="rorschach-teams")
    t.act("host", "start")
    play_teams(t, rng, e, TEAMS_ROUNDS)
    t.act("host", "next_game", game="doodles", options={"rounds": DOODLES_ROUNDS})
    t.act("host", "start")
    play_doodles(t, rng, e, clock)
    t.act("host", "next_game", game="inkling")
    t.act("host", "start")
    play_inkling(t, rng, e)
    t.act("host", "next_game", game="doodles", options={"rounds": ROUNDS - e.rounds})
    t.act("host", "start")
    play_doodles(t, rng, e, clock)
    assert e.rounds == ROUNDS
    return e
