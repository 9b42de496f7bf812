"""The score-only helper's pages: a game played with the box alone, scored on the host tablet.

Plain HTML forms (no script needed): positions, blots, numbers and words are radio buttons drawn
as big buttons, so a round is entered by taps. Every form carries the sheet's version, so a
double tap records nothing twice. Only the tablet that started a sheet (its cookie ``tcs_<code>``,
like the host's) can change it; anyone with the address can watch it and export it.
"""

from __future__ import annotations

from typing import Any, Mapping

from flask import (Blueprint, Response, current_app, redirect, render_template, request,
                   url_for)
from werkzeug.datastructures import MultiDict

from games.base import RuleError, require

from flask_babel import gettext, lazy_gettext

from companion.web import identity
from companion.scoresheet import sheet as sheetlib
from companion.web.i18n import rule_sentence
from companion.web.rule_sentences import N_
from companion.scoresheet.sheet import NoSuchSheet, Sheet, Sheets, StaleSheet

bp = Blueprint("helper", __name__, url_prefix="/score")

STALE = lazy_gettext("The sheet changed just before your tap; here it is as it stands now.")
NOT_EDITOR = lazy_gettext("Only the tablet that started this sheet can change it. Open it there, or use "
                          "the link it shows to open the sheet on this screen.")
MAX_LISTED = 12
MAX_COOKIES = 40
TEAM_SLOTS = 8


def store() -> Sheets:
    return Sheets(current_app.extensions["rooms"].store)


@bp.context_processor
def _sentences():
    # Sentences kept in English on the sheet (its undo label) said in the page's language.
    return {"say": rule_sentence}


@bp.app_context_processor
def _score_only_games():
    # The home page offers a "score only" start for each game the helper has.
    return {"score_only_games": [(g.name, g.title) for g in sheetlib.GAMES.values()]}


@bp.errorhandler(NoSuchSheet)
def _no_sheet(error):
    return render_template("message.html", title=gettext("No such score sheet"),
                           message=gettext("There is no score sheet with the code %(code)s. "
                                           "Check the address, or start a new sheet.", code=error)), 404


@bp.errorhandler(RuleError)
def _unreadable(error):
    # Refusals of what was entered are caught where they happen; one that reaches here came from
    # replaying a stored sheet that the rules no longer accept.
    current_app.logger.error("a score sheet could not be replayed: %s", error)
    return render_template("message.html", title=gettext("This sheet cannot be read"),
                           message=gettext("This score sheet could not be read back: %(reason)s",
                                           reason=rule_sentence(str(error)))), 500


def _token(code: str) -> str | None:
    return request.cookies.get(sheetlib.cookie_name(code))


def _set_cookie(response, code: str, token: str) -> None:
    # As long as the host's cookie: sheets are cleared with idle rooms, so a longer one would outlive them.
    response.set_cookie(sheetlib.cookie_name(code), token, max_age=identity.COOKIE_AGE,
                        httponly=True, samesite="Lax", secure=request.is_secure)


def _version() -> int | None:
    raw = request.form.get("version", "")
    return int(raw) if raw.isascii() and raw.isdigit() else None


# --- the round forms, one per game: form fields <-> a round in the scoring API's words ---------


def _number(raw: str | None, sentence: str) -> int | None:
    if raw is None or raw == "":
        return None
    require(raw.isascii() and raw.isdigit() and len(raw) < 6, sentence)
    return int(raw)


def _player(setup, raw: str | None, sentence: str) -> str | None:
    index = _number(raw, sentence)
    if index is None:
        return None
    require(index < len(setup.players), sentence)
    return setup.players[index]


