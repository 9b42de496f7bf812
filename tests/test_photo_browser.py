"""A phone photographs its paper in a real browser (Debian's chromium): companion/static/photo.js.

High Card (tests/toy_game.py) has no pages of its own, so its phones get the generic phone page
(templates/games/generic_phone.html), which places the camera button and the photos. The "camera"
gives a 2400 x 1800 photo of over a megabyte with the phone's GPS in its EXIF: more than the server
takes (400 KB), so it only arrives if the page scales it, and the page must send at most 1280 px and
200 KB, with no EXIF. The phone then shows its own photo at the next live update; the other phone
sees it only once the round is revealed. The app runs in this process (the toy game is registered
here, not in a server started apart), on werkzeug's threaded server.
"""

from __future__ import annotations

import io
import threading
from types import SimpleNamespace

import pytest
from PIL import Image
from werkzeug.serving import make_server

from companion import create_app
from companion.photos import images
from games import GAMES
from tests import toy_game
from tests.table import Room

pytestmark = pytest.mark.browser
GPS = 0x8825
SHOWN = """slot => { const img = document.querySelector(`#live img[src*="/photos/${slot}?"]`);
  return !!img && img.complete && img.naturalWidth > 0; }"""


@pytest.fixture
def served(tmp_path, monkeypatch):
    """The app with High Card, on loopback, in a thread of this process."""
    monkeypatch.setitem(GAMES, toy_game.NAME, toy_game)
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.delenv("COMPANION_DB", raising=False)
    app = create_app({"TESTING": True, "RATE_LIMITS": False, "POLL_WAIT": 0, "POLL_MS": 200})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield SimpleNamespace(url=f"http://127.0.0.1:{server.server_port}", app=app)
    server.shutdown()
    thread.join(10)


def camera_photo(path) -> int:
    """What a phone's camera gives: large, detailed (so it does not compress much), with GPS."""
    picture = Image.effect_noise((2400, 1800), 50).convert("RGB")
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"
    exif[GPS] = {1: "N", 2: (45.0, 27.0, 51.0), 3: "E", 4: (9.0, 11.0, 26.0)}
    picture.save(path, "JPEG", quality=92, exif=exif)
    return path.stat().st_size


def test_a_phone_scales_its_photo_sends_it_and_sees_it(browser, served, tmp_path, monkeypatch):
    room = Room(served, game="high-card", players=("Ann", "Ben"))
    room.act("host", "start")
    ann, ben = room.open_phone(browser, "Ann"), room.open_phone(browser, "Ben")
    photo = tmp_path / "camera.jpg"
    assert camera_photo(photo) > 1_000_000
    sent = []  # what the server received (a browser's request of a Blob body does not show its bytes)
    check = images.check_photo
    monkeypatch.setattr(images, "check_photo", lambda data: (sent.append(data), check(data))[1])
    camera = ann.locator('input[type=file][data-photo-slot="card:1:1"]')
    assert camera.get_attribute("capture") == "environment" and camera.get_attribute("accept") == "image/*"
    camera.set_input_files(str(photo))
    ann.wait_for_function(SHOWN, arg="card:1:1", timeout=30_000)
    assert "Photo sent." in ann.inner_text("#toast")
    assert ann.get_by_text("Take the photo again").is_visible()
    # What the page sent: scaled on the phone, a JPEG of the canvas, with nothing of the camera's EXIF.
    assert len(sent) == 1 and len(sent[0]) <= 200 * 1024
    upload = Image.open(io.BytesIO(sent[0]))
    assert upload.format == "JPEG" and max(upload.size) <= 1280 and upload.size[0] > upload.size[1]
    assert b"PhoneMaker" not in sent[0] and upload.getexif().get_ifd(GPS) == {}
    kept = served.app.extensions["rooms"].store.photo(room.code, "card:1:1")
    assert kept is not None and b"PhoneMaker" not in kept.data
    # Ben's phone shows no photo of Ann's until the round is revealed; then it does.
    assert ben.locator('#live img[src*="/photos/card:1:1"]').count() == 0
    room.act("Ann", "pick", card=6)
    room.act("Ben", "pick", card=2)
    ben.wait_for_function(SHOWN, arg="card:1:1", timeout=30_000)
    assert ben.locator('[data-photo="card:1:2"] .no-photo').is_visible()  # Ben took none


