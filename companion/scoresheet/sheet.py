"""Score sheets: the score-only helper's games, kept as append-only logs in the rooms' store.

A sheet is a game played with the box alone, whose host tablet enters what happened each round.
It lives in the same store as the rooms, under a code of its own and the kind ``sheet:<game>``:

- entry 1, ``{"type": "sheet", "game", "players", "teams", "options", "editor"}``: who plays, in
  seating order (clockwise), and the hash of the editing tablet's token (never the token);
- ``{"type": "round", "round": {...}}``: one round as entered, in the scoring API's words;
- ``{"type": "edit", "number": n, "round": {...}}``: round ``n`` corrected;
- ``{"type": "undo"}``: takes back the last round or correction.

The sheet is the replay of its log. Rounds keep only what was entered: their points come from the
game's one scoring function in ``games/`` (through ``companion.scoresheet.scoring_api.score``, exactly what the
scoring API answers), so a correction of an early round recomputes every later total, and a
correction that would make a later round impossible (or end the game before it) is refused with a
sentence, like any round that cannot have happened. Nothing is recorded when a change is refused.

Sheet codes are six lowercase letters and digits, so they can never be mistaken for a room's code
(four capitals, looked up in capitals). Sheets share the rooms' table, so the idle clean-up of
rooms clears idle sheets too; the export keeps a finished game.
"""

from __future__ import annotations

import csv
import io
import re
import secrets
import time
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from flask_babel import gettext, ngettext

from games.base import RuleError, require

from companion.scoresheet import scoring_api as scoring
from companion.rooms.room import clean_name, new_token, token_hash

KIND_PREFIX = "sheet:"
CODE_ALPHABET = "abcdefghjkmnpqrtuvwxy346789"
CODE_LENGTH = 6
CODE_PATTERN = re.compile(f"^[{CODE_ALPHABET}]{{{CODE_LENGTH}}}$")
COOKIE_PREFIX = "tcs_"


class NoSuchSheet(LookupError):
    """The code names no score sheet."""


class StaleSheet(Exception):
    """The sheet changed since the page that sent a change was shown."""


def normal_code(code: str) -> str:
    return code.strip().lower()


def cookie_name(code: str) -> str:
    return COOKIE_PREFIX + code


# --- the shape of a sheet ---------------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    """Who plays (names in seating order), their teams if the game has teams, and the options."""

    game: str
    players: tuple[str, ...]
    teams: Mapping[str, str] | None
    options: Mapping[str, Any]


@dataclass(frozen=True)
class Round:
    """One scored round: what was entered, what the scoring answered, and the totals after it."""

    number: int
    entry: Mapping[str, Any]
    result: Mapping[str, Any]
    points: Mapping[str, int]
    totals: Mapping[str, int]
    edited: bool = False


@dataclass(frozen=True)
class Sheet:
    code: str
    setup: Setup
    editor: str
    version: int
    rounds: tuple[Round, ...] = ()
    updated: float = 0.0  # when the last entry was made
    # (what the undo button says, the rounds before the change), the latest last.
    undo: tuple[tuple[str, tuple[Round, ...]], ...] = ()

    @property
    def game(self) -> "SheetGame":
        return GAMES[self.setup.game]

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players

    @property
    def totals(self) -> dict[str, int]:
        return dict(self.rounds[-1].totals) if self.rounds else {s: 0 for s in self.game.sides(self.setup)}

    @property
    def over(self) -> bool:
        return bool(self.rounds) and self.game.over(self.setup, self.rounds)

    @property
    def winners(self) -> list[str]:
        return self.game.winners(self.setup, self.rounds) if self.over else []

    @property
    def undo_label(self) -> str | None:
        return self.undo[-1][0] if self.undo else None

    def is_editor(self, token: str | None) -> bool:
        return bool(token) and secrets.compare_digest(token_hash(token), self.editor)


# --- each game's sheet: how its rounds chain, when it ends, who wins --------------------------