class DixitForm:
    """Dixit: the storyteller, where each card lay, and who voted for which position."""

    template = "score/forms/dixit.html"

    def context(self, sheet: Sheet, values: Mapping[str, Any]) -> dict:
        engine = sheet.game.engine()
        count = len(sheet.players)
        return {"positions": list(range(1, engine.cards_on_table(count) + 1)),
                "two_cards": engine.cards_played(count, False) == 2}

    def defaults(self, sheet: Sheet) -> dict:
        teller = sheet.game.next_storyteller(sheet.setup, sheet.rounds)
        return {"storyteller": sheet.players.index(teller), "cards": {}, "votes": {}}

    def values(self, sheet: Sheet, entry: Mapping[str, Any]) -> dict:
        index = {name: i for i, name in enumerate(sheet.players)}
        cards = {index[n]: p if isinstance(p, list) else [p] for n, p in entry["cards"].items()}
        return {"storyteller": index[entry["storyteller"]], "cards": cards,
                "votes": {index[n]: p for n, p in entry["votes"].items()}}

    def parse(self, sheet: Sheet, form: MultiDict) -> tuple[dict, dict]:
        setup = sheet.setup
        values: dict[str, Any] = {"storyteller": None, "cards": {}, "votes": {}}
        teller = _player(setup, form.get("storyteller"), N_("Choose the storyteller from the players."))
        values["storyteller"] = None if teller is None else setup.players.index(teller)
        for i in range(len(setup.players)):
            picked = [_number(v, N_("A card position is a whole number.")) for v in form.getlist(f"card{i}")]
            picked = [p for p in picked if p is not None]
            if picked:
                values["cards"][i] = picked
            vote = _number(form.get(f"vote{i}"), N_("A vote is a card position, a whole number."))
            if vote is not None and setup.players[i] != teller:
                values["votes"][i] = vote
        require(teller is not None, N_("Choose the storyteller."))
        two = self.context(sheet, values)["two_cards"]
        cards = {setup.players[i]: (p if two and setup.players[i] != teller or len(p) > 1 else p[0])
                 for i, p in values["cards"].items()}
        votes = {setup.players[i]: v for i, v in values["votes"].items()}
        return {"storyteller": teller, "cards": cards, "votes": votes}, values


class RorschachForm:
    """Rorschach (2008): the blot each player picked."""

    template = "score/forms/rorschach.html"

    def context(self, sheet, values):
        return {"blots": list(range(1, sheet.game.blots(sheet.setup) + 1)),
                "colours": sheet.game.colours(sheet.setup)}

    def defaults(self, sheet):
        return {"choices": {}}

    def values(self, sheet, entry):
        return {"choices": {sheet.players.index(n): b for n, b in entry["choices"].items()}}

    def parse(self, sheet, form):
        choices = {}
        for i in range(len(sheet.players)):
            blot = _number(form.get(f"blot{i}"), N_("A blot is picked by its number."))
            if blot is not None:
                choices[i] = blot
        return ({"choices": {sheet.players[i]: b for i, b in choices.items()}}, {"choices": choices})


class RorschachTeamsForm:
    """Rorschach (teams): the test team, the matching, both teams' guesses, the second guess."""

    template = "score/forms/rorschach-teams.html"
    IMAGES = ("1", "2", "3", "4")
    WORDS = ("A", "B", "C")
    FIELDS = ("test_team", "first_image", "first_word", "control_word", "second_image", "second_word")

    def context(self, sheet, values):
        return {"images": self.IMAGES, "words": self.WORDS, "team_names": sheet.game.TEAMS}

    def defaults(self, sheet):
        return {"test_team": sheet.game.next_test_team(sheet.setup, sheet.rounds), "matching": {}}

    def values(self, sheet, entry):
        second = entry.get("second_guess") or {}
        matching = dict(entry["matching"])
        for image in self.IMAGES:
            matching.setdefault(image, "hidden")
        return {"test_team": entry["test_team"], "matching": matching,
                "first_image": entry["first_guess"]["image"], "first_word": entry["first_guess"]["word"],
                "control_word": entry["control_word"], "second_image": second.get("image"),
                "second_word": second.get("word")}

    def parse(self, sheet, form):
        values: dict[str, Any] = {"matching": {}}
        allowed = {"test_team": sheet.game.TEAMS, "first_image": self.IMAGES, "second_image": self.IMAGES,
                   "first_word": self.WORDS, "second_word": self.WORDS, "control_word": self.WORDS}
        for key in self.FIELDS:
            value = form.get(key) or None
            require(value is None or value in allowed[key], N_("Choose from the buttons shown."))
            values[key] = value
        for image in self.IMAGES:
            word = form.get(f"match{image}") or None
            require(word is None or word in self.WORDS + ("hidden",), N_("Choose from the buttons shown."))
            if word:
                values["matching"][image] = word
        require(values["test_team"] is not None, N_("Choose the test team."))
        require(values["first_image"] and values["first_word"],
                N_("Enter the test team's guess: an image and a word."))
        require(values["control_word"], N_("Enter the control team's word."))
        require(bool(values["second_image"]) == bool(values["second_word"]),
                N_("Enter the second guess's image and its word, or neither."))
        entry = {
            "test_team": values["test_team"],
            "matching": {i: w for i, w in values["matching"].items() if w != "hidden"},
            "first_guess": {"image": values["first_image"], "word": values["first_word"]},
            "control_word": values["control_word"],
            "second_guess": ({"image": values["second_image"], "word": values["second_word"]}
                             if values["second_image"] else None),
        }
        return entry, values