def test_a_file_that_is_no_picture_is_refused_with_a_sentence(browser, served, tmp_path):
    room = Room(served, game="high-card", players=("Ann", "Ben"))
    room.act("host", "start")
    ann = room.open_phone(browser, "Ann")
    not_a_photo = tmp_path / "notes.jpg"
    not_a_photo.write_bytes(b"these are not pixels")
    ann.locator('input[data-photo-slot="card:1:1"]').set_input_files(str(not_a_photo))
    ann.wait_for_function("() => document.querySelector('#toast').classList.contains('show') &&"
                          " /could not be read/.test(document.querySelector('#toast').textContent)")
    assert served.app.extensions["rooms"].store.photo(room.code, "card:1:1") is None


def test_a_poll_replaced_while_its_answer_is_still_coming_leaves_the_page_asking_for_it(browser, served):
    """A photo sent asks the room afresh (app.js: act, after the JSON view the photo endpoint answers). If the poll it replaces had its
    answer's headers but not yet its body, the page never showed that version: the fresh poll must
    still ask for it (If-None-Match of what is shown), or the page stays behind until the room
    moves on again (seen in CI: "Photo sent." and no photo)."""
    room = Room(served, game="high-card", players=("Ann", "Ben"))
    room.act("host", "start")
    ann = room.open_phone(browser, "Ann")
    shown = ann.evaluate("() => document.querySelector('#live [data-version]').dataset.version")
    asked = ann.evaluate("""() => new Promise(resolve => {
      const real = window.fetch, sent = [];
      let faked = false;
      window.fetch = function (url, init) {
        if (String(url).includes('/live')) {
          sent.push((init && init.headers && init.headers['If-None-Match']) || null);
          if (!faked) {  // the answer's headers come, its body never does
            faked = true;
            const body = new ReadableStream({ start() {} });
            setTimeout(() => { window.Companion.refresh(); }, 50);
            return Promise.resolve(new Response(body, { status: 200, headers: { ETag: 'W/"999"' } }));
          }
          setTimeout(() => resolve(sent), 0);
        }
        return real.apply(this, arguments);
      };
      window.Companion.refresh();
    })""")
    assert len(asked) == 2 and asked[1] != 'W/"999"', asked  # the fresh poll asks for what is shown
    assert ann.evaluate("() => document.querySelector('#live [data-version]').dataset.version") == shown


def test_a_photo_taken_offline_is_kept_and_sent_once_the_wifi_is_back(browser, served, tmp_path, monkeypatch):
    """Issue 34: the camera works without a network; the page keeps the scaled photo, says it waits
    for the Wi-Fi, and sends it (once) when the network returns."""
    room = Room(served, game="high-card", players=("Ann", "Ben"))
    room.act("host", "start")
    ann = room.open_phone(browser, "Ann")
    photo = tmp_path / "camera.jpg"
    camera_photo(photo)
    sent = []
    check = images.check_photo
    monkeypatch.setattr(images, "check_photo", lambda data: (sent.append(data), check(data))[1])
    ann.context.set_offline(True)
    ann.locator('input[type=file][data-photo-slot="card:1:1"]').set_input_files(str(photo))
    ann.wait_for_function("() => document.getElementById('toast').textContent.includes('Waiting for the Wi-Fi')")
    assert sent == [] and served.app.extensions["rooms"].store.photo(room.code, "card:1:1") is None
    ann.context.set_offline(False)
    ann.wait_for_function(SHOWN, arg="card:1:1", timeout=30_000)
    assert len(sent) == 1 and served.app.extensions["rooms"].store.photo(room.code, "card:1:1") is not None
