"""The phone side of a round in WebKit, Safari's engine (every iPhone browser runs it), for every game.

One WebKitGTK phone (Selenium and WebKitWebDriver, on an Xvfb display; see tests/webkit.py) takes
a seat through the join page; the host and the other seats play over the JSON API. The phone sees
the start without a reload, makes the game's secret choice with its buttons, is put away (the
window minimised: the page is hidden, and app.js stops polling) while the table moves on twice,
catches up when it is shown again, and keeps its seat through a refresh. No script error, no
rejected promise and no toast may appear on the page on the way: what WebKit lacks (Wake Lock,
``navigator.vibrate``, audio before a tap) must degrade quietly.
"""

from __future__ import annotations

import time

import pytest

from tests.server import Server
from tests.webkit import Api, Phone, WebKit, Xvfb, require_webkit

pytestmark = pytest.mark.browser
LIVE_UPDATE = 15  # s: well under the 20 s a poll is held, so the start came with the held poll


@pytest.fixture(scope="module")
def webkit_server(tmp_path_factory):
    s = Server(tmp_path_factory.mktemp("webkit") / "instance").start()
    yield s
    s.kill()  # a stop would wait out the graceful timeout (5 s) for the phone's held poll


@pytest.fixture(scope="module")
def webkit(tmp_path_factory):
    """One WebKitGTK session for the module, on a display of its own."""
    require_webkit()
    display = Xvfb().start()
    try:
        session = WebKit(display.display, str(tmp_path_factory.mktemp("webkit-driver") / "driver.log"))
        try:
            yield session.driver
        finally:
            session.quit()
    finally:
        display.stop()


@pytest.fixture
def phone(webkit, webkit_server):
    phone = Phone(webkit, webkit_server.url)
    webkit.delete_all_cookies()  # a fresh phone: no seat of an earlier test
    phone.show()  # even if an earlier test failed while it was put away
    return phone


def started(api: Api, phone: Phone, css: str) -> float:
    """The host starts the game over the API; the seconds until the phone shows ``css``, with no reload."""
    before = phone.driver.execute_script("return performance.timeOrigin")
    t = time.monotonic()
    api.act("host", "start")
    phone.wait_for(css, timeout=LIVE_UPDATE)
    took = time.monotonic() - t
    assert phone.driver.execute_script("return performance.timeOrigin") == before  # the same page: no reload
    return took


def quiet(phone: Phone) -> None:
    assert phone.problems() == [], "the page met problems in WebKit"


# The host screen's ask to keep the screen on, watched: what WebKit answered, and whether the page
# handles a refusal (a handler given to the promise's then, which catch calls).
WATCH_WAKE_LOCK = """
window.__wake = navigator.wakeLock ? {asked: 0, outcome: null, handled: false} : {absent: true};
if (navigator.wakeLock) {
  // On the prototype: WebKit may drop a property set on navigator.wakeLock with its wrapper.
  var proto = Object.getPrototypeOf(navigator.wakeLock), request = proto.request, seen = window.__wake;
  proto.request = function (type) {
    seen.asked += 1;
    var answer = request.call(this, type), then = answer.then;
    answer.then = function (ok, bad) {
      if (typeof bad === "function") seen.handled = true;
      return then.call(answer, ok, bad);
    };
    then.call(answer, function () { seen.outcome = "granted"; }, function (e) { seen.outcome = "refused: " + e.name; });
    return answer;
  };
}
"""


def test_the_webkit_phone_notices_script_errors(phone, webkit_server):
    """The instrument first: an error thrown and a promise left rejected are both recorded."""
    phone.open("/")
    phone.driver.execute_script("setTimeout(function () { throw new Error('thrown here'); }, 0);"
                                "Promise.reject(new Error('rejected here'));")
    problems = phone.wait(lambda d: len(phone.problems()) >= 2 and phone.problems(), "both problems recorded")
    assert any("thrown here" in p for p in problems) and any("rejected here" in p for p in problems), problems