class DoodlesForm:
    """Doodles: artist by artist, as the rulebook reveals them: the votes, then the subject."""

    template = "score/forms/doodles.html"

    def context(self, sheet, values):
        return {"subjects": (1, 2, 3)}

    def defaults(self, sheet):
        return {"subjects": {}, "votes": {}}

    def values(self, sheet, entry):
        index = {n: i for i, n in enumerate(sheet.players)}
        return {"subjects": {index[n]: k for n, k in entry["subjects"].items()},
                "votes": {(index[v], index[a]): k for v, cast in entry["votes"].items() for a, k in cast.items()}}

    def parse(self, sheet, form):
        players = sheet.players
        subjects, votes = {}, {}
        sentence = N_("A word is chosen by its number: 1, 2 or 3.")
        for a in range(len(players)):
            subject = _number(form.get(f"subject{a}"), sentence)
            if subject is not None:
                subjects[a] = subject
            for v in range(len(players)):
                vote = _number(form.get(f"vote{v}_{a}"), sentence)
                if vote is not None and v != a:
                    votes[(v, a)] = vote
        entry = {"subjects": {players[a]: k for a, k in subjects.items()},
                 "votes": {players[v]: {players[a]: k for (vv, a), k in sorted(votes.items()) if vv == v}
                           for v in range(len(players))}}
        return entry, {"subjects": subjects, "votes": votes}


class InklingForm:
    """Inkling, at the end: each guessing score per neighbour (paper), or clue cards and guesses."""

    template = "score/forms/inkling.html"
    SCORES = tuple(range(0, 13))
    SIDES = ("left", "right")

    def context(self, sheet, values):
        engine = sheet.game.engine()
        return {"scores": self.SCORES, "values_slots": engine.CLUE_VALUES,
                "most_guesses": engine.GUESSES_PER_NEIGHBOUR,
                "sides": {n: dict(zip(self.SIDES, sheet.game.neighbours(sheet.setup, n))) for n in sheet.players}}

    def defaults(self, sheet):
        return {"mode": "words" if request.args.get("mode") == "words" else "paper"}

    def values(self, sheet, entry):
        players = sheet.players
        if "guessing" in entry:
            made = entry.get("guesses_made") or {}
            return {"mode": "paper",
                    "guessing": {(i, side): entry["guessing"][n][sheet.game.neighbours(sheet.setup, n)[k]]
                                 for i, n in enumerate(players) for k, side in enumerate(self.SIDES)},
                    "made": {i: made[n] for i, n in enumerate(players) if n in made}}
        clues = {}
        for i, n in enumerate(players):
            by_value: dict[int, list[str]] = {}
            for word, value in entry["clues"][n].items():
                by_value.setdefault(value, []).append(word)
            slots = []
            for value in sheet.game.engine().CLUE_VALUES:
                slots.append(by_value.get(value, [""]).pop(0) if by_value.get(value) else "")
            clues[i] = slots
        guesses = {(i, side): "\n".join(entry["guesses"].get(n, {}).get(
            sheet.game.neighbours(sheet.setup, n)[k], []))
                   for i, n in enumerate(players) for k, side in enumerate(self.SIDES)}
        return {"mode": "words", "clues": clues, "guesses": guesses}

    def parse(self, sheet, form):
        players, game = sheet.players, sheet.game
        mode = "words" if form.get("mode") == "words" else "paper"
        if mode == "paper":
            guessing, made = {}, {}
            for i, name in enumerate(players):
                for k, side in enumerate(self.SIDES):
                    score = _number(form.get(f"g{i}_{side}"), N_("A guessing score is a whole number."))
                    if score is not None:
                        guessing[(i, side)] = score
                count = _number((form.get(f"made{i}") or "").strip(), N_("A number of guesses is a whole number."))
                if count is not None:
                    made[i] = count
            values = {"mode": mode, "guessing": guessing, "made": made}
            entry: dict[str, Any] = {"guessing": {
                name: {game.neighbours(sheet.setup, name)[k]: guessing[(i, side)]
                       for k, side in enumerate(self.SIDES) if (i, side) in guessing}
                for i, name in enumerate(players)}}
            if made:
                require(len(made) == len(players),
                        N_("Give how many guesses every player wrote, or leave them all empty."))
                entry["guesses_made"] = {players[i]: c for i, c in made.items()}
            return entry, values
        slots = game.engine().CLUE_VALUES
        clues, guesses = {}, {}
        for i, name in enumerate(players):
            clues[i] = [(form.get(f"clue{i}_{s}") or "").strip() for s in range(len(slots))]
            for side in self.SIDES:
                guesses[(i, side)] = form.get(f"guesses{i}_{side}") or ""
        values = {"mode": mode, "clues": clues, "guesses": guesses}
        entry = {
            "clues": {name: {w: v for w, v in zip(clues[i], slots) if w} for i, name in enumerate(players)},
            "guesses": {name: {game.neighbours(sheet.setup, name)[k]: _words(guesses[(i, side)])
                               for k, side in enumerate(self.SIDES)} for i, name in enumerate(players)},
        }
        return entry, values


