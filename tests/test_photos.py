"""Photos of paper (issue 18, section 3): the server keeps only a clean JPEG of what it could decode,
keeps it with the room, shows it when the game's rule allows and never before, and says nothing of
it to anyone else; played through the API with High Card (tests/toy_game.py), whose rule is: while
picking, each seat may photograph its card (``card:<round>:<seat>``), everyone sees them once the
round is revealed; the host may photograph the table (``table:<round>``), which everyone sees."""

from __future__ import annotations

import io
import re
import struct
import zlib

import pytest
from PIL import Image, PngImagePlugin

from companion.photos import images, service as photo_service
from companion.web import limits
from games import GAMES
from games.base import HOST, TABLE, NO_PHOTOS, Photos, PhotoSlot, Player, photos_of

from tests import hostile_photos, toy_game
from tests.test_toy_game import toy  # noqa: F401 - High Card registered for a test

GPS = 0x8825  # the EXIF pointer to the GPS coordinates


def jpeg(size=(320, 240), colour=(200, 40, 30), exif=None, quality=90, **params) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, "JPEG", quality=quality, **({"exif": exif} if exif else {}), **params)
    return out.getvalue()


def phone_exif(orientation=1) -> Image.Exif:
    """What a phone writes: where (GPS), with what, and how it was held."""
    exif = Image.Exif()
    exif[0x010F], exif[0x0110], exif[0x0112] = "PhoneMaker", "Phone 15", orientation
    exif[GPS] = {1: "N", 2: (45.0, 27.0, 51.0), 3: "E", 4: (9.0, 11.0, 26.0)}
    return exif