def test_dixit_phone_in_webkit(phone, webkit_server):
    api = Api(webkit_server.url, "dixit")
    api.join("Ann")  # the storyteller
    phone.join(api.code, "Ben")
    phone.wait_for_text("You're in!")
    api.join("Cat", "Dan")
    phone.wait_for_text("Dan")  # the lobby follows the table too

    took = started(api, phone, ".pad button[data-action]")
    # Ben's turn: sound.js buzzes (navigator.vibrate, which WebKit lacks) and chimes (no sound
    # before a tap): both must pass quietly.
    phone.wait(lambda d: d.execute_script("return document.documentElement.dataset.lastCue") == "turn",
               "the cue that it is Ben's turn")
    phone.tap_action(type="claim", position=2)  # Ben's card lies second
    phone.wait_for(".pad button.chosen")
    assert phone.driver.find_element("css selector", ".pad button.chosen").text.strip() == "2"

    phone.hide()
    api.act("Ann", "claim", position=1)
    phone.wait_for_text("Waiting for 2 more.")  # the poll held before hiding is still answered
    assert phone.polls_out() == 0  # and app.js asks no more while the page is hidden
    api.act("Cat", "claim", position=3)
    api.act("Dan", "claim", position=4)
    phone.show()  # only the poll app.js makes on visibilitychange can bring the vote
    phone.wait_for_text("Which card is Ann's?")
    assert phone.driver.find_element("css selector", ".pad button[disabled]").text.startswith("2")  # his own

    phone.tap_action(type="vote", position=1)
    phone.wait_for(".pad button.chosen")
    phone.reload()
    phone.wait_for_text("Which card is Ann's?")
    assert "Ben" in phone.driver.find_element("css selector", ".mine").text
    assert phone.driver.find_element("css selector", ".pad button.chosen").text.strip() == "1"

    api.act("Cat", "vote", position=1)
    api.act("Dan", "vote", position=2)
    phone.wait_for_text("This round you scored")
    assert "+4" in phone.driver.find_element("css selector", ".points").text  # 3 for Ann's card, 1 from Dan
    quiet(phone)
    print(f"dixit: the start reached the WebKit phone in {took:.2f} s")


def test_rorschach_phone_in_webkit(phone, webkit_server):
    api = Api(webkit_server.url, "rorschach")
    phone.join(api.code, "Ann")
    phone.wait_for_text("You're in!")
    api.join("Ben", "Cat")

    took = started(api, phone, ".rs-blot-pad button[data-blot]")
    phone.tap_action(type="pick", number=2)
    phone.wait_for(".rs-blot-pad button.chosen[data-blot='2']")

    phone.hide()
    api.act("Ben", "pick", number=2)
    phone.wait_for_text("Waiting for 1 player: Cat.")
    assert phone.polls_out() == 0
    api.act("Cat", "pick", number=1)
    phone.show()
    phone.wait_for_text("The reveal")
    assert "You picked 2, with Ben." in phone.text()

    phone.reload()
    phone.wait_for_text("You picked 2, with Ben.")
    assert "Ann" in phone.driver.find_element("css selector", ".mine").text
    api.act("host", "next_round", round=2)
    phone.wait_for(".rs-blot-pad button[data-blot]:not(.chosen)")
    assert "round 2" in phone.driver.find_element("css selector", ".mine").text
    quiet(phone)
    print(f"rorschach: the start reached the WebKit phone in {took:.2f} s")


def test_rorschach_teams_phone_in_webkit(phone, webkit_server):
    api = Api(webkit_server.url, "rorschach-teams")
    phone.join(api.code, "Ann")
    phone.wait_for_text("You're in!")
    api.join("Ben", "Cat", "Dan")

    took = started(api, phone, ".rt-phone[data-role-in-round=test_subject]")  # Ann's team tests first
    view = api.view()
    control = next(p["name"] for p in view["players"] if p["seat"] in view["teams"][view["control_team"]]["members"])
    guesser = next(p["name"] for p in view["players"]
                   if p["seat"] in view["teams"][view["test_team"]]["members"] and p["name"] != "Ann")
    api.act("host", "hide", image=4)
    phone.wait_for("form[data-matching]")
    for image, word in (("1", "A"), ("2", "B"), ("3", "C")):  # the secret matching, on this phone only
        phone.tap(f"label[for=m-{image}-{word}]")
    phone.tap("[data-match-send]")
    phone.accept_dialog()  # "Place your markers? They cannot be moved."
    phone.wait_for_text("team is guessing")

    phone.hide()
    api.act(guesser, "guess", image=1, word="A")
    phone.wait_for_text("The guess:")
    assert phone.polls_out() == 0
    api.act(control, "control_guess", word="B")  # the control team says another word: a second guess
    phone.show()
    phone.wait_for_text("First guess: image 1 is A")

    phone.reload()
    phone.wait_for_text("First guess: image 1 is A")
    assert "Ann" in phone.driver.find_element("css selector", ".mine").text
    markers = phone.driver.find_element("css selector", ".rt-images").text
    assert "your marker:" in markers and "C" in markers  # her matching, still hers after the refresh
    api.act(guesser, "guess", image=2, word="B")
    phone.wait_for("[data-result-row]")
    quiet(phone)
    print(f"rorschach-teams: the start reached the WebKit phone in {took:.2f} s")