class SheetGame:
    """What the helper needs of one game; every rule it applies is a call into ``games/``."""

    name = ""
    title = ""
    teams = False
    # Whether the whole game is one entry (Inkling, scored at the end).
    single_entry = False
    # The options the player count is read with (the game's own ``player_range``).
    range_options: Mapping[str, Any] = {}

    def engine(self):
        """The game's rules module in ``games/``."""
        return scoring.scorers()[self.name].engine()

    @property
    def min_players(self) -> int:
        return self.engine().player_range(dict(self.range_options))[0]

    @property
    def max_players(self) -> int:
        return self.engine().player_range(dict(self.range_options))[1]

    def options(self, raw: Mapping[str, Any], players: Sequence[str]) -> dict:
        """The sheet's options, checked."""
        require(not raw, f"{self.title} has no options on a score sheet.")
        return {}

    def teams_for(self, players: list[str], teams: Any) -> dict[str, str]:
        """Each player's team, checked (games played in teams only)."""
        raise NotImplementedError

    def sides(self, setup: Setup) -> list[str]:
        """Who scores: the players, or the teams."""
        return list(setup.players)

    def side_label(self, setup: Setup, side: str) -> str:
        return side

    def detail(self, setup: Setup, rnd: Round) -> str:
        """What the history shows of a round besides the points."""
        return ""

    def winner_labels(self, setup: Setup, winners: Sequence[str]) -> list[str]:
        return [self.side_label(setup, w) for w in winners]

    def request(self, setup: Setup, before: Sequence[Round], entry: Mapping[str, Any]) -> dict:
        """The scoring API's request for ``entry``, played after the rounds ``before``."""
        raise NotImplementedError

    def check_entry(self, entry: Any) -> None:
        require(isinstance(entry, Mapping), "A round is a set of named values.")

    def points(self, setup: Setup, result: Mapping[str, Any]) -> dict[str, int]:
        """Each side's points in this round, from the scoring's answer."""
        return dict(result["points"])

    def check_complete(self, setup: Setup, entry: Mapping[str, Any], result: Mapping[str, Any]) -> None:
        """Refuse a round whose scoring is not finished (nothing to check for most games)."""

    def over(self, setup: Setup, rounds: Sequence[Round]) -> bool:
        raise NotImplementedError

    def winners(self, setup: Setup, rounds: Sequence[Round]) -> list[str]:
        raise NotImplementedError

    def rounds_total(self, setup: Setup) -> int | None:
        """How many rounds the game lasts, when the rules fix it."""
        return None

    def summary(self, setup: Setup, rnd: Round) -> str:
        """One line saying what the round gave each side."""
        return " · ".join(f"{self.side_label(setup, side)} {points:+d}" if points
                          else f"{self.side_label(setup, side)} 0" for side, points in rnd.points.items())

    def csv_head(self, setup: Setup) -> list[str]:
        return ["round"] + self.sides(setup)

    def csv_row(self, setup: Setup, rnd: Round) -> list:
        return [rnd.number] + [rnd.points[s] for s in self.sides(setup)]

    def csv_total(self, sheet: Sheet) -> list:
        return ["total"] + [sheet.totals[s] for s in self.sides(sheet.setup)]


