"""The score-only helper's pages: a game played with the box alone, scored on the host tablet.

Plain HTML forms (no script needed): positions, blots, numbers and words are radio buttons drawn
as big buttons, so a round is entered by taps. Every form carries the sheet's version, so a
double tap records nothing twice. Only the tablet that started a sheet (its cookie ``tcs_<code>``,
like the host's) can change it; anyone with the address can watch it and export it.

Nothing here knows a game: each game's round form is the template its ``SCREENS`` declares for the
``score_round`` slot (``companion/web/screens.py``), whose fields are named by the JSON paths of the
game's ``SCORING.Round`` model and read back with that model (``companion/web/forms.py``); what the
form offers (positions, blots, images, who is next) comes from ``SCORING.form``; its optional
``score_board`` shows more than the points (a token table), ``score_options`` the sheet options in
the game's own taps (else the generic ones), ``score_player`` fields beside each name on the setup
page (a die per player: fields named ``o.<list>.<row>``, so the list follows the seating order and
rows left blank drop out), and ``score_team`` a team's name in the page's language. A game whose
form offers several ways to enter a round (``offer["modes"]``) gets the one the page asks for
(``?mode=`` or the form's ``mode`` field) as ``mode``.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for
from flask_babel import gettext, lazy_gettext, ngettext
from werkzeug.datastructures import MultiDict

from games import GAMES
from games.base import RuleError

from companion.scoresheet import sheet as sheetlib
from companion.scoresheet.paging import form_pages
from companion.scoresheet.sheet import NoSuchSheet, Sheet, Sheets, StaleSheet
from companion.web import forms, identity, limits
from companion.web.i18n import say

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
    # Sentences a sheet keeps as data (its undo label) said in the page's language; the round's
    # form a step at a time (paging.py).
    return {"say": say, "form_pages": form_pages}


@bp.app_context_processor
def _score_only_games():
    # The home page offers a "score only" start for each game.
    return {"score_only_games": [(name, engine.TITLE) for name, engine in GAMES.items()]}


@bp.errorhandler(NoSuchSheet)
def _no_sheet(error):
    # A sheet's code is looked up like a room's: a wrong one counts against the same budget.
    if not limits.lookups().missed():
        return limits.too_many()
    # A sheet left idle is deleted with the idle rooms (issue 29): a missing sheet may be one of
    # those, which nothing remembers, so the page says how long a sheet is kept.
    hours = max(1, round(current_app.extensions["rooms"].idle_seconds / 3600))
    return render_template("message.html", title=gettext("No such score sheet"),
                           message=ngettext("There is no score sheet with the code %(code)s. Check the address, "
                                            "or start a new sheet: a sheet is deleted %(num)s hour after its "
                                            "last change.",
                                            "There is no score sheet with the code %(code)s. Check the address, "
                                            "or start a new sheet: a sheet is deleted %(num)s hours after its "
                                            "last change.", hours, code=error)), 404


@bp.errorhandler(RuleError)
def _unreadable(error):
    # Refusals of what was entered are caught where they happen; one that reaches here came from
    # replaying a stored sheet that the rules no longer accept.
    current_app.logger.error("a score sheet could not be replayed: %s", error)
    return render_template("message.html", title=gettext("This sheet cannot be read"),
                           message=gettext("This score sheet could not be read back: %(reason)s",
                                           reason=say(error))), 500


def _token(code: str) -> str | None:
    return request.cookies.get(sheetlib.cookie_name(code))


def _set_cookie(response, code: str, token: str) -> None:
    # As long as the host's cookie: sheets are cleared with idle rooms, so a longer one would outlive them.
    response.set_cookie(sheetlib.cookie_name(code), token, max_age=identity.COOKIE_AGE,
                        httponly=True, samesite="Lax", secure=request.is_secure)


def _version() -> int | None:
    raw = request.form.get("version", "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else None


def _round_from_form(sheet: Sheet) -> dict:
    """The round the form holds, in the words of the game's ``SCORING.Round``."""
    return forms.parse(sheetlib.scoring(sheet.game).Round, request.form, sheet.players)


def _form_context(sheet: Sheet, values: dict | None, number: int, editing) -> dict:
    scoring = sheetlib.scoring(sheet.game)
    standing = sheet.standings
    if editing is not None:  # the form of a past round offers what that round did
        standing = scoring.standings(sheet.table, [r.score for r in sheet.rounds[:number - 1]])
    offer = scoring.form(sheet.table, standing)
    modes = list(offer.get("modes", ()))
    asked = request.values.get("mode")
    return {"sheet": sheet, "game": sheet.game, "scoring": scoring, "offer": offer, "number": number,
            "mode": asked if asked in modes else None,
            "values": values if values is not None else dict(offer.get("defaults", {})),
            "editing": editing,
            "round_fields": forms.round_fields(scoring.Round),
            "rounds_total": standing.rounds_total if standing else None}


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
    return render_template("score/start.html", games=GAMES, mine=_my_sheets())


def _new_context(game: str) -> dict:
    scoring = sheetlib.scoring(game)
    engine = GAMES[game]
    return {"game": game, "title": engine.TITLE, "scoring": scoring,
            "option_fields": forms.option_fields(scoring.SheetOptions),
            "option_schema": forms.schema(scoring.SheetOptions),
            "least": scoring.players[0], "most": scoring.players[1]}


