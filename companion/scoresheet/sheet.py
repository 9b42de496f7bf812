"""Score sheets: the score-only helper's games, kept as append-only logs in the rooms' store.

A sheet is a game played with the box alone, whose host tablet enters what happened each round.
It lives in the same store as the rooms, under a code of its own and the kind ``sheet:<game>``:

- entry 1, ``{"type": "sheet", "game", "players", "teams", "options", "editor"}``: who plays, in
  seating order (clockwise), and the hash of the editing tablet's token (never the token);
- ``{"type": "round", "round": {...}}``: one round as entered, in the game's ``SCORING.Round`` words;
- ``{"type": "edit", "number": n, "round": {...}}``: round ``n`` corrected;
- ``{"type": "end"}``: the table ends the game early (issue 31): the standings of the rounds entered
  so far are final, the first place wins (:func:`games.base.early_end`);
- ``{"type": "undo"}`` takes back the last round, correction or end, ``{"type": "redo"}`` puts it back.

The sheet is the replay of its log, and it is the same for every game: one list of entries. What a
round is worth, when the game ends, who wins and what the next round starts with all come from the
game's own ``SCORING`` (``games/<game>.py``), the functions live play uses, so a correction of an early
round recomputes every later total, and a correction that would make a later round impossible (or
end the game before it) is refused with a sentence, like any round that cannot have happened.
Nothing is recorded when a change is refused.

Sheet codes are six lowercase letters and digits, so they can never be mistaken for a room's code
(four capitals, looked up in capitals). Sheets share the rooms' table, and the idle clean-up deletes them as it deletes rooms (issue 29).
"""

from __future__ import annotations

import csv
import io
import re
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from games import GAMES
from games.base import N_, RuleError, Score, Standings, Table, early_end, read_model, require

from companion.rooms.names import NAME_LIMIT, clean_name, same_name
from companion.rooms.room import new_token, token_hash
from companion.storage.store import Store, Writer

KIND_PREFIX = "sheet:"
CODE_ALPHABET = "abcdefghjkmnpqrtuvwxy346789"
CODE_LENGTH = 6
CODE_PATTERN = re.compile(f"^[{CODE_ALPHABET}]{{{CODE_LENGTH}}}$")
COOKIE_PREFIX = "tcs_"
CODE_TRIES = 50  # codes drawn before giving up: with 387 million codes, a full store


class NoSuchSheet(LookupError):
    """The code names no score sheet."""


class StaleSheet(Exception):
    """The sheet changed since the page that sent a change was shown."""


def normal_code(code: str) -> str:
    return code.strip().lower()


def cookie_name(code: str) -> str:
    return COOKIE_PREFIX + code


def scoring(game: str):
    """The game's score-only side (``engine.SCORING``)."""
    return GAMES[game].SCORING


def sides(game: str, table: Table) -> list[str]:
    """Who scores: the players, or the teams."""
    teams = scoring(game).teams
    return list(teams) if teams else list(table.players)


@dataclass(frozen=True)
class Round:
    """One scored round: what was entered, and what the game's scoring made of it."""

    number: int
    entry: Mapping[str, Any]
    score: Score
    totals: Mapping[str, int]
    edited: bool = False


@dataclass(frozen=True)
class Sheet:
    code: str
    game: str
    table: Table
    editor: str
    version: int
    rounds: tuple[Round, ...] = ()
    standings: Standings | None = None
    updated: float = 0.0  # when the last entry was made
    # (what the undo button says, the rounds before the change), the latest last; redo likewise.
    undo: tuple[tuple[str, tuple[Round, ...]], ...] = ()
    redo: tuple[tuple[str, tuple[Round, ...]], ...] = ()
    ended_early: int | None = None  # the rounds entered when the table ended the game early

    @property
    def title(self) -> str:
        return GAMES[self.game].TITLE

    @property
    def players(self) -> tuple[str, ...]:
        return self.table.players

    @property
    def sides(self) -> list[str]:
        return sides(self.game, self.table)

    @property
    def totals(self) -> dict[str, int]:
        return dict(self.standings.totals) if self.standings else {s: 0 for s in self.sides}

    @property
    def over(self) -> bool:
        return bool(self.standings and self.standings.over)

    @property
    def winners(self) -> list[str]:
        return list(self.standings.winners) if self.standings and self.standings.over else []

    @property
    def undo_label(self) -> RuleError | None:
        return _label(self.undo[-1][0]) if self.undo else None

    @property
    def redo_label(self) -> RuleError | None:
        return _label(self.redo[-1][0]) if self.redo else None

    def is_editor(self, token: str | None) -> bool:
        return bool(token and secrets.compare_digest(token_hash(token), self.editor))