def test_doodles_phone_in_webkit(phone, webkit_server):
    api = Api(webkit_server.url, "doodles", {"timer_seconds": 10})
    phone.join(api.code, "Ann")
    phone.wait_for_text("You're in!")
    api.join("Ben", "Cat")

    took = started(api, phone, ".dd-secret .dd-secret-num")
    mine = int(phone.driver.find_element("css selector", ".dd-secret-num").text)  # Ann's secret number
    phone.hide()
    api.act("host", "start_timer")
    phone.wait_for("[data-hourglass][data-phase=doodle]")
    assert phone.polls_out() == 0
    api.act("host", "pause_timer")
    phone.show()
    phone.wait_for("[data-hourglass][data-paused='1']")

    # The hourglass runs out on the phone before anyone touched this page: the beep is audio
    # before a tap, which WebKit does not play; it must pass quietly.
    api.act("host", "resume_timer")
    phone.wait_for(".after-time:not([hidden]) .dd-ballot", timeout=30)
    assert "Pencils down!" in phone.driver.find_element("css selector", "[data-hourglass]").text
    subjects = {name: api.view(name)["you"]["subject"] for name in ("Ben", "Cat")}
    for name, subject in subjects.items():  # the secret votes, by the ballot's buttons
        phone.tap_action(type="vote", artist=api.seats[name], subject=subject)
        phone.wait_for(f"button.chosen[aria-label^='{name}: {subject}']")

    phone.reload()
    cat = subjects["Cat"]
    phone.wait_for(f"button.chosen[aria-label^='Cat: {cat}']")
    assert "Ann" in phone.driver.find_element("css selector", ".mine").text
    ann = api.seat_of("Ann")
    api.act("Ben", "vote", artist=ann, subject=mine)
    api.act("Ben", "vote", artist=api.seats["Cat"], subject=subjects["Cat"])
    api.act("Cat", "vote", artist=ann, subject=mine)
    api.act("Cat", "vote", artist=api.seats["Ben"], subject=subjects["Ben"])
    phone.wait_for_text("This round so far")
    quiet(phone)
    print(f"doodles: the start reached the WebKit phone in {took:.2f} s")


def test_inkling_phone_in_webkit(phone, webkit_server):
    api = Api(webkit_server.url, "inkling")
    phone.join(api.code, "Ann")
    phone.wait_for_text("You're in!")
    api.join("Ben", "Cat")

    took = started(api, phone, ".ik-card .clue")
    phone.tap_action(type="finish_arranging")
    api.act("Ben", "finish_arranging")
    api.act("Cat", "finish_arranging")
    field = phone.wait_for("form[data-guess] input[name=word]")
    field.send_keys("lantern")  # the secret guess, typed and added
    phone.tap("form[data-guess] button[type=submit]")
    phone.wait_for_text("1 of 7 used")
    phone.tap_action(type="finish_guessing")
    phone.wait_for_text("Done guessing.")

    phone.hide()
    api.act("Ben", "finish_guessing")
    phone.wait_for_text("Waiting for 1 more.")
    assert phone.polls_out() == 0
    api.act("Cat", "finish_guessing")
    phone.show()
    phone.wait_for_text("round 2 of 3")

    phone.reload()
    phone.wait_for(".ik-lines li.locked")
    assert "lantern" in phone.driver.find_element("css selector", ".ik-lines li.locked").text
    assert "Ann" in phone.driver.find_element("css selector", ".mine").text
    quiet(phone)
    print(f"inkling: the start reached the WebKit phone in {took:.2f} s")


def test_host_screen_in_webkit_goes_on_without_a_wake_lock(phone, webkit_server):
    """The host screen asks to keep the screen on when it is shown; WebKit refuses (it wants a
    tap first, or HTTPS on a table's Wi-Fi address, where the API is absent): nothing is said."""
    api = Api(webkit_server.url, "dixit")
    phone.open(f"/host/{api.code}/key/{api.tokens['host']}")
    phone.wait_for(".qr-box > img")
    phone.driver.execute_script(WATCH_WAKE_LOCK)
    api.join("Ann")
    phone.wait_for(".seats li")  # the screen follows the table
    # The page's own rendered text (WebKitWebDriver's element text leaves out a text clipped by
    # overflow: hidden, as a seat's name is for its ellipsis, though WebKit draws it).
    assert "Ann" in phone.driver.execute_script("return document.querySelector('.seats').innerText")
    phone.hide()
    phone.show()  # app.js asks again whenever the page is shown
    wake = phone.wait(lambda d: d.execute_script("var w = window.__wake; return (w.absent || w.asked) && w"),
                      "the page to ask for the wake lock")
    assert wake.get("absent") or wake["handled"], wake  # a refusal (WebKit's answer here) is caught
    api.join("Ben")
    phone.wait_for_text("Ben")  # and the screen goes on
    quiet(phone)
    print(f"host screen: the wake lock in WebKit: {phone.driver.execute_script('return window.__wake')}")