@bp.route("/new/<game>", methods=["GET", "POST"])
def new(game):
    if game not in GAMES:
        return render_template("message.html", title=gettext("Score only"),
                               message=gettext("The helper does not score that game.")), 404
    scoring = sheetlib.scoring(game)
    context = _new_context(game)
    slots = max(TEAM_SLOTS, context["most"])
    if request.method == "GET":
        names, teams, chosen = _players_after(request.args.get("after"), game)
        return render_template("score/new.html", names=(names + [""] * slots)[:max(slots, len(names))],
                               chosen=chosen, teams=teams, **context)
    teams, shown = None, {}
    if scoring.teams:
        # Names typed in each team's column; the players are the first team's, then the second's.
        columns = {t: [n.strip() for n in request.form.getlist("team." + t)] for t in scoring.teams}
        teams = {}
        for team, column in columns.items():
            for name in column:
                if name:  # a name typed in both columns stays where it was first typed
                    teams.setdefault(" ".join(name.split()), team)
        players = [n for t in scoring.teams for n in columns[t] if n]
        shown = {t: (c + [""] * TEAM_SLOTS)[:max(TEAM_SLOTS, len(c))] for t, c in columns.items()}
    else:
        players = [n.strip() for n in request.form.getlist("name") if n.strip()]
    try:
        options = forms.parse(scoring.SheetOptions, _named_rows(request.form), players, prefix="o.")
        code, token = store().create(game, players, teams, options)
    except RuleError as error:
        typed = [n.strip() for n in request.form.getlist("name")][:slots]
        return render_template("score/new.html", names=typed + [""] * (slots - len(typed)), error=say(error),
                               chosen=request.form, teams=shown, **context), 400
    response = redirect(url_for("helper.sheet", code=code), code=303)
    _set_cookie(response, code, token)
    return response


def _players_after(code: str | None, game: str) -> tuple[list[str], dict, dict]:
    """The players of the sheet ``code`` (the game just played at this table), to fill in the next
    game's setup: names in seating order, their teams for a game in teams, and the options as the
    setup form names them when the same game is played again. Nothing when there is no such sheet."""
    if not code:
        return [], {}, {}
    try:
        before = store().get(code)
    except NoSuchSheet:
        return [], {}, {}
    side, players = sheetlib.scoring(game), list(before.players)
    chosen = {}
    if before.game == game:  # again: its options as they were (a player's own choice is typed anew)
        chosen = {f"o.{key}": value for key, value in before.table.options.model_dump(mode="json").items()
                  if not isinstance(value, (dict, list))}
    if not side.teams:
        return players, {}, chosen
    known = before.table.teams or {}
    if set(known.values()) <= set(side.teams) and known:
        columns = {t: [n for n in players if known[n] == t] for t in side.teams}
    else:  # no teams yet: every other player around the table, which the table may change
        columns = {t: players[i::len(side.teams)] for i, t in enumerate(side.teams)}
    return [], {t: (c + [""] * TEAM_SLOTS)[:max(TEAM_SLOTS, len(c))] for t, c in columns.items()}, chosen


def _named_rows(form) -> MultiDict:
    """The setup form without the fields of name rows left blank (``o.colours.3`` is row 3's)."""
    blank = {str(i) for i, name in enumerate(form.getlist("name")) if not name.strip()}
    return MultiDict([(k, v) for k, v in form.items(multi=True)
                      if not (k.startswith("o.") and k.rsplit(".", 1)[-1] in blank)])


def _sheet_page(sheet: Sheet, status: int = 200, error: str | None = None, values=None, notice=None):
    editor = sheet.is_editor(_token(sheet.code))
    context = _form_context(sheet, values, len(sheet.rounds) + 1, None)
    totals = sheet.totals
    context.update(editor=editor, error=error, notice=notice, action=url_for("helper.add_round", code=sheet.code),
                   track=[{"side": side, "name": side, "score": totals[side]} for side in sheet.sides])
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
    values = None
    try:
        values = _round_from_form(sheet)
        store().add_round(sheet.code, values, _version())
    except StaleSheet:
        return _sheet_page(store().get(code), 409, notice=STALE)
    except RuleError as error:
        return _sheet_page(sheet, 400, say(error), values)
    return redirect(url_for("helper.sheet", code=sheet.code), code=303)


def _round_page(sheet: Sheet, number: int, status=200, error=None, values=None, notice=None):
    if not 1 <= number <= len(sheet.rounds):
        return render_template("message.html", title=gettext("No such round"),
                               message=gettext("This sheet has no round %(number)s.", number=number)), 404
    editing = sheet.rounds[number - 1]
    context = _form_context(sheet, values if values is not None else dict(editing.entry), number, editing)
    context.update(editor=True, error=error, notice=notice,
                   action=url_for("helper.edit_round", code=sheet.code, number=number))
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
        values = _round_from_form(sheet)
        store().edit_round(sheet.code, number, values, _version())
    except StaleSheet:
        return _round_page(store().get(code), number, 409, notice=STALE)
    except RuleError as error:
        return _round_page(sheet, number, 400, say(error), values)
    return redirect(url_for("helper.sheet", code=sheet.code), code=303)


def _take_back(code: str, which: str):
    sheet = store().get(code)
    if not sheet.is_editor(_token(sheet.code)):
        return _sheet_page(sheet, 403, NOT_EDITOR)
    try:
        getattr(store(), which)(sheet.code, _version())
    except StaleSheet:
        return _sheet_page(store().get(code), 409, notice=STALE)
    except RuleError as error:
        return _sheet_page(sheet, 400, say(error))
    return redirect(url_for("helper.sheet", code=sheet.code), code=303)


@bp.post("/<code>/undo")
def undo(code):
    return _take_back(code, "undo")


@bp.post("/<code>/redo")
def redo(code):
    return _take_back(code, "redo")


@bp.post("/<code>/end")
def end(code):
    """The table ends the game early (asked first in the page): the rounds entered are final."""
    return _take_back(code, "end")


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
    return f"{sheet.game}-{sheet.code}.{ext}"


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
