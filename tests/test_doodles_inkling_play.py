"""Doodles and Inkling through the JSON API and the live pages (issue 5).

Whole games played with the Flask test client; secrets (a seat's subject number and word, its
clue card, guesses and ink hand) invisible to every other seat and to the host until the reveal;
bad input answered with a sentence that changes nothing.
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import host_code_shown

DOODLERS = ("Ann", "Ben", "Cat")
INKERS = ("Ann", "Ben", "Cat")




@pytest.fixture
def seeded(monkeypatch):
    """Start games with a chosen seed: ``seeded(n)`` before the host's "start"."""
    import companion.rooms.service as service

    def use(seed):
        monkeypatch.setattr(service.secrets, "randbits", lambda bits: seed)
    return use


def page(client, t, who):
    """The live fragment a viewer's screen shows, with the room code (and the host code) taken out."""
    token = t.host_token if who == "host" else t.tokens[who]
    cookie = f"tch_{t.code}" if who == "host" else f"tc_{t.code}"
    path = f"/host/{t.code}/live" if who == "host" else f"/p/{t.code}/live"
    client.set_cookie(cookie, token)
    response = client.get(path)
    client.delete_cookie(cookie)
    assert response.status_code == 200
    shown = host_code_shown(client.application, t.code)  # the host screen's, made from the code
    return response.get_data(as_text=True).replace(t.code, "CODE").replace(token, "TOKEN").replace(shown, "HOST CODE")


def refused(t, who, type_, contains, **payload):
    """The action gets a sentence (containing ``contains``) and the room stays as it was."""
    before = t.view("host")["version"]
    data = t.act(who, type_, expect=400, **payload)
    assert contains in data["error"], data["error"]
    assert data["error"].rstrip().endswith((".", "!", "?")), data["error"]
    assert t.view("host")["version"] == before
    return data["error"]


def without(view, *keys):
    """The view but for the room's code (the photos' addresses carry it too) and ``keys``."""
    kept = json.dumps({k: v for k, v in view.items() if k not in ("code", *keys)})
    return json.loads(kept.replace(f"/rooms/{view['code']}/", "/rooms/CODE/"))


# --- Doodles -------------------------------------------------------------------------------------