def _words(text: str) -> list[str]:
    """Guesses typed one per line (or separated by commas)."""
    return [w.strip() for line in text.splitlines() for w in line.split(",") if w.strip()]


FORMS = {"dixit": DixitForm(), "rorschach": RorschachForm(), "rorschach-teams": RorschachTeamsForm(),
         "doodles": DoodlesForm(), "inkling": InklingForm()}


def _form(sheet: Sheet):
    return FORMS[sheet.setup.game]


# --- the pages ----------------------------------------------------------------------------------


def _my_sheets() -> list[Sheet]:
    """The sheets this device can edit (it holds their cookies), the latest first."""
    found = []
    names = [n for n in request.cookies if n.startswith(sheetlib.COOKIE_PREFIX)]
    for name in names[:MAX_COOKIES]:
        token = request.cookies[name]
        try:
            sheet = store().get(name[len(sheetlib.COOKIE_PREFIX):])
        except (NoSuchSheet, RuleError):
            continue
        if sheet.is_editor(token):
            found.append(sheet)
    found.sort(key=lambda s: s.updated, reverse=True)
    return found[:MAX_LISTED]


@bp.get("")
def start():
    return render_template("score/start.html", games=sheetlib.GAMES, mine=_my_sheets())


@bp.route("/new/<game>", methods=["GET", "POST"])
def new(game):
    if game not in sheetlib.GAMES:
        return render_template("message.html", title=gettext("Score only"),
                               message=gettext("The helper does not score that game.")), 404
    g = sheetlib.GAMES[game]
    if request.method == "GET":
        return render_template("score/new.html", game=g, names=[""] * g.max_players,
                               form_options={}, teams={}, **_setup_context(g))
    if g.teams:
        # Names typed in each team's column; the players are black's, then white's.
        columns = {t: [n.strip() for n in request.form.getlist(t)] for t in ("black", "white")}
        teams = {}
        for team, column in columns.items():
            for name in column:
                if name:
                    # A name typed in both columns stays where it was first typed; the duplicate check
                    # below still names it.
                    teams.setdefault(" ".join(name.split()), team)
        players = [n for t in ("black", "white") for n in columns[t] if n]
        shown = {t: (c + [""] * TEAM_SLOTS)[:max(TEAM_SLOTS, len(c))] for t, c in columns.items()}
    else:
        names = [n.strip() for n in request.form.getlist("name")]
        players = [n for n in names if n]
        teams, shown = None, {}
    options = _options_from_form(game, request.form)
    try:
        code, token = store().create(game, players, teams, options)
    except RuleError as error:
        padded = ([n.strip() for n in request.form.getlist("name")] + [""] * g.max_players)[:g.max_players]
        return render_template("score/new.html", game=g, names=padded, error=rule_sentence(str(error)),
                               form_options=request.form, teams=shown, **_setup_context(g)), 400
    response = redirect(url_for("helper.sheet", code=code), code=303)
    _set_cookie(response, code, token)
    return response


def _setup_context(g) -> dict:
    if g.name == "rorschach":
        return {"dice": g.engine().COLOURS}
    return {}


def _options_from_form(game: str, form: MultiDict) -> dict:
    if game == "dixit":
        cap = form.get("bonus_cap", "")
        return {"bonus": form.get("bonus", "always"), "end_at_30": form.get("end_at_30") == "on",
                "bonus_cap": 3 if cap == "3" else None}
    if game == "rorschach-teams":
        return {"first_test_team": form.get("first_test_team", "black")}
    if game == "rorschach":
        names = form.getlist("name")
        if not any(f"colour{i}" in form for i in range(len(names))):
            return {}  # no choice made: the dice go round in seating order
        return {"colours": [form.get(f"colour{i}", "") for i, n in enumerate(names) if n.strip()]}
    if game == "doodles":
        raw = form.get("rounds", "8").strip()
        return {"rounds": int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 6 else raw}
    return {}