def _and(names: Sequence[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _said_and(names: Sequence[str]) -> str:
    """Names joined for the page, in the page's language (``_and`` keeps stored sentences English)."""
    names = list(names)
    if len(names) == 1:
        return names[0]
    return gettext("%(names)s and %(last)s", names=", ".join(names[:-1]), last=names[-1])


def _add(totals: Mapping[str, int], points: Mapping[str, int]) -> dict[str, int]:
    return {side: totals.get(side, 0) + points.get(side, 0) for side in {**totals, **points}}


class DixitSheet(SheetGame):
    name, title = "dixit", "Dixit"
    # A sheet takes 3 to 8 players as they come: the extended counts need no switch here.
    range_options = {"extended_player_counts": True}

    def options(self, raw, players):
        engine = self.engine()
        require(isinstance(raw, Mapping), "The options must be a set of named choices.")
        for key in raw:
            require(key in ("bonus", "bonus_cap", "end_at_30"), f'Dixit has no option called "{key}".')
        checked = engine.normalize_options({**raw, **self.range_options})
        return {key: checked[key] for key in ("end_at_30", "bonus", "bonus_cap")}

    def request(self, setup, before, entry):
        return {"players": list(setup.players), "storyteller": entry.get("storyteller"),
                "cards": entry.get("cards"), "votes": entry.get("votes"),
                "options": {"bonus": setup.options["bonus"], "bonus_cap": setup.options["bonus_cap"]}}

    def check_entry(self, entry):
        super().check_entry(entry)
        for key in entry:
            require(key in ("storyteller", "cards", "votes"), f'A Dixit round has no "{key}".')

    def over(self, setup, rounds):
        return self.engine().game_ends(len(setup.players), len(rounds), rounds[-1].totals if rounds else {},
                                       setup.options["end_at_30"])

    def winners(self, setup, rounds):
        return self.engine().winners(dict(rounds[-1].totals))

    def rounds_total(self, setup):
        return self.engine().rounds_total(len(setup.players))

    def next_storyteller(self, setup: Setup, rounds: Sequence[Round]) -> str:
        """The storyteller passes to the left: the next player in seating order."""
        if not rounds:
            return setup.players[0]
        return self.engine().next_storyteller(setup.players, rounds[-1].entry["storyteller"])

    def summary(self, setup, rnd):
        teller = rnd.entry["storyteller"]
        card = rnd.entry["cards"][teller]
        card = card[0] if isinstance(card, list) else card
        found = [n for n, k in rnd.entry["votes"].items() if k == card]
        if not found:
            said = gettext("Nobody found %(name)s's card.", name=teller)
        elif len(found) == len(setup.players) - 1:
            said = gettext("Everyone found %(name)s's card.", name=teller)
        else:
            said = gettext("%(names)s found %(name)s's card.", names=_said_and(found), name=teller)
        return f"{said} {super().summary(setup, rnd)}"

    def csv_head(self, setup):
        return ["round", "storyteller"] + self.sides(setup)

    def csv_row(self, setup, rnd):
        return [rnd.number, rnd.entry["storyteller"]] + [rnd.points[s] for s in self.sides(setup)]

    def csv_total(self, sheet):
        return ["total", ""] + [sheet.totals[s] for s in self.sides(sheet.setup)]


class RorschachSheet(SheetGame):
    """Rorschach (2008): each round, the blot each player picked; tokens carry over."""

    name, title = "rorschach", "Rorschach (2008)"

    def options(self, raw, players):
        require(isinstance(raw, Mapping), "The options must be a set of named choices.")
        for key in raw:
            require(key == "colours", f'Rorschach has no option called "{key}" here.')
        known = [c[0] for c in self.engine().COLOURS]
        colours = raw.get("colours") or known[:len(players)]
        require(isinstance(colours, list) and len(colours) == len(players)
                and all(c in known for c in colours), "Give each player one of the dice colours.")
        for colour in colours:
            require(colours.count(colour) == 1, f"Two players can't both have the {colour} die.")
        return {"colours": list(colours)}

    def request(self, setup, before, entry):
        tokens = before[-1].result["tokens"] if before else None
        return {"players": list(setup.players), "choices": entry.get("choices"), "tokens": tokens}

    def check_entry(self, entry):
        super().check_entry(entry)
        for key in entry:
            require(key == "choices", f'A Rorschach round has no "{key}".')

    def points(self, setup, result):
        # No points in this game: a side's "points" are the tokens it took, its total those it holds.
        return {name: len(result["gained"][name]) for name in setup.players}

    def over(self, setup, rounds):
        return bool(rounds[-1].result["winners"])

    def winners(self, setup, rounds):
        return list(rounds[-1].result["winners"])

    def blots(self, setup: Setup) -> int:
        """Blots on the table: one fewer than the players."""
        return len(setup.players) - 1

    def colours(self, setup: Setup) -> dict[str, tuple[str, str, str]]:
        """Each player's die colour (name, letter, hex)."""
        known = {c[0]: c for c in self.engine().COLOURS}
        return {name: known[colour] for name, colour in zip(setup.players, setup.options["colours"])}

    def summary(self, setup, rnd):
        said = []
        for name in setup.players:
            gained = rnd.result["gained"][name]
            if gained == [name]:
                said.append(gettext("%(name)s took their own colour", name=name))
            elif gained:
                said.append(ngettext("%(name)s took %(owners)s's colour", "%(name)s took %(owners)s's colours",
                                     len(gained), name=name, owners=_said_and(gained)))
        return ("; ".join(said) + ".") if said else gettext("Nobody took a token.")

    def csv_head(self, setup):
        return ["round"] + [f"{name} picked" for name in setup.players] + [
            f"{name} took" for name in setup.players]

    def csv_row(self, setup, rnd):
        return ([rnd.number] + [rnd.entry["choices"][n] for n in setup.players]
                + [" ".join(rnd.result["gained"][n]) for n in setup.players])

    def csv_total(self, sheet):
        held = sheet.rounds[-1].result["tokens"] if sheet.rounds else {n: [] for n in sheet.players}
        return ["holds"] + ["" for _ in sheet.players] + [" ".join(held[n]) for n in sheet.players]


class RorschachTeamsSheet(SheetGame):
    """Rorschach (teams): each round's scoring phase; the score carries over, the teams alternate."""

    name, title = "rorschach-teams", "Rorschach (teams)"
    teams = True
    TEAMS = ("black", "white")

    def options(self, raw, players):
        require(isinstance(raw, Mapping), "The options must be a set of named choices.")
        for key in raw:
            require(key == "first_test_team", f'Rorschach (teams) has no option called "{key}" here.')
        return {"first_test_team": self.engine().normalize_options(dict(raw))["first_test_team"]}

    def teams_for(self, players, teams):
        require(isinstance(teams, Mapping), "Put each player in a team: black or white.")
        for name in players:
            require(teams.get(name) in self.TEAMS, f"Put {name} in a team: black or white.")
        for name in teams:
            require(name in players, f"{name} is not playing in this game.")
        seats = {t: [i for i, n in enumerate(players) if teams[n] == t] for t in self.TEAMS}
        self.engine().normalize_options({"teams": seats})  # each team big enough, by the game's rule
        return {name: teams[name] for name in players}

    def sides(self, setup):
        return list(self.TEAMS)

    def side_label(self, setup, side):
        # The teams as the pages name them; the CSV export keeps "black" and "white".
        return {"black": gettext("Black"), "white": gettext("White")}.get(side, side)

    def detail(self, setup, rnd):
        return self.side_label(setup, rnd.entry["test_team"])

    def winner_labels(self, setup, winners):
        return [f"{self.side_label(setup, team)} ({_said_and(self.members(setup, team))})" for team in winners]

    def members(self, setup: Setup, team: str) -> list[str]:
        return [n for n in setup.players if setup.teams[n] == team]

    def next_test_team(self, setup: Setup, rounds: Sequence[Round]) -> str:
        """The roles swap every round."""
        if not rounds:
            return setup.options["first_test_team"]
        return self.engine().other_team(rounds[-1].entry["test_team"])

    def request(self, setup, before, entry):
        score = dict(before[-1].result["score"]) if before else {t: 0 for t in self.TEAMS}
        return {"test_team": entry.get("test_team"), "score": score, "matching": entry.get("matching"),
                "first_guess": entry.get("first_guess"), "control_word": entry.get("control_word"),
                "second_guess": entry.get("second_guess")}

    def check_entry(self, entry):
        super().check_entry(entry)
        for key in entry:
            require(key in ("test_team", "matching", "first_guess", "control_word", "second_guess"),
                    f'A Rorschach (teams) round has no "{key}".')

    def check_complete(self, setup, entry, result):
        # The rules make the second guess when it is allowed; the round is scored once it is made.
        require(not (result["second_guess_allowed"] and entry.get("second_guess") is None),
                "The test team guessed right, so they make a second guess: enter it too.")

    def over(self, setup, rounds):
        return rounds[-1].result["winner"] is not None

    def winners(self, setup, rounds):
        return [rounds[-1].result["winner"]]

    def summary(self, setup, rnd):
        test = self.side_label(setup, rnd.entry["test_team"])
        return gettext("%(team)s tested.", team=test) + " " + super().summary(setup, rnd)

    def csv_head(self, setup):
        return ["round", "test team", "black", "white"]

    def csv_row(self, setup, rnd):
        return [rnd.number, rnd.entry["test_team"], rnd.points["black"], rnd.points["white"]]

    def csv_total(self, sheet):
        return ["total", "", sheet.totals["black"], sheet.totals["white"]]


class DoodlesSheet(SheetGame):
    """Doodles: each round, every player's subject number and every vote."""

    name, title = "doodles", "Doodles"

    def options(self, raw, players):
        require(isinstance(raw, Mapping), "The options must be a set of named choices.")
        for key in raw:
            require(key == "rounds", f'Doodles has no option called "{key}" here.')
        return {"rounds": self.engine().normalize_options(dict(raw))["rounds"]}

    def request(self, setup, before, entry):
        return {"players": list(setup.players), "subjects": entry.get("subjects"), "votes": entry.get("votes")}

    def check_entry(self, entry):
        super().check_entry(entry)
        for key in entry:
            require(key in ("subjects", "votes"), f'A Doodles round has no "{key}".')

    def guessed(self, setup: Setup, rounds: Sequence[Round]) -> dict[str, int]:
        """How often each player's doodle was guessed over the game (the tie-break)."""
        return {n: sum(r.result["guessed"][n] for r in rounds) for n in setup.players}

    def over(self, setup, rounds):
        return len(rounds) >= setup.options["rounds"]

    def winners(self, setup, rounds):
        return list(self.engine().winners(list(setup.players), rounds[-1].totals, self.guessed(setup, rounds)))

    def rounds_total(self, setup):
        return setup.options["rounds"]


class InklingSheet(SheetGame):
    """Inkling: the whole game in one entry, at the end (clue cards and guesses, or paper scores)."""

    name, title = "inkling", "Inkling"
    single_entry = True

    def request(self, setup, before, entry):
        return {"players": list(setup.players), **entry}

    def check_entry(self, entry):
        super().check_entry(entry)
        for key in entry:
            require(key in ("clues", "guesses", "near_misses", "guessing", "guesses_made"),
                    f'Inkling\'s scoring has no "{key}".')

    def points(self, setup, result):
        return dict(result["totals"])

    def over(self, setup, rounds):
        return True

    def winners(self, setup, rounds):
        return list(rounds[-1].result["winners"])

    def rounds_total(self, setup):
        return 1

    def neighbours(self, setup: Setup, name: str) -> tuple[str, str]:
        """(left, right): the next player clockwise and the previous one."""
        return self.engine().neighbours(list(setup.players), name)

    def summary(self, setup, rnd):
        return " · ".join(f"{n} {rnd.points[n]}" for n in setup.players)

    def csv_head(self, setup):
        return ["player", "guessing left", "guessing right", "ink left", "ink right", "total"]

    def csv_row(self, setup, rnd):
        raise NotImplementedError  # one entry: exported player by player in csv_rows

    def csv_rows(self, sheet: "Sheet") -> list[list]:
        if not sheet.rounds:
            return []
        result = sheet.rounds[-1].result
        rows = []
        for name in sheet.players:
            left, right = self.neighbours(sheet.setup, name)
            rows.append([name, result["guessing"][name][left], result["guessing"][name][right],
                         result["ink"][name][left], result["ink"][name][right], result["totals"][name]])
        return rows

    def csv_total(self, sheet):
        return None


_ALL_GAMES: tuple[SheetGame, ...] = (DixitSheet(), RorschachSheet(), RorschachTeamsSheet(), DoodlesSheet(),
                                     InklingSheet())



def _available() -> dict[str, SheetGame]:
    offered = scoring.scorers()
    return {g.name: g for g in _ALL_GAMES if g.name in offered}


GAMES: dict[str, SheetGame] = _available()


# --- replay ------------------------------------------------------------------------------------


def _score(setup: Setup, before: Sequence[Round], entry: Mapping[str, Any], number: int,
           edited: bool) -> Round:
    game = GAMES[setup.game]
    game.check_entry(entry)
    result = scoring.score(setup.game, game.request(setup, before, entry))
    game.check_complete(setup, entry, result)
    points = game.points(setup, result)
    totals = _add(before[-1].totals if before else {s: 0 for s in game.sides(setup)}, points)
    totals = {s: totals[s] for s in game.sides(setup)}
    return Round(number, entry, result, points, totals, edited)


def _rescore(setup: Setup, kept: Sequence[Round], entries: Sequence[tuple[Mapping, bool]],
             changed: int) -> tuple[Round, ...]:
    """The rounds ``kept`` followed by ``entries`` scored in turn; round ``changed`` is the one the
    user just entered, whose refusal is its own sentence; a later one's is explained."""
    game = GAMES[setup.game]
    rounds = list(kept)
    for entry, edited in entries:
        number = len(rounds) + 1
        if rounds and game.over(setup, rounds):
            if number == changed:
                raise RuleError(_over_sentence(setup, rounds))
            raise RuleError(f"That change can't be saved: the game would end after round {number - 1}, "
                            f"so round {number} could not have been played.")
        try:
            rounds.append(_score(setup, rounds, entry, number, edited))
        except RuleError as error:
            if number == changed:
                raise
            raise RuleError(f"That change can't be saved: round {number} would no longer be possible. "
                            f"{error}") from error
    return tuple(rounds)


def _over_sentence(setup: Setup, rounds: Sequence[Round]) -> str:
    won = GAMES[setup.game].winners(setup, rounds)
    who = _and(won) if won else "nobody"
    return f"The game is over: {who} won. Correct a round or undo the last one to go on."


def _setup(body: Mapping[str, Any]) -> Setup:
    game = body.get("game")
    require(game in GAMES, "Pick one of the games on the list.")
    return new_setup(game, body.get("players"), body.get("teams"), body.get("options") or {})


def new_setup(game: str, players: Any, teams: Any = None, options: Any = None) -> Setup:
    """A checked setup: names trimmed and different, the right number of players, options known."""
    require(game in GAMES, "Pick one of the games on the list.")
    g = GAMES[game]
    require(isinstance(players, (list, tuple)), "List the players by name, in seating order.")
    names = [clean_name(p) for p in players]
    seen: set[str] = set()
    for name in names:
        require(name.casefold() not in seen, f"Two players are called {name}: tell them apart.")
        seen.add(name.casefold())
    require(g.min_players <= len(names) <= g.max_players,
            f"{g.title} takes {g.min_players} to {g.max_players} players; {len(names)} are listed.")
    checked_teams = g.teams_for(names, teams) if g.teams else None
    if not g.teams:
        require(not teams, f"{g.title} is not played in teams.")
    return Setup(game, tuple(names), checked_teams, g.options(options or {}, names))


def apply_entry(sheet: Sheet | None, body: Mapping[str, Any], code: str, seq: int) -> Sheet:
    """The sheet after one log entry; RuleError (and the sheet unchanged) when it can't be."""
    kind = body.get("type")
    if kind == "sheet":
        require(sheet is None, "This sheet already exists.")
        return Sheet(code=code, setup=_setup(body), editor=body["editor"], version=seq)
    require(sheet is not None, "This sheet has not been set up.")
    setup = sheet.setup
    if kind == "round":
        require(not sheet.over, _over_sentence(setup, sheet.rounds) if sheet.rounds else "The game is over.")
        number = len(sheet.rounds) + 1
        rounds = sheet.rounds + (_score(setup, sheet.rounds, body.get("round"), number, False),)
        label = "Undo the scores" if GAMES[setup.game].single_entry else f"Undo round {number}"
    elif kind == "edit":
        number = body.get("number")
        require(isinstance(number, int) and not isinstance(number, bool)
                and 1 <= number <= len(sheet.rounds), "There is no such round to correct.")
        if body.get("round") == sheet.rounds[number - 1].entry:
            return sheet  # saved as it was: nothing to record, nothing to undo
        later = [(r.entry, r.edited) for r in sheet.rounds[number:]]
        rounds = _rescore(setup, sheet.rounds[:number - 1], [(body.get("round"), True)] + later, number)
        label = ("Undo the correction of the scores" if GAMES[setup.game].single_entry
                 else f"Undo the correction of round {number}")
    elif kind == "undo":
        require(bool(sheet.undo), "There is nothing to undo.")
        _, rounds = sheet.undo[-1]
        return replace(sheet, rounds=rounds, undo=sheet.undo[:-1], version=seq)
    else:
        raise RuleError("That is not something a score sheet can do.")
    return replace(sheet, rounds=rounds, undo=sheet.undo + ((label, sheet.rounds),), version=seq)


def replay(code: str, entries) -> Sheet:
    sheet = None
    for entry in entries:
        sheet = replace(apply_entry(sheet, entry.body, code, entry.seq), updated=entry.at)
    if sheet is None:
        raise NoSuchSheet(code)
    return sheet


# --- storage -----------------------------------------------------------------------------------


class Sheets:
    """Score sheets in a rooms store (``create_room``, ``room``, ``entries``, ``write``)."""

    def __init__(self, store, clock=time.time):
        self.store = store
        self.clock = clock

    def create(self, game: str, players, teams=None, options=None) -> tuple[str, str]:
        """Start a sheet; returns its code and the editing token (for the tablet's cookie)."""
        setup = new_setup(game, players, teams, options)
        token = new_token()
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if self.store.create_room(code, KIND_PREFIX + game):
                break
        body = {"type": "sheet", "game": game, "players": list(setup.players),
                "teams": dict(setup.teams) if setup.teams else None, "options": dict(setup.options),
                "editor": token_hash(token)}
        self._record(code, body, None)
        return code, token

    def get(self, code: str) -> Sheet:
        code = normal_code(code)
        self._kind(code)
        return replay(code, self.store.entries(code))

    def _kind(self, code: str) -> str:
        info = self.store.room(code) if CODE_PATTERN.match(code) else None
        if info is None or not info[0].startswith(KIND_PREFIX) or info[0][len(KIND_PREFIX):] not in GAMES:
            raise NoSuchSheet(code)
        return info[0]

    def add_round(self, code: str, entry: Mapping, expected_version: int | None = None) -> Sheet:
        return self._record(code, {"type": "round", "round": entry}, expected_version)

    def edit_round(self, code: str, number: int, entry: Mapping, expected_version: int | None = None) -> Sheet:
        return self._record(code, {"type": "edit", "number": number, "round": entry}, expected_version)

    def undo(self, code: str, expected_version: int | None = None) -> Sheet:
        return self._record(code, {"type": "undo"}, expected_version)

    def _record(self, code: str, body: dict, expected_version: int | None) -> Sheet:
        code = normal_code(code)

        def record(tx) -> Sheet:
            version = tx.version()
            if version is None:
                raise NoSuchSheet(code)
            if expected_version is not None and expected_version != version:
                raise StaleSheet(version)
            sheet = replay(code, tx.entries()) if version else None
            changed = apply_entry(sheet, body, code, version + 1)
            if changed is sheet:
                return sheet
            now = self.clock()
            tx.append(version + 1, now, body)
            return replace(changed, updated=now)

        return self.store.write(code, record)


# --- export ------------------------------------------------------------------------------------


def export(sheet: Sheet) -> dict:
    """The whole game as JSON data: who played, every round as entered and as scored, the end."""
    setup = sheet.setup
    return {
        "code": sheet.code,
        "game": setup.game,
        "title": sheet.game.title,
        "players": list(setup.players),
        "teams": dict(setup.teams) if setup.teams else None,
        "options": dict(setup.options),
        "rounds": [
            {"round": r.number, "entered": r.entry, "scored": r.result, "points": r.points,
             "totals": r.totals, "corrected": r.edited}
            for r in sheet.rounds
        ],
        "totals": sheet.totals,
        "over": sheet.over,
        "winners": sheet.winners,
    }


def export_csv(sheet: Sheet) -> str:
    """The rounds as a table, one row per round and a row of totals (and the winners, at the end)."""
    game, out = sheet.game, io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(game.csv_head(sheet.setup))
    rows = game.csv_rows(sheet) if hasattr(game, "csv_rows") else [
        game.csv_row(sheet.setup, rnd) for rnd in sheet.rounds]
    writer.writerows(rows)
    total = game.csv_total(sheet)
    if total is not None:
        writer.writerow(total)
    if sheet.over:
        writer.writerow(["winners", " and ".join(sheet.winners)])
    return out.getvalue()