def stored(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


# --- the image checks -----------------------------------------------------------------------------


def test_a_phone_photo_is_kept_without_its_gps_or_any_other_metadata():
    sent = jpeg(exif=phone_exif(), comment=b"taken at home", icc_profile=b"")
    assert Image.open(io.BytesIO(sent)).getexif().get_ifd(GPS)  # the upload has them
    kept = images.check_photo(sent)
    image = stored(kept.data)
    assert image.format == "JPEG" and kept.mime == "image/jpeg"
    assert dict(image.getexif()) == {} and image.getexif().get_ifd(GPS) == {}
    assert not {"exif", "xmp", "icc_profile", "comment", "photoshop"} & set(image.info)
    for trace in (b"Exif", b"PhoneMaker", b"Phone 15", b"taken at home", b"http://ns.adobe.com/xap"):
        assert trace not in kept.data
    assert image.getpixel((10, 10)) == pytest.approx((200, 40, 30), abs=6)


def test_the_photo_is_turned_upright_by_its_orientation_then_the_tag_is_gone():
    kept = images.check_photo(jpeg(size=(320, 240), exif=phone_exif(orientation=6)))
    assert (kept.width, kept.height) == (240, 320) == stored(kept.data).size


def test_png_and_webp_are_taken_and_kept_as_jpeg_with_transparency_on_white():
    png = io.BytesIO()
    text = PngImagePlugin.PngInfo()
    text.add_text("Location", "45.46N 9.19E")
    Image.new("RGBA", (64, 48), (0, 0, 0, 0)).save(png, "PNG", pnginfo=text)
    kept = images.check_photo(png.getvalue())
    assert stored(kept.data).getpixel((5, 5)) == pytest.approx((255, 255, 255), abs=3)
    assert b"45.46N" not in kept.data
    webp = io.BytesIO()
    Image.new("RGB", (64, 48), (0, 90, 200)).save(webp, "WEBP", exif=phone_exif().tobytes())
    kept = images.check_photo(webp.getvalue())
    assert stored(kept.data).format == "JPEG" and b"PhoneMaker" not in kept.data


def test_a_large_photo_is_scaled_down_and_kept_within_its_bounds():
    kept = images.check_photo(jpeg(size=(2048, 1536), quality=75))
    assert max(kept.width, kept.height) <= images.STORED_SIDE and len(kept.data) <= images.STORED_BYTES
    assert kept.width / kept.height == pytest.approx(4 / 3, abs=0.01)


def png(width: int, height: int, rows: int = 1, bit_depth: int = 8, colour_type: int = 2) -> bytes:
    """A PNG whose header says ``width`` x ``height``, with ``rows`` of its rows of pixels (all of
    them for a whole image; fewer, and it is cut short), written by hand: rows in blocks of a
    thousand, each block deflated once (after a full flush, deflate writes a repeated block the same
    way again), then the stream's end and its checksum."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, bit_depth, colour_type, 0, 0, 0)
    row = b"\0" + b"\xff" * ((width * bit_depth * (3 if colour_type == 2 else 1) + 7) // 8)
    whole = rows // 1000
    if whole:
        packer, block = zlib.compressobj(9), row * 1000
        first = packer.compress(block) + packer.flush(zlib.Z_FULL_FLUSH)
        again = packer.compress(block) + packer.flush(zlib.Z_FULL_FLUSH)
        rest = packer.compress(row * (rows % 1000)) + packer.flush()
        checksum = 1
        for _ in range(whole):
            checksum = zlib.adler32(block, checksum)
        checksum = zlib.adler32(row * (rows % 1000), checksum)
        pixels = first + again * (whole - 1) + rest[:-4] + checksum.to_bytes(4, "big")
    else:  # fewer than a block of rows (a header that claims more than follows): deflated as they are
        pixels = zlib.compress(row * rows)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


def png_claiming(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims ``width`` x ``height`` (its pixels never follow)."""
    return png(width, height)


def zip_bomb() -> bytes:
    """20,000 x 20,000 white pixels (400 million, 1.2 GB once decoded) in some 50 KB of PNG."""
    return png(20_000, 20_000, rows=20_000, bit_depth=1, colour_type=0)


SVG = b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>'
GIF = (b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,"
       b"\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")


@pytest.mark.parametrize("upload, sentence", [
    (b"", "That is not a photo"),
    (b"hello, this is text", "That is not a photo"),
    (SVG, "That is not a photo"),
    (GIF, "That is not a photo"),
    (b"%PDF-1.4\n", "That is not a photo"),
    (b"RIFF\x10\x00\x00\x00WAVEfmt ", "That is not a photo"),
    (b"\xff\xd8\xff\xe0garbage after a JPEG's first bytes", "could not be read"),
    (jpeg()[:-600], "could not be read"),  # cut short
    (png_claiming(2500, 2500), "too large: at most 2048 pixels"),  # past Pillow's warning: refused all the same
    (png_claiming(60_000, 60_000), "too large: at most 2048 pixels"),  # past Pillow's bomb guard
    (png_claiming(2049, 10), "too large: at most 2048 pixels"),
    (b"\xff\xd8\xff" + b"\0" * (images.MAX_UPLOAD_BYTES + 1), "too large to send"),
], ids=["empty", "text", "svg", "gif", "pdf", "riff-not-webp", "jpeg-garbage", "truncated", "2500px", "60000px",
        "2049px", "too-many-bytes"])
def test_what_is_not_a_photo_the_server_can_keep_is_refused_with_a_sentence(upload, sentence):
    with pytest.raises(Exception) as refused:
        images.check_photo(upload)
    assert type(refused.value).__name__ == "RuleError" and sentence in str(refused.value)


def test_a_zip_bomb_is_refused_before_its_pixels_are_decoded():
    bomb = zip_bomb()
    assert len(bomb) <= images.MAX_UPLOAD_BYTES
    with pytest.raises(Exception, match="too large: at most"):
        images.check_photo(bomb)


def test_a_png_whose_text_is_a_zip_bomb_is_refused():
    out = io.BytesIO()
    text = PngImagePlugin.PngInfo()
    text.add_text("Comment", "x" * 5_000_000, zip=True)  # a few kilobytes, 5 MB decompressed
    Image.new("RGB", (32, 32)).save(out, "PNG", pnginfo=text)
    assert len(out.getvalue()) < 50_000
    with pytest.raises(Exception, match="could not be read"):
        images.check_photo(out.getvalue())


# The work one check may cost, whatever the file (docs/SECURITY.md, "Limits"): one decoding of at
# most 2048 x 2048 px, at most four scalings and five JPEG encodings; a file of more pieces than a
# decoder should walk is refused before any decoding.
MOST_DECODED, MOST_SCALINGS, MOST_ENCODINGS = 2048 * 2048, 4, 5
REFUSED_UNREAD = {"jpeg-24000-scans", "jpeg-100000-segments", "png-30000-chunks"}


@pytest.mark.parametrize("name", sorted(hostile_photos.CASES))
def test_the_costliest_photos_are_checked_within_the_bound_of_work_or_refused_unread(name):
    # Before issue 29 the JPEG of 24,000 scans was decoded (81-93 s of CPU), noise was encoded up to
    # 16 times, and every file of thousands of pieces was walked to its end.
    upload = hostile_photos.CASES[name]()
    assert len(upload) <= images.MAX_UPLOAD_BYTES
    with hostile_photos.Work() as work:
        if name in REFUSED_UNREAD:
            with pytest.raises(Exception, match="could not be read"):
                images.check_photo(upload)
        else:
            kept = images.check_photo(upload)
            assert max(kept.width, kept.height) <= images.STORED_SIDE and len(kept.data) <= images.STORED_BYTES
    if name in REFUSED_UNREAD:
        assert (work.decoded, work.scalings, work.encodings) == (0, 0, 0)
    else:
        assert 0 < work.decoded <= MOST_DECODED
        assert work.scalings <= MOST_SCALINGS and 1 <= work.encodings <= MOST_ENCODINGS


@pytest.mark.parametrize("params", [{"progressive": True}, {"progressive": True, "optimize": True},
                                    {"exif": phone_exif().tobytes(), "icc_profile": b"\0" * 200_000}],
                         ids=["progressive", "progressive-optimized", "exif-and-a-large-profile"])
def test_a_jpeg_as_encoders_write_it_has_few_enough_pieces_to_be_kept(params):
    kept = images.check_photo(jpeg(size=(1200, 900), **params))
    assert (kept.width, kept.height) == (1200, 900)


# --- the contract -------------------------------------------------------------------------------


def test_a_game_without_photos_takes_none_and_the_toy_game_declares_its_slots():
    players = [Player(1, "Ann"), Player(2, "Ben")]
    state = toy_game.setup(players, {}, 1)
    assert photos_of(object(), state, 1) is NO_PHOTOS
    ann = photos_of(toy_game, state, 1)
    assert [s.slot for s in ann.slots] == ["card:1:1", "card:1:2", "table:1"]
    assert [s.seat for s in ann.slots] == [1, 2, None]
    assert ann.take == {"card:1:1"} and ann.see == {"table:1"}
    assert photos_of(toy_game, state, HOST).take == {"table:1"}
    assert photos_of(toy_game, state, TABLE).take == frozenset()
    state = toy_game.apply(toy_game.apply(state, 1, {"type": "pick", "card": 3}), 2, {"type": "pick", "card": 5})
    assert photos_of(toy_game, state, TABLE).see == {"card:1:1", "card:1:2", "table:1"}
    assert photos_of(toy_game, state, 1).take == frozenset()


@pytest.mark.parametrize("count", [2, 6])
def test_the_toy_game_keeps_the_contract_with_its_photos(monkeypatch, count):
    from tests import test_contract as contract

    monkeypatch.setitem(GAMES, toy_game.NAME, toy_game)
    contract.test_random_legal_play_reaches_the_end_keeping_every_promise(toy_game.NAME, {}, count)


def test_the_contract_refuses_slots_that_are_not_slots():
    class Broken:
        NAME = "broken"

        def __init__(self, photos):
            self._photos = photos

        def photos(self, state, viewer):
            return self._photos

    for wrong in (Photos((PhotoSlot("Card 1"),)), Photos((PhotoSlot("a"), PhotoSlot("a"))),
                  Photos((PhotoSlot("a"),), take=frozenset({"b"})), Photos((PhotoSlot("a/b"),))):
        with pytest.raises(AssertionError):
            photos_of(Broken(wrong), object(), 1)


# --- through the API ------------------------------------------------------------------------------


@pytest.fixture
def game(table, toy):  # noqa: F811
    """A started High Card table: Ann (seat 1) and Ben (seat 2)."""
    return table("high-card", players=("Ann", "Ben"))


def send(t, who, slot, data=None, content_type="image/jpeg", **headers):
    hdrs = {**(t.headers(who) if who else {}), **headers}
    if content_type == "multipart/form-data":
        return t.client.post(f"/api/v1/rooms/{t.code}/photos/{slot}", headers=hdrs,
                             data={"photo": (io.BytesIO(data if data is not None else jpeg()), "photo.jpg")},
                             content_type="multipart/form-data")
    return t.client.post(f"/api/v1/rooms/{t.code}/photos/{slot}", data=data if data is not None else jpeg(),
                         headers={**hdrs, "Content-Type": content_type})


def seen(t, who, path):
    return t.client.get(path, headers=t.headers(who) if who else {})


def without_version(view):
    return {k: v for k, v in view.items() if k != "version"}


VIEWERS = ("Ann", "Ben", "host", None)


def test_a_seat_photographs_its_card_and_only_it_sees_the_photo_until_the_reveal(game):
    t = game
    before = {who: t.view(who) for who in VIEWERS}
    assert before["Ann"]["photos"] == {"take": {"card:1:1": f"/api/v1/rooms/{t.code}/photos/card:1:1"},
                                       "see": {"table:1": None}, "seats": {"card:1:1": 1, "table:1": None}}
    answer = send(t, "Ann", "card:1:1", jpeg(exif=phone_exif()))
    assert answer.status_code == 200, answer.get_json()
    mine = answer.get_json()["photos"]["see"]["card:1:1"]
    assert mine.startswith(f"/rooms/{t.code}/photos/card:1:1?v=") and mine.endswith("&as=seat")
    image = seen(t, "Ann", mine)
    assert image.status_code == 200 and image.mimetype == "image/jpeg"
    assert image.headers["X-Content-Type-Options"] == "nosniff"
    assert image.headers["Cache-Control"] == "private, max-age=86400, immutable"
    assert b"PhoneMaker" not in image.data and stored(image.data).getexif().get_ifd(GPS) == {}
    # Nobody else's view tells that it exists: each is the view before, but for the version.
    for who in ("Ben", "host", None):
        assert without_version(t.view(who)) == without_version(before[who]), who
    t.act("Ann", "pick", card=6)
    t.act("Ben", "pick", card=2)
    for who, role in (("Ben", "seat"), ("host", "host"), (None, "table")):
        photos = t.view(who)["photos"]
        assert list(photos["see"]) == ["card:1:1", "card:1:2", "table:1"]  # seating order, then the table
        assert photos["see"]["card:1:2"] is None  # Ben took none: "no photo"
        url = photos["see"]["card:1:1"]
        assert url.endswith(f"&as={role}") and seen(t, who, url).data == image.data


def test_a_photo_nobody_may_see_yet_answers_exactly_as_one_never_taken(game):
    t = game
    url = send(t, "Ann", "card:1:1").get_json()["photos"]["see"]["card:1:1"]
    path = url.split("?")[0]
    answers = set()
    for who in ("Ben", "host", None):
        for asked in (url, path, url.replace("as=seat", "as=host"), url.replace("as=seat", "as=table"),
                      f"/rooms/{t.code}/photos/card:1:2", f"/rooms/{t.code}/photos/table:1",
                      f"/rooms/{t.code}/photos/card:9:9", f"/rooms/{t.code}/photos/NOT%20A%20SLOT"):
            response = seen(t, who, asked)
            answers.add((response.status_code, response.get_data(as_text=True), response.mimetype))
    # Ann's own token, but shown as the host screen or the table: not hers to see there.
    for asked in (url.replace("as=seat", "as=host"), url.replace("as=seat", "as=table")):
        response = seen(t, "Ann", asked)
        answers.add((response.status_code, response.get_data(as_text=True), response.mimetype))
    assert answers == {(404, '{"error":"There is no such photo here."}', "application/json")}


def test_the_host_photographs_the_table_and_everyone_sees_it_at_once(game):
    t = game
    assert send(t, "host", "table:1", content_type="multipart/form-data").status_code == 200
    for who in VIEWERS:
        url = t.view(who)["photos"]["see"]["table:1"]
        assert url and seen(t, who, url).status_code == 200


def test_a_slot_that_is_not_yours_to_take_now_is_refused_with_a_sentence_and_nothing_kept(game):
    t = game
    version = t.view("host")["version"]
    refusals = [send(t, "Ann", "card:1:2"), send(t, "Ben", "table:1"), send(t, "host", "card:1:1"),
                send(t, "Ann", "card:2:1"), send(t, "Ann", "NOT-A-SLOT")]
    for refused in refusals:
        assert refused.status_code == 400 and refused.get_json()["error"], refused.get_json()
    assert refusals[0].get_json()["error"] == "You can't take that photo now."
    assert t.view("host")["version"] == version
    t.act("Ann", "pick", card=6)
    t.act("Ben", "pick", card=2)
    assert send(t, "Ann", "card:1:1").get_json()["error"] == "You can't take that photo now."  # revealed: too late


def test_no_credential_a_waiting_phone_and_no_room_are_told_so(game):
    t = game
    assert send(t, None, "card:1:1").status_code == 401
    assert send(t, None, "card:1:1", Authorization="Bearer nobody").status_code == 403
    missing = t.client.post("/api/v1/rooms/ZZZZ/photos/card:1:1", data=jpeg(), headers={"Content-Type": "image/jpeg"})
    assert missing.status_code == 404 and "ZZZZ" in missing.get_json()["error"]
    assert t.client.get("/rooms/ZZZZ/photos/card:1:1").status_code == 404


@pytest.mark.parametrize("upload, content_type, status, sentence", [
    (SVG, "image/jpeg", 400, "That is not a photo"),
    (SVG, "image/svg+xml", 400, "That is not a photo"),
    (jpeg()[:-600], "image/jpeg", 400, "could not be read"),
    (jpeg(), "application/json", 400, "That is not a photo"),
    (b"\xff\xd8\xff" + b"\0" * (images.MAX_UPLOAD_BYTES + 100), "image/jpeg", 400, "too large to send"),
    (b"\xff\xd8\xff" + b"\0" * (images.MAX_UPLOAD_BYTES + 20_000), "image/jpeg", 400, "too large to send"),
])
def test_a_bad_upload_is_refused_with_a_sentence_and_nothing_is_kept(game, upload, content_type, status, sentence):
    t = game
    before = t.view("Ann")
    refused = send(t, "Ann", "card:1:1", upload, content_type)
    assert refused.status_code == status and sentence in refused.get_json()["error"]
    assert t.view("Ann") == before
    assert t.client.application.extensions["rooms"].store.photo(t.code, "card:1:1") is None


def test_a_form_from_another_site_is_refused(game):
    t = game
    refused = send(t, "Ann", "card:1:1", content_type="multipart/form-data", Origin="http://evil.example")
    assert refused.status_code == 403
    assert t.client.application.extensions["rooms"].store.photo(t.code, "card:1:1") is None


def test_a_new_photo_replaces_the_old_and_its_old_address_answers_no_more(game):
    t = game
    first = send(t, "Ann", "card:1:1", jpeg(colour=(255, 0, 0))).get_json()["photos"]["see"]["card:1:1"]
    second = send(t, "Ann", "card:1:1", jpeg(colour=(0, 0, 255))).get_json()["photos"]["see"]["card:1:1"]
    assert first != second
    assert seen(t, "Ann", first).status_code == 404
    assert stored(seen(t, "Ann", second).data).getpixel((5, 5))[2] > 200
    again = send(t, "Ann", "card:1:1", jpeg(colour=(0, 0, 255)))  # the same photo: nothing new
    assert again.get_json()["version"] == t.view("Ann")["version"]
    assert again.get_json()["photos"]["see"]["card:1:1"] == second
    store = t.client.application.extensions["rooms"].store
    assert store.write(t.code, lambda tx: tx.photo_usage()) == (1, len(seen(t, "Ann", second).data))


def test_a_room_keeps_a_bounded_number_of_photos(game, monkeypatch):
    t = game
    monkeypatch.setattr(photo_service, "MAX_PHOTOS", 2)
    assert send(t, "Ann", "card:1:1").status_code == 200
    assert send(t, "Ben", "card:1:2").status_code == 200
    assert send(t, "Ben", "card:1:2", jpeg(colour=(1, 2, 3))).status_code == 200  # a replacement fits
    full = send(t, "host", "table:1")
    assert full.status_code == 400 and full.get_json()["error"] == "This table keeps no more photos."
    assert "table:1" not in [s for s, _, _ in t.client.application.extensions["rooms"].get(t.code).photos]
    monkeypatch.setattr(photo_service, "MAX_PHOTOS", 200)
    monkeypatch.setattr(photo_service, "MAX_BYTES", 1)
    assert send(t, "host", "table:1").get_json()["error"] == "This table keeps no more photos."


def test_the_photo_survives_a_replay_and_leaves_when_the_table_is_closed(game):
    t = game
    url = send(t, "Ann", "card:1:1").get_json()["photos"]["see"]["card:1:1"]
    rooms = t.client.application.extensions["rooms"]
    rooms._cache.clear()  # another worker rebuilds the room from its log
    assert rooms.get(t.code).photos[0][:2] == ("card:1:1", 1)
    assert seen(t, "Ann", url).status_code == 200
    t.act("host", "end")
    assert rooms.store.photo(t.code, "card:1:1") is None
    assert seen(t, "Ann", url).status_code == 404
    assert t.view("Ann")["photos"] == {"take": {}, "see": {}, "seats": {}}
    assert send(t, "Ann", "card:1:1").get_json()["error"] == "The host has closed this table."


def test_undoing_the_start_forgets_the_photos_of_that_game(game):
    t = game
    send(t, "Ann", "card:1:1")
    t.act("host", "undo")  # back to the lobby
    assert "photos" not in t.view("Ann")
    assert t.client.application.extensions["rooms"].store.photo(t.code, "card:1:1") is None  # nor their bytes
    t.act("host", "start")
    assert t.view("Ann")["photos"]["see"] == {"table:1": None}  # the same slot, a new game: no photo


def test_the_page_shows_the_camera_button_and_the_photos(app, toy):  # noqa: F811
    client = app.test_client()
    room = client.post("/api/v1/rooms", json={"game": "high-card"}).get_json()
    code = room["code"]
    phones = {}
    for name in ("Ann", "Ben"):
        phone = app.test_client()
        phone.post(f"/j/{code}", data={"name": name}, headers={"Origin": "http://localhost"})
        phones[name] = phone
    client.post(f"/api/v1/rooms/{code}/actions", json={"type": "start"},
                headers={"Authorization": f"Bearer {room['host_token']}"})
    page = phones["Ann"].get(f"/p/{code}").get_data(as_text=True)
    assert 'data-photo-slot="card:1:1"' in page and 'capture="environment"' in page
    assert re.search(r'<script src="/static/photo\.\w+\.js">', page)  # after app.js, on every page
    sent = phones["Ann"].post(f"/api/v1/rooms/{code}/photos/card:1:1", data=jpeg(),
                              headers={"Content-Type": "image/jpeg", "X-Companion-Role": "seat"})
    assert sent.status_code == 200, sent.get_json()
    page = phones["Ann"].get(f"/p/{code}/live").get_data(as_text=True)
    assert f'src="/rooms/{code}/photos/card:1:1?v=' in page and "Take the photo again" in page
    assert "/photos/card:1:1" not in phones["Ben"].get(f"/p/{code}/live").get_data(as_text=True)


def test_uploads_are_rate_limited(tmp_path, monkeypatch, toy):  # noqa: F811
    from companion import create_app
    from tests.conftest import Table

    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.setitem(limits.LIMITS, "photos.take", "2/minute")
    app = create_app({"TESTING": True, "RATE_LIMITS": True})
    t = Table(app.test_client(use_cookies=False), "high-card").join("Ann", "Ben")
    t.act("host", "start")
    assert [send(t, "Ann", "card:1:1", jpeg(colour=(i, 0, 0))).status_code for i in range(3)] == [200, 200, 429]


def test_the_photo_endpoints_answer_as_the_document_says(game):
    from tests.test_openapi import Spec, pointer

    spec = Spec(game.client.get("/api/openapi.json").get_json())
    take, image = "/api/v1/rooms/{code}/photos/{slot}", "/rooms/{code}/photos/{slot}"

    def fits(response, path, method):
        documented = spec.operation(path, method)["responses"][str(response.status_code)]
        assert response.mimetype in documented["content"], (path, response.status_code, response.mimetype)
        if response.mimetype == "application/json":
            ref = pointer("paths", path, method, "responses", str(response.status_code), "content",
                          "application/json", "schema")
            assert spec.errors(ref, response.get_json()) == []

    kept = send(game, "Ann", "card:1:1")
    fits(kept, take, "post")
    for refused in (send(game, "Ann", "card:1:2"), send(game, None, "card:1:1"),
                    send(game, None, "card:1:1", Authorization="Bearer nobody"), send(game, "Ann", "card:1:1", SVG)):
        fits(refused, take, "post")
    fits(seen(game, "Ann", kept.get_json()["photos"]["see"]["card:1:1"]), image, "get")
    fits(seen(game, "Ben", kept.get_json()["photos"]["see"]["card:1:1"]), image, "get")
    assert spec.fits(pointer("components", "schemas", "View"), game.view("Ann"))


def test_a_seat_sitting_the_game_out_takes_no_photo(table, toy):  # noqa: F811
    t = table("high-card", players=("Ann", "Ben", "Cat"), start=False)
    t.act("host", "sit_out", seat=t.seats["Cat"])
    t.act("host", "start")
    assert t.view("Cat")["photos"]["take"] == {}
    refused = send(t, "Cat", f"card:1:{t.seats['Cat']}")
    assert refused.status_code == 400 and refused.get_json()["error"] == "You can't take that photo now."


def test_the_templates_place_a_photo_numbered_by_position_and_no_photo_where_none(app):
    view = {"players": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}],
            "photos": {"take": {}, "see": {"table:5": "/rooms/ABCD/photos/table:5?v=1&as=seat",
                                           "doodle:1:2": None},
                       "seats": {"table:5": None, "doodle:1:2": 2}}}
    with app.test_request_context("/"):
        macros = app.jinja_env.get_template("photos.html").make_module({"_": lambda s, **kw: s % kw if kw else s})
        numbered = str(macros.photo_numbered(view, "table:5", 6))
        assert 'src="/rooms/ABCD/photos/table:5?v=1&amp;as=seat"' in numbered
        assert [f"<li>{n}</li>" in numbered for n in range(1, 7)] == [True] * 6
        assert str(macros.photo_numbered(view, "doodle:1:2", 6)).strip() == ""  # no photo: nothing to number
        wall = str(macros.photo_wall(view, large=True))
        assert "photo-wall large" in wall and "no photo" in wall and "Ben" in wall and "The table" in wall
        assert str(macros.photo_wall({"players": []})).strip() == ""  # a game without photos: nothing
