"""Photos of paper over HTTP: a phone sends one, the screens show it (``companion/photos/``).

- ``POST /api/v1/rooms/<code>/photos/<slot>``: the image, as the body (``Content-Type: image/jpeg``,
  ``image/png`` or ``image/webp``) or as the ``photo`` field of a multipart form; the credential as
  for actions (a seat's bearer token or cookie, ``X-Companion-Role`` choosing the cookie). Refused
  with a sentence, before the image is read, when the slot is not the sender's to take now (the
  room's own rule, asked again when the photo is recorded). A multipart form is a form another
  site could post: it must come from our own pages (``web/layers.py``); an image body cannot be
  sent across sites without a CORS preflight, which this server never grants. Answered like an
  action: the sender's new view.
- ``GET /rooms/<code>/photos/<slot>``: the image, to whoever may see it now (``?as=`` the role the
  page shows, ``?v=`` the image it names); anyone else, and anyone asking for a slot with no
  photo, gets the same 404 with the same sentence.
"""

from __future__ import annotations

import time

from flask import Blueprint, Response, current_app, jsonify, request
from flask_babel import gettext, lazy_gettext

from games.base import HOST, RuleError

from companion.photos import images
from companion.photos import service as photos
from companion.rooms.room import apply_entry, made_digest, moved_on, token_hash
from companion.rooms.service import MovedOn, NotSeated
from companion.web import api, identity

bp = Blueprint("photos", __name__)
bp.register_error_handler(RuleError, api._rule_error)
bp.register_error_handler(NotSeated, api._not_seated)
bp.register_error_handler(MovedOn, api._moved_on)

IMAGE_TYPES = ("image/jpeg", "image/png", "image/webp", "application/octet-stream")
FORM_OVERHEAD = 16 * 1024  # what a multipart form adds around the photo, at most
CACHED = "private, max-age=86400, immutable"  # an address with ?v= names one image, for good


def rooms():
    return current_app.extensions["rooms"]


@bp.post("/api/v1/rooms/<code>/photos/<slot>")
def take(code, slot):
    """Keep the photo sent as the one in ``slot``; the sender's view after it."""
    code = api.normal_code(code)
    room = rooms().get(code)  # an unknown room is said first
    token = identity.presented_token(code)
    if not token:
        raise api.ApiError(401, lazy_gettext("Join the table first: scan the code on the host screen."))
    hashed = token_hash(token)
    who = room.role_of(hashed)
    if who is None or isinstance(who, tuple):
        raise NotSeated(who)
    # ``?for=<seat>``: the host screen photographs the paper of a player without a phone.
    played_for = request.args.get("for")
    seat = None if played_for is None else identity.played_for(room, who, played_for)
    # A photo kept while the phone was offline comes again with its id and the screen it was taken
    # on: the same photo is recorded once, and never into a step the table has left since.
    move_id, acted_on = api.sent_again(request.environ)
    # The room's own rule, before the image is read: a slot that is not the sender's to take now
    # costs no decoding. (The placeholder digest only fills the entry's field.) A photo sent again
    # that the room already has (its move id), or whose step the table has left, is the write
    # job's to answer (the first answer, or "the table moved on"), as for any move sent again.
    entry = {"type": "photo", "slot": slot, "digest": "0" * 64, "by": who, **({} if seat is None else {"seat": seat})}
    if made_digest(room, entry["by"], move_id) is None and not moved_on(room, acted_on):
        apply_entry(room, entry, time.time())
    room, who = photos.take(rooms(), code, hashed, slot, _upload(), seat, move_id=move_id, acted_on=acted_on)
    body = api.view_body(rooms(), room, who if seat is None else seat)
    return Response(body, 200, headers=api.view_headers(room))


def _upload() -> bytes:
    """The image the request carries (its body, or a form's ``photo`` field), at most
    ``images.MAX_UPLOAD_BYTES``; anything else is refused with a sentence."""
    kind = (request.mimetype or "").lower()
    if request.content_length is not None and request.content_length > images.MAX_UPLOAD_BYTES + FORM_OVERHEAD:
        raise images.too_large()
    if kind == "multipart/form-data":
        sent = request.files.get("photo")
        if sent is None:
            raise images.not_a_photo()
        data = sent.stream.read(images.MAX_UPLOAD_BYTES + 1)
    elif kind in IMAGE_TYPES:
        data = request.stream.read(images.MAX_UPLOAD_BYTES + 1)
    else:
        raise images.not_a_photo()
    if len(data) > images.MAX_UPLOAD_BYTES:
        raise images.too_large()
    return data


@bp.get("/rooms/<code>/photos/<slot>")
def image(code, slot):
    """The image in ``slot``, when the viewer may see it now; the same 404 otherwise."""
    room = rooms().get(api.normal_code(code))
    version = request.args.get("v")
    viewer = _viewer(room, request.args.get("as"), request.args.get("for"))
    photo = photos.visible_photo(rooms().store, room, viewer, slot, version)
    if photo is None:
        response = jsonify(error=gettext("There is no such photo here."))
        response.status_code = 404
        response.headers["Cache-Control"] = "no-store"
        return response
    response = Response(photo.data, mimetype=photo.mime)
    response.headers["Cache-Control"] = CACHED if version else "private, no-cache"
    response.set_etag(photo.digest)
    return response.make_conditional(request)


def _viewer(room, shown_as: str | None, played_for: str | None = None):
    """Who asks, as the page showing the image: ``as=host`` only with the host's cookie or token,
    ``as=seat`` only as a seat, ``as=table`` as nobody; without it, the credential decides. With
    ``for=<seat>`` the host's privacy cover asks as that seat, a player without a phone."""
    if shown_as == "table":
        return None
    hint = shown_as if shown_as in ("host", "seat") else None
    viewer = identity.role(room, hint)
    if isinstance(viewer, tuple) or hint is not None and (hint == "host") != (viewer == HOST):
        return None  # a phone still waiting for the host, or a role the credential does not have
    if played_for is not None:
        try:
            return identity.played_for(room, viewer, played_for)
        except RuleError:
            return None  # answered as a photo never taken
    return viewer
