"""Photos of paper in Doodles and Dixit (issue 18, section 3), as the games' docstrings rule them.

Doodles (``games/doodles.py``, "Photos of paper"): with the doodles on paper, each player may
photograph their own sheet while the hourglass runs and during the vote; nobody else sees it before
pencils down; then every screen shows every doodle in seating order. No photos when the doodles are
drawn on the phones. Dixit (``games/dixit.py``, reading 11): the storyteller photographs the cards
laid out while the table claims and votes, and everyone sees the photo at once (the cards lie face
up). The checks of the images themselves (bad uploads, metadata, sizes) are tests/test_photos.py's.

The rules first, on the engines alone; then the same through the API, as phones send them.
"""

from __future__ import annotations

import io
import random

import pytest
import requests
from PIL import Image, ImageDraw
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games import dixit, doodles
from games.base import HOST, NO_PHOTOS, TABLE, Player, photos_of
from tests.browser import Shots
from tests.table import READS, Room, Screens, Walk, wait_for_version

PLAYERS = [Player(1, "Ann"), Player(2, "Ben"), Player(3, "Cat"), Player(4, "Dan")]
SEATS = [p.seat for p in PLAYERS]
VIEWERS = [TABLE, HOST, *SEATS]
NOW = 1000.0


def doodle_slots(round_, seats=SEATS):
    return [f"doodle:{round_}:{seat}" for seat in seats]


def slots(engine, state):
    return [s.slot for s in photos_of(engine, state, TABLE).slots]


def see(engine, state, viewer):
    return photos_of(engine, state, viewer).see


def take(engine, state, viewer):
    return photos_of(engine, state, viewer).take


# --- Doodles: the rules -----------------------------------------------------------------------


def doodles_game(**options):
    return doodles.setup(PLAYERS, {"timer_seconds": 30, **options}, seed=7)


def doodling(**options):
    return doodles.apply(doodles_game(**options), HOST, {"type": "start_timer"}, NOW)


def pencils_down(**options):
    return doodles.apply(doodling(**options), HOST, {"type": "pencils_down"}, NOW + 10)


def vote_all(state):
    for voter in SEATS:
        for artist in SEATS:
            if artist != voter:
                state = doodles.apply(state, voter, {"type": "vote", "artist": artist, "subject": 1}, NOW + 40)
    return state


def test_no_doodle_photo_before_the_hourglass_is_turned():
    state = doodles_game()
    assert all(photos_of(doodles, state, viewer) == NO_PHOTOS for viewer in VIEWERS)


def test_each_player_photographs_their_own_doodle_while_the_hourglass_runs():
    state = doodling()
    assert slots(doodles, state) == doodle_slots(1)
    assert [s.seat for s in photos_of(doodles, state, TABLE).slots] == SEATS  # whose paper, in seating order
    for seat in SEATS:
        assert take(doodles, state, seat) == {f"doodle:1:{seat}"}
    assert take(doodles, state, HOST) == take(doodles, state, TABLE) == frozenset()


def test_a_doodle_photo_is_not_seen_before_pencils_down():
    state = doodling()
    assert all(see(doodles, state, viewer) == frozenset() for viewer in VIEWERS)
    paused = doodles.apply(state, HOST, {"type": "pause_timer"}, NOW + 5)
    assert all(see(doodles, paused, viewer) == frozenset() for viewer in VIEWERS)


def test_from_pencils_down_everyone_sees_every_doodle_in_seating_order():
    state = pencils_down()
    for viewer in VIEWERS:
        assert see(doodles, state, viewer) == set(doodle_slots(1))
    assert slots(doodles, state) == doodle_slots(1)
    for seat in SEATS:  # a player who photographs only after the time is up still may
        assert take(doodles, state, seat) == {f"doodle:1:{seat}"}


def test_the_time_running_out_shows_the_doodles_once_the_vote_begins():
    state = doodling()
    first = doodles.apply(state, 1, {"type": "vote", "artist": 2, "subject": 1}, NOW + 31)  # no pencils_down
    assert first.phase is doodles.Phase.VOTE and see(doodles, first, HOST) == set(doodle_slots(1))