def _sheet_page(sheet: Sheet, status: int = 200, error: str | None = None, values=None, notice=None):
    editor = sheet.is_editor(_token(sheet.code))
    form = _form(sheet)
    if values is None and not sheet.over:
        values = form.defaults(sheet)
    context = {"sheet": sheet, "game": sheet.game, "editor": editor, "error": error, "notice": notice,
               "values": values or {}, "form_template": form.template, "number": len(sheet.rounds) + 1,
               "action": url_for("helper.add_round", code=sheet.code), "editing": None}
    context.update(form.context(sheet, values or {}))
    totals = sheet.totals
    context["track"] = [{"side": side, "name": sheet.game.side_label(sheet.setup, side), "score": totals[side]}
                        for i, side in enumerate(sheet.game.sides(sheet.setup))]
    if editor:
        context["key_link"] = url_for("helper.key", code=sheet.code, token=_token(sheet.code), _external=True)
    # The editing page holds the editing link: no cache keeps it.
    return render_template("score/sheet.html", **context), status, {"Cache-Control": "no-store"}


@bp.get("/<code>")
def sheet(code):
    return _sheet_page(store().get(code))


@bp.post("/<code>/rounds")
def add_round(code):
    sheet = store().get(code)
    if not sheet.is_editor(_token(sheet.code)):
        return _sheet_page(sheet, 403, NOT_EDITOR)
    entry = values = None
    try:
        entry, values = _form(sheet).parse(sheet, request.form)
        store().add_round(sheet.code, entry, _version())
    except StaleSheet:
        return _sheet_page(store().get(code), 409, notice=STALE)
    except RuleError as error:
        return _sheet_page(sheet, 400, rule_sentence(str(error)), values)
    return redirect(url_for("helper.sheet", code=sheet.code), code=303)


def _round_page(sheet: Sheet, number: int, status=200, error=None, values=None, notice=None):
    if not 1 <= number <= len(sheet.rounds):
        return render_template("message.html", title=gettext("No such round"),
                               message=gettext("This sheet has no round %(number)s.", number=number)), 404
    form = _form(sheet)
    if values is None:
        values = form.values(sheet, sheet.rounds[number - 1].entry)
    context = {"sheet": sheet, "game": sheet.game, "editor": True, "error": error, "notice": notice,
               "values": values, "form_template": form.template, "number": number,
               "action": url_for("helper.edit_round", code=sheet.code, number=number),
               "editing": sheet.rounds[number - 1]}
    context.update(form.context(sheet, values))
    return render_template("score/round.html", **context), status


@bp.route("/<code>/rounds/<int:number>", methods=["GET", "POST"])
def edit_round(code, number):
    sheet = store().get(code)
    if not sheet.is_editor(_token(sheet.code)):
        return _sheet_page(sheet, 403, NOT_EDITOR)
    if request.method == "GET":
        return _round_page(sheet, number)
    values = None
    try:
        entry, values = _form(sheet).parse(sheet, request.form)
        store().edit_round(sheet.code, number, entry, _version())
    except StaleSheet:
        return _round_page(store().get(code), number, 409, notice=STALE)
    except RuleError as error:
        return _round_page(sheet, number, 400, rule_sentence(str(error)), values)
    return redirect(url_for("helper.sheet", code=sheet.code), code=303)


@bp.post("/<code>/undo")
def undo(code):
    sheet = store().get(code)
    if not sheet.is_editor(_token(sheet.code)):
        return _sheet_page(sheet, 403, NOT_EDITOR)
    try:
        store().undo(sheet.code, _version())
    except StaleSheet:
        return _sheet_page(store().get(code), 409, notice=STALE)
    except RuleError as error:
        return _sheet_page(sheet, 400, rule_sentence(str(error)))
    return redirect(url_for("helper.sheet", code=sheet.code), code=303)


@bp.get("/<code>/key/<token>")
def key(code, token):
    """The sheet's editing link: opens it for editing on this device too."""
    sheet = store().get(code)
    if not sheet.is_editor(token):
        return render_template("message.html", title=gettext("Not the editing link"),
                               message=gettext("This link does not open this score sheet for editing.")), 403
    response = redirect(url_for("helper.sheet", code=sheet.code), code=303)
    _set_cookie(response, sheet.code, token)
    return response


def _filename(sheet: Sheet, ext: str) -> str:
    return f"{sheet.setup.game}-{sheet.code}.{ext}"


@bp.get("/<code>/export.json")
def export_json(code):
    sheet = store().get(code)
    response = current_app.response_class(
        current_app.json.dumps(sheetlib.export(sheet)), mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="{_filename(sheet, "json")}"'
    return response


@bp.get("/<code>/export.csv")
def export_csv(code):
    sheet = store().get(code)
    response = Response(sheetlib.export_csv(sheet), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{_filename(sheet, "csv")}"'
    return response