def test_a_whole_doodles_game_through_the_api_with_every_screen_rendered(app, table, clock):
    t = table(game="doodles", players=DOODLERS, options={"rounds": 2})
    seats = t.seats
    web = app.test_client()
    for number in (1, 2):
        host = t.view("host")
        assert host["phase"] == "subject" and host["round"] == number
        assert len(host["subject_card"]["words"]) == 3
        for who in ("host", *DOODLERS):
            page(web, t, who)
        secrets = {n: t.view(n)["you"] for n in DOODLERS}
        assert all(s["word"] == host["subject_card"]["words"][s["subject"] - 1] for s in secrets.values())
        refused(t, "Ann", "vote", "Voting starts", artist=seats["Ben"], subject=1)
        t.act("host", "start_timer")
        assert t.view("host")["timer"]["deadline"] == clock.now + 30
        page(web, t, "host"), page(web, t, "Ann")
        refused(t, "Ann", "vote", "time is up", artist=seats["Ben"], subject=1)
        clock.now += 31
        # Ann votes right for everyone, Ben wrong for everyone, Cat right for Ann only.
        for voter in DOODLERS:
            for artist in DOODLERS:
                if artist == voter:
                    continue
                truth = secrets[artist]["subject"]
                wrong = truth % 3 + 1
                choice = truth if voter == "Ann" or (voter == "Cat" and artist == "Ann") else wrong
                if voter == "Ann" and artist == "Ben":
                    t.act(voter, "vote", artist=seats[artist], subject=wrong)  # changed next
                t.act(voter, "vote", artist=seats[artist], subject=choice)
            if voter != "Cat":
                assert t.view("host")["phase"] == "vote"
                page(web, t, "host"), page(web, t, voter)
        host = t.view("host")
        assert host["phase"] == "reveal" and host["reveal"]["revealed"] == []
        assert all(p["voted"] for p in host["players"])
        for artist in DOODLERS:
            t.act("host", "reveal", artist=seats[artist])
            t.act("host", "reveal", artist=seats[artist])  # a repeated tap changes nothing
            for who in ("host", *DOODLERS):
                page(web, t, who)
        host = t.view("host")
        entries = {e["name"]: e for e in host["reveal"]["revealed"]}
        assert [e["name"] for e in host["reveal"]["revealed"]] == list(DOODLERS)
        assert entries["Ann"]["guessed"] == 1 and entries["Ann"]["artist_points"] == 1
        assert entries["Ben"]["guessed"] == 1 and entries["Ben"]["artist_points"] == 1
        assert entries["Cat"]["guessed"] == 1 and entries["Cat"]["artist_points"] == 1
        points = {p["name"]: p["points"] for p in host["round_points"]}
        # Ann: +2 right votes, +1 as artist; Ben: -2 wrong, +1; Cat: +1 -1, +1.
        assert points == {"Ann": 3, "Ben": -1, "Cat": 1}
        refused(t, "Ben", "vote", "can no longer be changed", artist=seats["Ann"],
                subject=secrets["Ann"]["subject"])
        if number == 1:
            assert host["phase"] == "scores"
            t.act("host", "next_round", round=2)
            t.act("host", "next_round", round=2)  # harmless repeat
    host = t.view("host")
    assert host["phase"] == "over"
    assert host["winners"] == ["Ann"]
    assert [r["name"] for r in host["ranking"]] == ["Ann", "Cat", "Ben"]
    assert {p["name"]: p["score"] for p in host["players"]} == {"Ann": 6, "Ben": -2, "Cat": 2}
    assert "Ann wins" in page(web, t, "host") and 'class="podium' in page(web, t, "host")
    assert "Ann wins" in page(web, t, "Ben")
    refused(t, "host", "start_timer", "The game is over")


def test_doodles_bad_input_gets_a_sentence_and_changes_nothing(app, table, clock):
    t = table(game="doodles", players=DOODLERS, options={"doodle_on_phone": True})
    seats = t.seats
    t.act("host", "start_timer")
    t.act("Ann", "doodle", doodle="M10 10l5 5")
    clock.now += 31
    refused(t, "Ann", "doodle", "Pencils down", doodle="M10 10l5 5l3 3")  # after the timer
    refused(t, "Ann", "vote", "your own doodle", artist=seats["Ann"], subject=1)
    refused(t, "Ann", "vote", "1, 2 or 3", artist=seats["Ben"], subject=4)
    refused(t, "Ann", "vote", "Nobody sits", artist=99, subject=1)
    refused(t, "Ann", "reveal", "Only the host")
    refused(t, "host", "reveal", "once everyone has voted")
    refused(t, "host", "next_round", "Finish revealing")
    t.act("Ann", "vote", artist=seats["Ben"], subject=1)
    refused(t, "host", "restart_timer", "Voting has begun")
    host = t.view("host")
    assert host["doodles"][0]["doodle"] == "M10 10l5 5"
    page_html = page(app.test_client(), t, "host")
    assert "M10 10l5 5" in page_html  # the doodles side by side for the vote


def test_the_hourglass_pauses_resumes_and_restarts_and_pencils_down_ends_it(table, clock):
    t = table(game="doodles", players=DOODLERS)
    t.act("host", "start_timer")
    clock.now += 10
    t.act("host", "pause_timer")
    timer = t.view("host")["timer"]
    assert timer["paused"] and timer["paused_remaining"] == 20
    refused(t, "Ann", "vote", "paused", artist=t.seats["Ben"], subject=1)
    clock.now += 100
    t.act("host", "resume_timer")
    assert t.view("host")["timer"]["deadline"] == clock.now + 20
    t.act("host", "restart_timer")
    assert t.view("host")["timer"]["deadline"] == clock.now + 30
    t.act("host", "pencils_down")
    t.act("host", "pencils_down")  # the host screens all send it at zero: harmless
    view = t.view("Ann")
    assert view["phase"] == "vote" and view["timer"]["pencils_down"]