def test_the_photos_stay_through_the_reveal_but_none_is_taken_once_the_votes_are_in():
    state = vote_all(pencils_down())
    assert state.phase is doodles.Phase.REVEAL
    for viewer in VIEWERS:
        assert see(doodles, state, viewer) == set(doodle_slots(1)) and take(doodles, state, viewer) == frozenset()
    for seat in SEATS:
        state = doodles.apply(state, HOST, {"type": "reveal", "artist": seat}, NOW + 50)
    assert state.phase is doodles.Phase.SCORES and see(doodles, state, HOST) == set(doodle_slots(1))


def test_the_next_round_photographs_new_doodles():
    state = vote_all(pencils_down())
    for seat in SEATS:
        state = doodles.apply(state, HOST, {"type": "reveal", "artist": seat}, NOW + 50)
    state = doodles.apply(state, HOST, {"type": "next_round", "round": 2}, NOW + 60)
    assert photos_of(doodles, state, HOST) == NO_PHOTOS  # the card is on the table, no doodle yet
    state = doodles.apply(state, HOST, {"type": "start_timer"}, NOW + 70)
    assert slots(doodles, state) == doodle_slots(2) and take(doodles, state, 2) == {"doodle:2:2"}


def test_no_photos_when_the_doodles_are_drawn_on_the_phone():
    for state in (doodling(doodle_on_phone=True), pencils_down(doodle_on_phone=True)):
        assert all(photos_of(doodles, state, viewer) == NO_PHOTOS for viewer in VIEWERS)


def test_a_late_arrival_photographs_their_doodle_like_everyone():
    state = doodles.seat_joins(doodles_game(), Player(9, "Eve"))
    state = doodles.apply(state, HOST, {"type": "start_timer"}, NOW)
    assert slots(doodles, state) == doodle_slots(1, [*SEATS, 9]) and take(doodles, state, 9) == {"doodle:1:9"}


# --- Dixit: the rules -------------------------------------------------------------------------


def claim_all(state, places=None):
    places = places or {1: 3, 2: 1, 3: 2, 4: 4}
    for seat, position in places.items():
        state = dixit.apply(state, seat, {"type": "claim", "position": position})
    return state


def test_the_storyteller_photographs_the_table_while_the_table_claims_and_votes():
    state = dixit.setup(PLAYERS, {}, seed=3)
    assert state.storyteller == 1
    for phase_state in (state, claim_all(state)):
        assert slots(dixit, phase_state) == ["table:1"]
        assert take(dixit, phase_state, 1) == {"table:1"}
        assert all(take(dixit, phase_state, viewer) == frozenset() for viewer in (TABLE, HOST, 2, 3, 4))


def test_everyone_sees_the_table_photo_as_soon_as_it_is_taken_even_while_claiming():
    """The cards lie face up and the photo tells nobody whose card is where: it helps a player at
    the far end count to their own card before claiming it."""
    state = dixit.setup(PLAYERS, {}, seed=3)
    assert all(see(dixit, state, viewer) == {"table:1"} for viewer in VIEWERS)
    voting = claim_all(state)
    assert all(see(dixit, voting, viewer) == {"table:1"} for viewer in VIEWERS)


def test_after_the_reveal_the_photo_stays_and_the_next_storyteller_photographs_the_next_table():
    state = claim_all(dixit.setup(PLAYERS, {}, seed=3))
    for seat in (2, 3, 4):
        state = dixit.apply(state, seat, {"type": "vote", "position": 3})
    assert state.phase is dixit.Phase.REVEALED
    assert see(dixit, state, 2) == {"table:1"} and all(take(dixit, state, v) == frozenset() for v in VIEWERS)
    state = dixit.apply(state, HOST, {"type": "next_round"})
    assert slots(dixit, state) == ["table:2"] and take(dixit, state, 2) == {"table:2"}
    assert take(dixit, state, 1) == frozenset()


def test_a_storyteller_chosen_by_the_host_takes_the_photo():
    state = dixit.apply(dixit.setup(PLAYERS, {}, seed=3), HOST, {"type": "set_storyteller", "seat": 3})
    assert take(dixit, state, 3) == {"table:1"} and take(dixit, state, 1) == frozenset()


# --- through the API, as the phones send them ---------------------------------------------------


def jpeg(colour=(30, 120, 200)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (64, 48), colour).save(out, "JPEG")
    return out.getvalue()