def _label(kind: str) -> RuleError:
    """What an undo or redo button says, as a sentence the pages translate."""
    what, _, number = kind.partition(":")
    sentences = {
        "round": N_("Undo round %(number)s"), "edit": N_("Undo the correction of round %(number)s"),
        "scores": N_("Undo the scores"), "edit-scores": N_("Undo the correction of the scores"),
        "redo-round": N_("Redo round %(number)s"), "redo-edit": N_("Redo the correction of round %(number)s"),
        "redo-scores": N_("Redo the scores"), "redo-edit-scores": N_("Redo the correction of the scores"),
        "end": N_("Undo ending the game"), "redo-end": N_("Redo ending the game"),
    }
    return RuleError(sentences[what], number=int(number) if number else 0)


# --- scoring, through the game's SCORING -------------------------------------------------------


def read_round(game: str, raw: Any):
    """A round as entered, read with the game's ``SCORING.Round`` model."""
    return read_model(scoring(game).Round, raw, "request", N_("A round is a set of named values."))


def _score(game: str, table: Table, before: Sequence[Round], raw: Any, number: int, edited: bool) -> Round:
    entry = read_round(game, raw)
    score = scoring(game).score(table, [r.score for r in before], entry)
    standing = scoring(game).standings(table, [r.score for r in before] + [score])
    return Round(number, entry.model_dump(mode="json"), score, dict(standing.totals), edited)


def _standings(game: str, table: Table, rounds: Sequence[Round], ended: bool = False) -> Standings:
    """The standings after ``rounds``; ``ended``: made final, the table having ended the game early."""
    standing = scoring(game).standings(table, [r.score for r in rounds])
    return early_end(standing, len(rounds)).standings if ended and not standing.over else standing


def _rescore(game: str, table: Table, kept: Sequence[Round], entries: Sequence[tuple[Any, bool]],
             changed: int) -> tuple[Round, ...]:
    """The rounds ``kept`` followed by ``entries`` scored in turn; round ``changed`` is the one the
    user just entered, whose refusal is its own sentence; a later one's is explained."""
    rounds = list(kept)
    for entry, edited in entries:
        number = len(rounds) + 1
        if rounds and _standings(game, table, rounds).over:
            if number == changed:
                raise _over(game, table, rounds)
            raise RuleError("That change can't be saved: the game would end after round %(before)s, "
                            "so round %(number)s could not have been played.", before=number - 1, number=number)
        try:
            rounds.append(_score(game, table, rounds, entry, number, edited))
        except RuleError as error:
            if number == changed:
                raise
            raise RuleError("That change can't be saved: round %(number)s would no longer be possible.",
                            number=number) from error
    return tuple(rounds)


def _over(game: str, table: Table, rounds: Sequence[Round]) -> RuleError:
    won = _standings(game, table, rounds).winners
    return RuleError("The game is over: %(names)s won. Correct a round or undo the last one to go on.",
                     names=", ".join(won) if won else "nobody")


def new_table(game: Any, players: Any, teams: Any = None, options: Any = None, limit: int | None = NAME_LIMIT) -> Table:
    """A checked table: names cleaned (within ``limit``; None for a sheet replayed from its log) and
    different, the player count and teams by the game's own rules, the options read with its ``SheetOptions``."""
    require(isinstance(game, str) and game in GAMES, "Pick one of the games on the list.")
    require(isinstance(players, (list, tuple)) and len(players) <= 32, "List the players by name, in seating order.")
    names = [clean_name(p, limit) for p in players]
    for i, name in enumerate(names):
        require(not any(same_name(name, other) for other in names[:i]),
                "Two players are called %(name)s: tell them apart.", name=name)
    side = scoring(game)
    if side.teams is None:
        require(not teams, "%(game)s is not played in teams.", game=GAMES[game].TITLE)
    return side.table(names, teams if side.teams else None, options or {})