def test_physical_subject_cards_typed_or_numbers_only(app, table):
    t = table(game="doodles", players=DOODLERS, options={"subject_cards": "physical"})
    assert t.view("Ann")["you"]["word"] is None
    assert "Numbers only" in page(app.test_client(), t, "host")
    t.act("host", "subject_card", words=["stool", "chair", "bench"])
    you = t.view("Ann")["you"]
    assert you["word"] == ["stool", "chair", "bench"][you["subject"] - 1]
    refused(t, "host", "subject_card", "all three words", words=["stool", ""])


def test_a_doodlers_number_and_word_are_secret_until_their_reveal(app, table, clock, seeded):
    # Seeds 6 and 15 deal the same tokens to Ann, Ben and Dan, and a different one to Cat.
    players = ("Ann", "Ben", "Cat", "Dan")
    tables = []
    for seed in (6, 15):
        seeded(seed)
        t = table(game="doodles", players=players, options={"subject_cards": "physical"})
        t.act("host", "subject_card", words=["stool", "chair", "bench"])
        tables.append(t)
    a, b = tables
    assert a.view("Cat")["you"]["subject"] != b.view("Cat")["you"]["subject"]
    web = app.test_client()

    def same_for_everyone_but_cat():
        for who in (None, "host", "Ann", "Ben", "Dan"):
            assert without(a.view(who)) == without(b.view(who)), who
            if who:
                assert page(web, a, who) == page(web, b, who), who

    same_for_everyone_but_cat()
    for t in tables:
        t.act("host", "start_timer")
    clock.now += 31
    for t in tables:
        for voter in players:
            for artist in players:
                if artist != voter and not (voter == "Dan" and artist == "Cat"):
                    t.act(voter, "vote", artist=t.seats[artist], subject=1)
    same_for_everyone_but_cat()  # Cat's word, and the votes on it, while the voting goes on
    for t in tables:
        t.act("Dan", "vote", artist=t.seats["Cat"], subject=1)
        t.act("host", "reveal", artist=t.seats["Ann"])
        t.act("host", "reveal", artist=t.seats["Ben"])
    # Ann and Ben revealed: Cat is still secret (the points of Dan's... no: Cat is next).
    for who in (None, "host", "Ann", "Ben", "Dan"):
        va, vb = a.view(who), b.view(who)
        assert va["reveal"] == vb["reveal"], who
        if who:
            assert page(web, a, who) == page(web, b, who), who
    for t in tables:
        t.act("host", "reveal", artist=t.seats["Cat"])
    assert a.view("host")["reveal"]["revealed"][2]["subject"] != b.view("host")["reveal"]["revealed"][2]["subject"]


def test_votes_are_secret_until_the_reveal(app, table, clock, seeded):
    tables = []
    for vote in (1, 3):
        seeded(7)
        t = table(game="doodles", players=DOODLERS)
        t.act("host", "start_timer")
        tables.append((t, vote))
    clock.now += 31
    for t, vote in tables:
        t.act("Ben", "vote", artist=t.seats["Ann"], subject=vote)
    (a, _), (b, _) = tables
    web = app.test_client()
    for who in (None, "host", "Ann", "Cat"):
        assert without(a.view(who)) == without(b.view(who)), who
        if who:
            assert page(web, a, who) == page(web, b, who), who


# --- Inkling -------------------------------------------------------------------------------------


def clue_words(t, name):
    return [c["word"] for c in t.view(name)["you"]["clue_card"]]