def send(t, who, slot, colour=(30, 120, 200)):
    return t.client.post(f"/api/v1/rooms/{t.code}/photos/{slot}", data=jpeg(colour),
                         headers={**t.headers(who), "Content-Type": "image/jpeg"})


def shown(t, who, url):
    return t.client.get(url, headers=t.headers(who) if who else {})


def test_dixit_the_storytellers_phone_photographs_the_table_and_every_screen_shows_it(table):
    t = table("dixit")
    refused = send(t, "Ben", "table:1")
    assert refused.status_code == 400 and refused.get_json()["error"] == "You can't take that photo now."
    assert t.view("Ben")["photos"]["see"] == {"table:1": None}  # the slot is public, no photo yet
    assert t.view("Ann")["photos"]["take"] == {"table:1": f"/api/v1/rooms/{t.code}/photos/table:1"}
    assert send(t, "Ann", "table:1").status_code == 200
    for who in ("Ben", "host", None):  # while claiming already
        url = t.view(who)["photos"]["see"]["table:1"]
        assert url and shown(t, who, url).status_code == 200
    for name, position in {"Ann": 3, "Ben": 1, "Cat": 2, "Dan": 4}.items():
        t.act(name, "claim", position=position)
    assert send(t, "Ann", "table:1").status_code == 200  # taken again while voting
    assert t.view("Dan")["photos"]["see"]["table:1"]
    for name in ("Ben", "Cat", "Dan"):
        t.act(name, "vote", position=3)
    assert send(t, "Ann", "table:1").status_code == 400  # revealed: the round's table is done
    assert t.view(None)["photos"]["see"]["table:1"]


def test_doodles_a_doodle_photo_is_not_seen_before_pencils_down(table):
    t = table("doodles", players=("Ann", "Ben", "Cat"))
    assert send(t, "Ann", "doodle:1:1").status_code == 400  # the hourglass is not turned yet
    t.act("host", "start_timer")
    assert send(t, "Ann", "doodle:1:2").status_code == 400  # Ben's paper is Ben's to photograph
    assert send(t, "Ann", "doodle:1:1").status_code == 200
    mine = t.view("Ann")["photos"]["see"]["doodle:1:1"]
    assert mine and shown(t, "Ann", mine).status_code == 200  # whoever took it sees it
    for who in ("Ben", "host", None):
        assert t.view(who)["photos"]["see"] == {}
        refused = shown(t, who, mine)
        assert refused.status_code == 404 and refused.get_json()["error"] == "There is no such photo here."
    t.act("host", "pencils_down")
    see = t.view("host")["photos"]["see"]
    assert list(see) == ["doodle:1:1", "doodle:1:2", "doodle:1:3"]  # seating order
    assert see["doodle:1:2"] is None and shown(t, "host", see["doodle:1:1"]).status_code == 200
    assert t.view("host")["photos"]["seats"] == {"doodle:1:1": 1, "doodle:1:2": 2, "doodle:1:3": 3}
    assert send(t, "Cat", "doodle:1:3").status_code == 200  # after pencils down too, until the vote ends
    assert t.view("Ben")["photos"]["see"]["doodle:1:3"]


def photo_version(t, who, slot):
    """The version of the photo in ``slot`` as ``who``'s screen shows it (the image's digest)."""
    return t.view(who)["photos"]["see"][slot].split("v=", 1)[1].split("&", 1)[0]


def test_doodles_a_photo_is_fixed_once_the_vote_begins(table):
    """Issue 29: an artist cannot replace their paper's photo once the vote has begun (the first
    vote cast, the rulebook's first token laid face down): the votes rest on what was shown."""
    t = table("doodles", players=("Ann", "Ben", "Cat"))
    t.act("host", "start_timer")
    assert send(t, "Ann", "doodle:1:1").status_code == 200
    t.act("host", "pencils_down")
    first = photo_version(t, "Ben", "doodle:1:1")
    assert send(t, "Ann", "doodle:1:1", colour=(200, 30, 30)).status_code == 200  # no vote yet: replaced
    shown_now = photo_version(t, "Ben", "doodle:1:1")
    assert shown_now != first
    t.act("Ben", "vote", artist=3, subject=2)  # a vote on Cat's doodle: the vote has begun
    assert t.view("Ann")["photos"]["take"] == {} and t.view("Cat")["photos"]["take"] == {}
    for who, slot in (("Ann", "doodle:1:1"), ("Cat", "doodle:1:3")):  # a replacement, a first photo
        refused = send(t, who, slot, colour=(10, 200, 10))
        assert refused.status_code == 400
        assert refused.get_json()["error"] == "The vote has begun: the photos stay as they are until the next round."
    assert photo_version(t, "Ben", "doodle:1:1") == shown_now
    assert t.view("Ben")["photos"]["see"]["doodle:1:3"] is None


