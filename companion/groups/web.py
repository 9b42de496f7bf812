"""A group's pages: the host saves the table as a group (or adds tonight to a group this device
keeps), the group's page with its nights, standings and statistics, its exports, and its deletion.

The group's key is its host device's: made when the group is saved, kept in an HttpOnly cookie of
that device (``tcg_<id>``, a year), and shown once as the group's private link
(``/group/<id>/key/<key>``) for another device. The store keeps the key's hash only. Every page
and export of a group asks for the key; a wrong one is refused like a missing one. A group's ids
and keys are long random words (72 and 144 bits): nobody finds one by trying, so no wrong-code
budget is needed, and a refusal says nothing about which groups exist.
"""

from __future__ import annotations

import time

from flask import Blueprint, Response, abort, current_app, redirect, render_template, request, url_for
from datetime import UTC, datetime

from flask_babel import format_date, gettext
from werkzeug.exceptions import HTTPException

from games.base import HOST, RuleError

from companion.groups import export, keep
from companion.storage.store import GroupRow
from companion.web import identity
from companion.web.api import normal_code
from companion.web.i18n import say

bp = Blueprint("groups", __name__)

COOKIE_PREFIX = "tcg_"
COOKIE_AGE = 366 * 24 * 3600
MAX_KEPT = 8  # groups a device lists on the save page (its cookies), at most


@bp.app_template_filter("group_date")
def _group_date(moment: float) -> str:
    """A night's date in the page's language."""
    return format_date(datetime.fromtimestamp(moment, UTC), "medium")


def _store():
    return current_app.extensions["rooms"].store


def _cookie(gid: str) -> str:
    return COOKIE_PREFIX + gid


class NotTheGroupHost(HTTPException):
    """No key, or not this group's: the group's page is its host device's."""

    code = 403


@bp.errorhandler(NotTheGroupHost)
def _not_the_group_host(error):
    return render_template("message.html", title=gettext("A group's page"),
                           message=gettext("This group's page opens on the device that saved it, or with its private link.")), 403


def _group(gid: str) -> keep.Group:
    """Group ``gid`` for the device that holds its key, or refused."""
    if len(gid) > 64:
        raise NotTheGroupHost()
    row = _store().group(gid)
    if not keep.opens(row, request.cookies.get(_cookie(gid))):
        raise NotTheGroupHost()
    group = keep.load(_store(), gid)
    if group is None:
        raise NotTheGroupHost()
    return group


@bp.app_template_global("device_groups")
def kept_rows() -> list[GroupRow]:
    """The groups whose keys this device holds (its cookies), most recently changed first: the
    home page lists them, the save page offers to add tonight to them."""
    found: list[GroupRow] = []
    for name, key in request.cookies.items():
        if name.startswith(COOKIE_PREFIX) and len(found) < MAX_KEPT:
            row = _store().group(name[len(COOKIE_PREFIX):][:64])
            if row is not None and keep.opens(row, key):
                found.append(row)
    return sorted(found, key=lambda row: -row.updated)


def _kept_groups():
    """The groups this device holds, with their nights."""
    return [g for g in (keep.load(_store(), row.id) for row in kept_rows()) if g is not None]


def _hosts_room(code: str):
    rooms = current_app.extensions["rooms"]
    room = rooms.get(normal_code(code))
    if identity.role(room, "host") != HOST:
        abort(Response(render_template("message.html", title=gettext("Save as a group"),
                                       message=gettext("Only the host can save the table as a group.")), 403))
    info = rooms.store.room(room.code)
    return room, (info[2] if info else 0.0)


@bp.get("/host/<code>/group")
def save_page(code, error=None, status=200):
    room, created = _hosts_room(code)
    groups = [(g, keep.new_names(g, room)) for g in _kept_groups()]
    games = keep.night_of(room, created)["games"]
    return render_template("group_save.html", room=room, games=games, groups=groups, error=error), status


@bp.post("/host/<code>/group")
def save(code):
    room, created = _hosts_room(code)
    chosen = request.form.get("group", "")[:64]
    group = None
    if chosen:
        row = _store().group(chosen)
        if not keep.opens(row, request.cookies.get(_cookie(chosen))):
            return save_page(code, error=gettext(keep.GROUP_GONE), status=400)
        group = row
    try:
        gid, key = keep.save(_store(), room, created, time.time(), request.form.get("name", ""), group)
    except RuleError as error:
        return save_page(code, error=say(error), status=400)
    response = redirect(url_for("groups.page", gid=gid, saved=1))
    if key is not None:
        response.set_cookie(_cookie(gid), key, max_age=COOKIE_AGE, httponly=True, samesite="Lax",
                            secure=request.is_secure)
    return response


@bp.get("/group/<gid>/key/<key>")
def key_link(gid, key):
    """The group's private link: opens its page on this device too."""
    row = _store().group(gid[:64])
    if not keep.opens(row, key[:200]):
        raise NotTheGroupHost()
    response = redirect(url_for("groups.page", gid=gid))
    response.set_cookie(_cookie(gid), key, max_age=COOKIE_AGE, httponly=True, samesite="Lax", secure=request.is_secure)
    return response


@bp.get("/group/<gid>")
def page(gid):
    group = _group(gid)
    link = url_for("groups.key_link", gid=gid, key=request.cookies[_cookie(gid)], _external=True)
    response = current_app.make_response(render_template(
        "group.html", group=group, wins=keep.wins(group), statistics=keep.statistics(group),
        link=link, saved=request.args.get("saved") == "1"))
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def _download(body: str, mimetype: str, filename: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/group/<gid>/group.json")
def as_json(gid):
    return _download(current_app.json.dumps(export.as_json(_group(gid))), "application/json", "group.json")


@bp.get("/group/<gid>/group.csv")
def as_csv(gid):
    return _download(export.as_csv(_group(gid)), "text/csv", "group.csv")


@bp.get("/group/<gid>/night/<int:night>/game/<int:number>/bgstats.json")
def bg_stats(gid, night, number):
    play = export.bg_stats(_group(gid), night, number)
    if play is None:
        abort(404)
    return _download(current_app.json.dumps(play), "application/json", f"play-{night}-{number}.bgsplay.json")


@bp.post("/group/<gid>/delete")
def delete(gid):
    group = _group(gid)
    _store().delete_group(group.row.id)
    response = current_app.make_response(render_template(
        "message.html", title=gettext("Group deleted"),
        message=gettext("The group %(name)s and all its nights are deleted.", name=group.row.name)))
    response.delete_cookie(_cookie(gid))
    return response