def test_a_whole_inkling_game_with_virtual_ink_through_the_api(app, table):
    t = table(game="inkling", players=INKERS, options={"ink_cards": "virtual"})
    seats = t.seats
    web = app.test_client()
    cards = {n: t.view(n)["you"]["clue_card"] for n in INKERS}
    left = {n: t.view(n)["you"]["sheet"]["left"]["name"] for n in INKERS}
    assert left == {"Ann": "Ben", "Ben": "Cat", "Cat": "Ann"}
    for rnd in (1, 2, 3):
        host = t.view("host")
        assert host["phase"] == "arrange" and host["round"] == rnd
        hand = t.view("Ann")["you"]["hand"]
        assert len(hand) == 8 + (0 if rnd == 1 else 3 * (rnd - 1))
        t.act("Ann", "arrange", cards=[{"card": hand[0]["card"], "x": 10, "y": 50},
                                        {"card": hand[1]["card"], "x": 20, "y": 50, "face_down": True}])
        for who in ("host", *INKERS):
            page(web, t, who)
        for n in INKERS:
            t.act(n, "finish_arranging")
        assert t.view("host")["phase"] == "guess"
        # Round 1: Ann guesses Ben's first two words and a wrong one; later rounds one word each.
        ben, cat = cards["Ben"], cards["Cat"]
        if rnd == 1:
            t.act("Ann", "guess", neighbour=seats["Ben"], word=ben[0]["word"].upper())
            t.act("Ann", "guess", neighbour=seats["Ben"], word="zzzq")
            t.act("Ann", "guess", neighbour=seats["Ben"], word=ben[1]["word"] + "s")  # a near miss
            t.act("Ben", "guess", neighbour=seats["Cat"], word=cat[5]["word"])
        elif rnd == 2:
            t.act("Cat", "guess", neighbour=seats["Ann"], word=cards["Ann"][2]["word"])
            refused(t, "Ann", "guess", "earlier rounds", neighbour=seats["Ben"], slot=2, word="other")
        for who in ("host", *INKERS):
            page(web, t, who)
        for n in INKERS:
            t.act(n, "finish_guessing")
        if rnd < 3:
            assert t.view("host")["phase"] == "draw"
            hand = [c["card"] for c in t.view("Ann")["you"]["hand"]]
            refused(t, "Ann", "put_back", "at most 2", cards=hand[:3])
            page(web, t, "Ann")
            t.act("Ann", "put_back", cards=hand[:2])
            t.act("Ben", "put_back", cards=[])
            page(web, t, "host")
            t.act("Cat", "put_back", cards=hand[:0])
            assert all(c not in [h["card"] for h in t.view("Ann")["you"]["hand"]] for c in hand[:2])
    host = t.view("host")
    assert host["phase"] == "review"
    sheets = {s["name"]: s for s in host["scoresheets"]}
    ann_for_ben = sheets["Ann"]["neighbours"][0]
    assert ann_for_ben["name"] == "Ben"
    near = [g for g in ann_for_ben["guesses"] if g["near_miss"]]
    html = page(web, t, "host")
    assert f"Accept as {ben[1]['word']}?" in html
    before = sheets["Ann"]["total"]
    t.act("host", "accept", guesser=seats["Ann"], neighbour=seats["Ben"], slot=near[0]["slot"],
          clue=near[0]["near_miss"])
    after = {s["name"]: s for s in t.view("host")["scoresheets"]}
    assert after["Ann"]["total"] == before + ben[1]["value"]
    assert after["Ann"]["neighbours"][0]["guessing"] == ben[0]["value"] + ben[1]["value"]
    # Ben's ink score for Ann is Ann's guessing score for Ben.
    assert after["Ben"]["neighbours"][1]["ink"] == ben[0]["value"] + ben[1]["value"]
    for who in ("host", *INKERS):
        page(web, t, who)
    t.act("host", "confirm_scores")
    host = t.view("host")
    assert host["phase"] == "over" and host["winners"]
    assert "win" in page(web, t, "host") and "Your total" in page(web, t, "Ann")
    refused(t, "Ann", "guess", "game is over", neighbour=seats["Ben"], word="late")