def test_dixit_the_table_photo_is_fixed_once_the_vote_begins(table):
    """The same door in Dixit: the cards are numbered by their place in the photo, so once a vote
    is cast the storyteller cannot swap the photo for one in another order."""
    t = table("dixit")
    assert send(t, "Ann", "table:1").status_code == 200
    for name, position in {"Ann": 3, "Ben": 1, "Cat": 2, "Dan": 4}.items():
        t.act(name, "claim", position=position)
    kept = photo_version(t, "Dan", "table:1")
    t.act("Ben", "vote", position=3)
    refused = send(t, "Ann", "table:1", colour=(200, 30, 30))
    assert refused.status_code == 400
    assert refused.get_json()["error"] == "The vote has begun: the photos stay as they are until the next round."
    assert photo_version(t, "Dan", "table:1") == kept


def test_doodles_no_photos_when_the_doodles_are_drawn_on_the_phone(table):
    t = table("doodles", players=("Ann", "Ben", "Cat"), options={"doodle_on_phone": True})
    t.act("host", "start_timer")
    assert send(t, "Ann", "doodle:1:1").status_code == 400
    t.act("host", "pencils_down")
    assert t.view("host")["photos"] == {"take": {}, "see": {}, "seats": {}}
    assert t.view("Ann")["photos"]["take"] == {}



# --- at the table: the screens with the photos, in a real browser ---------------------------------

