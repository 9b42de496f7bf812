"""Photos as the rooms keep them: taken into a slot, stored beside the log, shown by the game's rule.

**Taking.** :func:`take` checks the upload (``images.py``, in a native thread under gevent: Pillow
lets go of the GIL while it decodes and encodes), then records ``{"type": "photo", "slot", "digest"}``
in the room's log by whoever the token names, in one write job that also stores the image
(:func:`keeper`). The entry goes through the room's replay like any other (``companion/rooms/room.py``
asks the game's ``photos`` whether the taker may take the slot now), so a photo is refused or kept
by the room as it is at the moment it is recorded. The entry carries no bytes: it moves the room's
version on, so every screen's long poll wakes, ETags and 304s work unchanged, and the view that
follows shows the photo. A room keeps at most :data:`MAX_PHOTOS` photos and :data:`MAX_BYTES` of
them; a new photo in a slot replaces the old one. A closed table keeps none (``Rooms`` drops them
as it records the close), and a deleted room takes its photos with it (the stores).

**Showing.** :func:`view_of` is what each view says of photos (``view["photos"]``): the slots the
viewer may take now with where to send the photo, and the slots the viewer may see now with the
address of the image (None: no photo yet), in the game's order, and whose paper each is. A viewer
sees a slot when the game says so, or when they took its photo; nothing else in any view tells that
a photo exists. :func:`visible_photo` answers ``GET /rooms/<code>/photos/<slot>`` by the same rule.

Image addresses carry the first hex digits of the image's SHA-256 (``?v=``), so one address is
one image and the browser may keep it (``private``, a day); and the role the page shows
(``&as=host``), since one tablet may be both the host screen and a player's phone (the same choice
``X-Companion-Role`` makes for the pages' scripts), or, in the host's privacy cover, the host asking
for the player without a phone it shows (``&as=host&for=<seat>``). They are written as paths from the site's root
(the views are made without Flask, ``companion/web/direct.py``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from games.base import HOST, PHOTO_SLOT, RuleError, is_number, photos_of, takes_photos

from companion.live import cooperative
from companion.photos import images
from companion.rooms.room import game_viewer
from companion.storage.store import Store, Writer

MAX_PHOTOS = 200  # photos a room keeps: one per seat for twenty rounds of a full table, and more
MAX_BYTES = 32 * 1024 * 1024  # … and their bytes, all together
VERSION_DIGITS = 16  # hex digits of the image's SHA-256 in its address


def valid_slot(slot: Any) -> bool:
    """Whether ``slot`` is written as a slot id can be (``games.base.PHOTO_SLOT``)."""
    return isinstance(slot, str) and len(slot) <= 128 and PHOTO_SLOT.fullmatch(slot) is not None


def upload_path(code: str, slot: str) -> str:
    """Where a photo for ``slot`` is sent (``POST``)."""
    return f"/api/v1/rooms/{code}/photos/{slot}"


def image_path(code: str, slot: str, digest: str, role: str, played_for: int | None = None) -> str:
    """The address of the image in ``slot``, as ``role`` ("host", "seat" or "table") sees it; with
    ``played_for``, as the host's privacy cover asks for it, for that seat (``as=host&for=<seat>``)."""
    shown = f"as={role}" if played_for is None else f"as=host&for={played_for}"
    return f"/rooms/{code}/photos/{slot}?v={digest[:VERSION_DIGITS]}&{shown}"


def role_name(viewer: Any) -> str:
    """The role a viewer's page shows: ``host``, ``seat`` or ``table``."""
    return "host" if viewer == HOST else "seat" if is_number(viewer) else "table"


def view_of(room, viewer, on_the_tablet: bool = False) -> dict | None:
    """What ``viewer`` may take and see of the room's photos now (None for a game without photos
    or before the start): ``take`` (slot -> where to send it), ``see`` (slot -> the image's
    address, or None: no photo yet), ``seats`` (slot -> whose paper it is; None: the table's).
    ``on_the_tablet``: the seat, a player without a phone, is shown in the host's privacy cover,
    whose page fetches the images with the host's credential, for her."""
    if not room.started or not takes_photos(room.engine):
        return None
    out: dict[str, dict] = {"take": {}, "see": {}, "seats": {}}
    if room.ended:
        return out
    photos = photos_of(room.engine, room.state, game_viewer(room, viewer))  # a seat sitting out: the table
    kept = {slot: (taker, digest) for slot, taker, digest in room.photos}
    role = role_name(viewer)
    for each in photos.slots:
        slot = each.slot
        taken = kept.get(slot)
        mine = taken is not None and viewer is not None and taken[0] == viewer
        if slot in photos.take:
            out["take"][slot] = upload_path(room.code, slot)
        if slot in photos.see or mine:
            out["see"][slot] = (image_path(room.code, slot, taken[1], role, viewer if on_the_tablet else None)
                                if taken else None)
        if slot in out["take"] or slot in out["see"]:
            out["seats"][slot] = each.seat
    return out


def visible_photo(store: Store, room, viewer, slot: str, version: str | None):
    """The stored photo in ``slot`` when ``viewer`` may see it now (and, with ``version``, when it is
    that image), else None: a photo nobody may show yet answers exactly as one never taken."""
    if not valid_slot(slot):
        return None
    view = view_of(room, viewer)
    if not view or not view["see"].get(slot):
        return None
    digest = next(d for s, _, d in room.photos if s == slot)
    if version is not None and version != digest[:VERSION_DIGITS]:
        return None
    photo = store.photo(room.code, slot)
    if photo is None or photo.digest != digest:  # replaced since the room was read: its new address
        return None
    return photo


def keeper(checked: images.Checked, digest: str) -> Callable:
    """The part of the write job that stores the image, run once the room has accepted the entry:
    within the room's bounds, in place of the slot's old photo."""

    def keep(tx: Writer, entry: dict, now: float) -> None:
        slot = entry["slot"]
        count, size = tx.photo_usage(except_slot=slot)
        if count + 1 > MAX_PHOTOS or size + len(checked.data) > MAX_BYTES:
            raise RuleError("This table keeps no more photos.")
        seat = entry["by"] if is_number(entry["by"]) else None
        tx.put_photo(slot, seat, checked.mime, digest, checked.data, now)

    return keep


def take(rooms, code: str, hashed: str, slot: str, data: bytes, seat: int | None = None,
         move_id: str | None = None, acted_on: int | None = None):
    """Check ``data`` and record it as the photo in ``slot`` by whoever the token (its hash) names
    (for ``seat``: the host screen taking it for a player without a phone); returns the room after
    it and that actor (the RuleError, NotSeated or NoSuchRoom otherwise). ``move_id`` and
    ``acted_on`` as for any move sent again (``Rooms.act_with_token``)."""
    checked = cooperative.blocking(images.check_photo, data)
    digest = hashlib.sha256(checked.data).hexdigest()
    entry = {"type": "photo", "slot": slot, "digest": digest, **({} if seat is None else {"seat": seat})}
    return rooms.act_with_token(code, hashed, entry, beside=keeper(checked, digest), move_id=move_id, acted_on=acted_on)