def test_an_inkling_review_at_no_points_names_no_leader(app, table):
    """A "lead" at 0 points would be the tie-break (the fewest guesses) alone: the host says so."""
    t = table(game="inkling", players=INKERS)
    for rnd in (1, 2, 3):
        for step in ("finish_arranging", "finish_guessing"):
            if rnd == 1 and step == "finish_guessing":
                t.act("Ann", "guess", neighbour=t.seats["Ben"], word="zzzq")
            for n in INKERS:
                t.act(n, step)
    assert t.view("host")["phase"] == "review" and t.view("host")["lead"] is None
    html = page(app.test_client(), t, "host")
    assert "No points yet." in html and "Leading now" not in html


def test_inkling_bad_input_gets_a_sentence_and_changes_nothing(table):
    players = ("Ann", "Ben", "Cat", "Dan")
    t = table(game="inkling", players=players)
    seats = t.seats
    refused(t, "Ann", "guess", "Guessing starts", neighbour=seats["Ben"], word="tree")
    for n in players:
        t.act(n, "finish_arranging")
    refused(t, "Ann", "guess", "players next to you", neighbour=seats["Cat"], word="tree")
    for k in range(7):
        t.act("Ann", "guess", neighbour=seats["Ben"], word=f"word{k}")
    refused(t, "Ann", "guess", "all 7 guesses", neighbour=seats["Ben"], word="eighth")
    refused(t, "Ann", "guess", "have only 7", neighbour=seats["Ben"], slot=8, word="eighth")
    refused(t, "Ann", "put_back", "not in the app", cards=[])
    refused(t, "Ann", "accept", "Only the host", guesser=seats["Ann"], neighbour=seats["Ben"], slot=1, clue="x")
    refused(t, "host", "confirm_scores", "after the third round")
    view = t.view("Ann")["you"]["sheet"]["left"]
    assert (view["used"], view["limit"]) == (7, 7)  # the page words it: "7 of 7 used"


def test_inkling_secrets_are_invisible_to_others_until_the_clue_cards_are_revealed(app, table, seeded):
    # The same deal at two tables; Cat guesses and puts back differently at each.
    tables = []
    for _variant in (0, 1):
        seeded(11)
        t = table(game="inkling", players=("Ann", "Ben", "Cat", "Dan"), options={"ink_cards": "virtual"})
        tables.append(t)
    a, b = tables
    web = app.test_client()
    for variant, t in enumerate(tables):
        hand = [c["card"] for c in t.view("Cat")["you"]["hand"]]
        t.act("Cat", "arrange", cards=[{"card": hand[variant], "x": 5, "y": 5, "face_down": True}])
        for n in ("Ann", "Ben", "Cat", "Dan"):
            t.act(n, "finish_arranging")
        t.act("Cat", "guess", neighbour=t.seats["Dan"], word=["apple", "pear"][variant])
        t.act("Cat", "guess", neighbour=t.seats["Ben"], word=["one", "two"][variant])
        for n in ("Ann", "Ben", "Cat", "Dan"):
            t.act(n, "finish_guessing")
        t.act("Cat", "put_back", cards=[hand[variant]])
    others = (None, "host", "Ann", "Ben", "Dan")
    for who in others:
        assert without(a.view(who)) == without(b.view(who)), who
        if who:
            assert page(web, a, who) == page(web, b, who), who
    assert a.view("Cat")["you"]["put_back"] != b.view("Cat")["you"]["put_back"]
    # Nobody else's screen names a word of Cat's clue card that is not also on their own card.
    cat_words = set(clue_words(a, "Cat"))
    for who in others:
        own = set(clue_words(a, who)) if who not in (None, "host") else set()
        shown = page(web, a, who) if who else str(a.view(None))
        for word in cat_words - own:
            assert f">{word}<" not in shown and f" {word}</" not in shown, (who, word)
        assert "clue_card" not in {k for k in a.view(who) if k != "you"}
    # After the draw Cat's hand differs; nobody else can tell.
    for t in tables:
        for n in ("Ann", "Ben", "Dan"):
            t.act(n, "put_back", cards=[])
    assert a.view("Cat")["you"]["hand"] != b.view("Cat")["you"]["hand"]
    for who in others:
        assert without(a.view(who)) == without(b.view(who)), who
        if who:
            assert page(web, a, who) == page(web, b, who), who