def apply_entry(sheet: Sheet | None, body: Mapping[str, Any], code: str, seq: int) -> Sheet:
    """The sheet after one log entry; RuleError (and the sheet unchanged) when it can't be."""
    kind = body.get("type")
    if kind == "sheet":
        require(sheet is None, "This sheet already exists.")
        game: Any = body.get("game")  # new_table refuses anything but a game's name
        table = new_table(game, body.get("players"), body.get("teams"), body.get("options"), limit=None)
        return Sheet(code=code, game=game, table=table, editor=body["editor"], version=seq,
                     standings=_standings(game, table, ()))
    require(sheet is not None, "This sheet has not been set up.")
    assert sheet is not None
    game, table = sheet.game, sheet.table
    single = scoring(game).single_entry
    if kind == "round":
        if sheet.over:
            raise _over(game, table, sheet.rounds)
        number = len(sheet.rounds) + 1
        rounds = sheet.rounds + (_score(game, table, sheet.rounds, body.get("round"), number, False),)
        label = "scores" if single else f"round:{number}"
    elif kind == "edit":
        number = body.get("number", 0)  # 0, like None, is no round
        require(isinstance(number, int) and not isinstance(number, bool) and 1 <= number <= len(sheet.rounds),
                "There is no such round to correct.")
        if read_round(game, body.get("round")).model_dump(mode="json") == sheet.rounds[number - 1].entry:
            return sheet  # saved as it was: nothing to record, nothing to undo
        later = [(r.entry, r.edited) for r in sheet.rounds[number:]]
        rounds = _rescore(game, table, sheet.rounds[:number - 1], [(body.get("round"), True)] + later, number)
        label = "edit-scores" if single else f"edit:{number}"
    elif kind == "end":
        if sheet.ended_early is not None:
            return sheet  # ended already: nothing to record
        require(not sheet.over, "The game is over already.")
        return replace(sheet, ended_early=len(sheet.rounds), undo=sheet.undo + (("end", sheet.rounds),), redo=(),
                       version=seq, standings=_standings(game, table, sheet.rounds, ended=True))
    elif kind == "undo":
        require(bool(sheet.undo), "There is nothing to undo.")
        label, rounds = sheet.undo[-1]
        ended = None if label == "end" else sheet.ended_early
        return replace(sheet, rounds=rounds, undo=sheet.undo[:-1], version=seq, ended_early=ended,
                       redo=sheet.redo + (("redo-" + label, sheet.rounds),),
                       standings=_standings(game, table, rounds, ended is not None))
    elif kind == "redo":
        require(bool(sheet.redo), "There is nothing to redo.")
        label, rounds = sheet.redo[-1]
        ended = len(rounds) if label == "redo-end" else sheet.ended_early
        return replace(sheet, rounds=rounds, redo=sheet.redo[:-1], version=seq, ended_early=ended,
                       undo=sheet.undo + ((label.removeprefix("redo-"), sheet.rounds),),
                       standings=_standings(game, table, rounds, ended is not None))
    else:
        raise RuleError("That is not something a score sheet can do.")
    # A correction made after the end keeps the game ended, with the corrected standings.
    return replace(sheet, rounds=rounds, undo=sheet.undo + ((label, sheet.rounds),), redo=(), version=seq,
                   standings=_standings(game, table, rounds, sheet.ended_early is not None))


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

    def __init__(self, store: Store, clock=time.time):
        self.store = store
        self.clock = clock

    def create(self, game: str, players, teams=None, options=None) -> tuple[str, str]:
        """Start a sheet; returns its code and the editing token (for the tablet's cookie)."""
        table = new_table(game, players, teams, options)
        token = new_token()
        for _ in range(CODE_TRIES):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if self.store.create_room(code, KIND_PREFIX + game):
                break
        else:
            raise RuleError("No new score sheet can be started right now: try again in a moment.")
        body = {"type": "sheet", "game": game, "players": list(table.players),
                "teams": dict(table.teams) if table.teams else None,
                "options": table.options.model_dump(mode="json"), "editor": token_hash(token)}
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

    def redo(self, code: str, expected_version: int | None = None) -> Sheet:
        return self._record(code, {"type": "redo"}, expected_version)

    def end(self, code: str, expected_version: int | None = None) -> Sheet:
        """The table ends the game early: the standings of the rounds entered are final."""
        return self._record(code, {"type": "end"}, expected_version)

    def _record(self, code: str, body: dict, expected_version: int | None) -> Sheet:
        code = normal_code(code)

        def record(tx: Writer) -> Sheet:
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
            # The entry as read: a round is stored in its model's own words, nothing more.
            stored = dict(body)
            if "round" in stored:
                stored["round"] = (changed.rounds[-1] if body["type"] == "round"
                                   else changed.rounds[body["number"] - 1]).entry
            tx.append(version + 1, now, stored)
            return replace(changed, updated=now)

        return self.store.write(code, record)


# --- export ------------------------------------------------------------------------------------


def export(sheet: Sheet) -> dict:
    """The whole game as JSON data: who played, every round as entered and as scored, the end."""
    return {
        "code": sheet.code,
        "game": sheet.game,
        "title": sheet.title,
        "players": list(sheet.players),
        "teams": dict(sheet.table.teams) if sheet.table.teams else None,
        "options": sheet.table.options.model_dump(mode="json"),
        "rounds": [
            {"round": r.number, "entered": r.entry, "scored": r.score.as_json(), "points": dict(r.score.points),
             "totals": dict(r.totals), "corrected": r.edited}
            for r in sheet.rounds
        ],
        "totals": sheet.totals,
        "over": sheet.over,
        "ended_early": sheet.ended_early,
        "winners": sheet.winners,
        "standings": sheet.standings.as_json() if sheet.standings else None,
    }


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A cell that a spreadsheet will not run: text starting like a formula gets a leading
    apostrophe, as OWASP's CSV-injection guidance says (numbers stay numbers)."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def export_csv(sheet: Sheet) -> str:
    """The rounds as a table, one row per round with each side's points, a row of totals (and the
    winners, at the end)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    sides = sheet.sides
    rows: list[list[Any]] = [["round"] + sides]
    rows += [[r.number] + [r.score.points.get(s, 0) for s in sides] for r in sheet.rounds]
    rows.append(["total"] + [sheet.totals[s] for s in sides])
    if sheet.over:
        rows.append(["winners", " and ".join(sheet.winners)])
    writer.writerows([[csv_cell(cell) for cell in row] for row in rows])
    return out.getvalue()