SEVEN = ("Ann", "Benedetta", "Cleo", "Dan", "Evangelina", "Finn", "Gus")  # Doodles' largest table
EIGHT = ("Ann", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana")  # Dixit's, with 7-8 players allowed
LOADED = """slot => { const img = document.querySelector(`#live [data-photo="${slot}"] img`);
  return !!img && img.complete && img.naturalWidth > 0; }"""


def paper_photo(path, seed, size=(1200, 900)):
    """A phone's photo of a doodle on paper: a sheet on a table, a few pencil strokes."""
    rng = random.Random(seed)
    picture = Image.new("RGB", size, (92, 70, 52))
    draw = ImageDraw.Draw(picture)
    w, h = size
    draw.rectangle((w * .08, h * .06, w * .92, h * .94), fill=(250, 248, 240))
    for _ in range(6):
        points = [(rng.uniform(.2, .8) * w, rng.uniform(.2, .8) * h) for _ in range(4)]
        draw.line(points, fill=(20, 20, 20), width=max(4, w // 120), joint="curve")
    picture.save(path, "JPEG", quality=80)
    return path


def cards_photo(path, count):
    """The storyteller's photo of ``count`` cards laid out in a row, from the left: a phone's 4:3,
    the row framed across it."""
    w, h = 1600, 1200
    step = w // count
    picture = Image.new("RGB", (w, h), (30, 80, 50))
    draw = ImageDraw.Draw(picture)
    for i in range(count):
        x = i * step + step // 10
        draw.rounded_rectangle((x, h // 2 - step * .75, x + step * .8, h // 2 + step * .75), radius=12,
                               fill=((60 * i) % 256, 140, (255 - 40 * i) % 256))
    picture.save(path, "JPEG", quality=80)
    return path


def send_as(room, name, slot, path):
    response = requests.post(f"{room.server.url}/api/v1/rooms/{room.code}/photos/{slot}", data=path.read_bytes(),
                             headers={"Authorization": f"Bearer {room.tokens[name]}", "Content-Type": "image/jpeg"},
                             timeout=10)
    assert response.status_code == 200, response.text


def take_on_the_phone(page, slot, path):
    """The phone's camera button, given the photo (as the camera would), until the phone shows it.

    The phone says "Sending the photo…" as soon as it has the picture; a live update that swapped
    the input out under the camera leaves it silent (a detached input sends nothing): only then
    is the photo given again. Once it is sending, the photo must reach the screen."""
    toast = "document.getElementById('toast')"
    for _attempt in range(3):
        page.evaluate(f"() => {{ {toast}.textContent = ''; }}")
        page.locator(f'input[type=file][data-photo-slot="{slot}"]').set_input_files(str(path))
        try:
            page.wait_for_function(f"() => {toast}.textContent !== ''", timeout=5_000)
        except PlaywrightTimeout:
            continue  # the input was replaced before it heard of the photo
        try:
            page.wait_for_function(LOADED, arg=slot, timeout=30_000)
            return
        except PlaywrightTimeout:
            said = page.evaluate(f"() => {toast}.textContent")
            raise AssertionError(f"{slot}: no photo shown; the phone said {said!r}") from None
    raise AssertionError(f"{slot}: the phone never took the photo (its input was replaced each time)")


def photos_loaded(page, slots):
    for slot in slots:
        page.wait_for_function(LOADED, arg=slot, timeout=30_000)


def box(page, selector):
    return page.locator(selector).first.bounding_box()


@pytest.mark.browser
def test_doodles_on_paper_the_photos_take_the_host_screen_for_the_vote_and_the_reveal(server, browser, tmp_path):
    room = Room(server, "doodles", SEVEN, {"rounds": 2, "timer_seconds": 300})
    walk = Walk(room, Screens(room, browser, phones=["Ann", "Gus"], shots=Shots(), name="dd-photos"))
    walk.reads = READS + ", [data-reads], .photo figcaption"
    seat = {p["name"]: p["seat"] for p in room.view()["players"]}
    slot = {name: f"doodle:1:{seat[name]}" for name in SEVEN}
    ann, gus = walk.phone("Ann"), walk.phone("Gus")
    room.act("host", "start")
    assert ann.locator("input[type=file]").count() == 0  # nothing to photograph before the hourglass
    room.act("host", "start_timer")
    walk.check("doodle")
    take_on_the_phone(ann, slot["Ann"], paper_photo(tmp_path / "ann.jpg", 1))
    assert ann.get_by_text("Take the photo again").is_visible()
    for page in walk.screens.hosts.values():  # not before pencils down
        assert page.locator("#live [data-photo]").count() == 0
    for i, name in enumerate(SEVEN[1:5], 2):  # Finn sends none; Gus after the time is up
        size = (900, 1200) if i % 2 else (1200, 900)  # phones held upright, or not
        send_as(room, name, slot[name], paper_photo(tmp_path / f"{name}.jpg", i, size))

    room.act("host", "pencils_down")
    wait_for_version(gus, room.view()["version"])  # the vote's page, not the doodle's going away
    take_on_the_phone(gus, slot["Gus"], paper_photo(tmp_path / "gus.jpg", 7))
    for page in walk.screens.hosts.values():
        photos_loaded(page, [slot[n] for n in SEVEN if n != "Finn"])
    walk.check("vote")
    for size, page in walk.screens.hosts.items():
        shown = page.locator(".photo-wall.large .photo").evaluate_all("els => els.map(e => e.dataset.photo)")
        assert shown == [slot[name] for name in SEVEN], "seating order"
        assert page.locator(f'[data-photo="{slot["Finn"]}"] .no-photo').inner_text() == "no photo"
        # The words and the progress above the photos; two rows of four, as large as the screen allows.
        head, wall = box(page, ".dd-vote-head"), box(page, ".photo-wall")
        assert head["y"] + head["height"] <= wall["y"] and "0 of 7 have voted" in page.inner_text(".dd-vote-head")
        assert len(page.locator(".dd-card .dd-word").all_inner_texts()) == 3
        width, height = page.viewport_size["width"], page.viewport_size["height"]
        assert wall["y"] + wall["height"] <= height and wall["height"] > 0.6 * height, (size, wall)
        picture = box(page, f'[data-photo="{slot["Ann"]}"] img')
        assert picture["width"] > width / 4 - 40 and picture["height"] > height / 4, (size, picture)
    assert ann.locator(".dd-ballot-row .dd-thumb img").count() == 5  # the others' photos (Finn sent none)

    seat_of = {v: seat[v] for v in SEVEN}
    for voter in SEVEN[:3]:
        for artist in SEVEN:
            if artist != voter:
                room.act(voter, "vote", artist=seat_of[artist], subject=1)
    walk.check("vote-some")
    assert walk.host.locator(".photo-wall .photo.done").count() == 3
    for voter in SEVEN[3:]:
        for artist in SEVEN:
            if artist != voter:
                room.act(voter, "vote", artist=seat_of[artist], subject=1)
    walk.check("reveal-0")
    assert "Next: Ann's doodle." in walk.host.inner_text(".dd-step")  # on the screen: nothing to hold up
    assert walk.host.locator(".photo-wall .photo.next").get_attribute("data-photo") == slot["Ann"]
    room.act("host", "reveal", artist=seat["Ann"])
    room.act("host", "reveal", artist=seat["Benedetta"])
    walk.check("reveal-2")
    current = walk.host.locator(".photo-wall .photo.current")
    truth = room.view()["reveal"]["revealed"][1]
    assert current.get_attribute("data-photo") == slot["Benedetta"]
    assert f"{truth['subject']} · {truth['word']}" in current.inner_text()
    # Issue 31: the doodle just revealed is shown large in its own reveal, not as a thumbnail.
    for size, page in walk.screens.hosts.items():
        width, height = page.viewport_size["width"], page.viewport_size["height"]
        big = page.locator(f'.dd-artist [data-photo="{slot["Benedetta"]}"] img')
        page.wait_for_function(LOADED.replace("#live [data-photo", ".dd-artist [data-photo"), arg=slot["Benedetta"])
        picture = big.bounding_box()
        assert picture["height"] > height / 3 and picture["width"] > width / 4, (size, picture)
        assert picture["y"] + picture["height"] <= height, (size, picture)
    room.act("host", "reveal", artist=seat["Cleo"])
    room.act("host", "reveal", artist=seat["Dan"])
    room.act("host", "reveal", artist=seat["Evangelina"])
    wait_for_version(walk.host, room.view()["version"])
    assert "Next: Finn, hold up your doodle." in walk.host.inner_text(".dd-step")  # Finn sent no photo
    for name in SEVEN[5:]:
        room.act("host", "reveal", artist=seat[name])
    walk.check("scores")
    assert walk.host.locator(".photo-wall .photo.done").count() == 7
    walk.assert_no_problems()
    walk.screens.close()


@pytest.mark.browser
def test_dixit_the_storyteller_photographs_the_table_and_every_screen_numbers_the_cards(server, browser, tmp_path):
    room = Room(server, "dixit", EIGHT, {"extended_player_counts": True})
    walk = Walk(room, Screens(room, browser, phones=["Ann", "Ben"], shots=Shots(), name="dx-photos"))
    walk.reads = READS + ", .dx-rank li, .photo-positions li"
    ann, ben = walk.phone("Ann"), walk.phone("Ben")
    room.act("host", "start")
    walk.check("claiming")
    assert ben.locator("input[type=file]").count() == 0  # only the storyteller photographs the table
    take_on_the_phone(ann, "table:1", cards_photo(tmp_path / "table.jpg", 8))
    for page in [*walk.screens.hosts.values(), ben]:
        photos_loaded(page, ["table:1"])
    walk.check("claiming-photo")
    for place, name in enumerate(EIGHT, 1):
        room.act(name, "claim", position=place)
    walk.check("voting-photo")
    for who, page in [*walk.screens.hosts.items(), ("Ben", ben)]:
        assert page.locator(".photo-positions li").all_inner_texts() == [str(n) for n in range(1, 9)], who
        picture, numbers = box(page, ".photo.numbered img"), box(page, ".photo-positions")
        assert abs(picture["width"] - numbers["width"]) < 2 and abs(picture["x"] - numbers["x"]) < 2, who
        assert numbers["y"] + numbers["height"] <= page.viewport_size["height"], who
    for size, page in walk.screens.hosts.items():  # as large as the screen allows beside who has voted
        assert box(page, ".photo.numbered img")["height"] > 0.55 * page.viewport_size["height"], size
    assert box(ben, ".photo.numbered img")["y"] < box(ben, ".pad")["y"], "the photo above the pad"
    for name in EIGHT[1:]:
        room.act(name, "vote", position=1)
    walk.check("revealed")
    walk.assert_no_problems()
    walk.screens.close()
