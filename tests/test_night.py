"""A table that lasts the night (issue 18, section 1): when a game ends the host picks the next one,
the same phones stay seated in the same order with the same tokens, the night's scoreboard is in
every view and exported, undo never crosses into a finished game, and players can sit a game out."""

from __future__ import annotations

import csv
import io

import pytest

from companion import create_app
from games import GAMES

from tests import toy_game


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(GAMES, toy_game.NAME, toy_game)


def play_high_card(t, cards):
    """A game of High Card to 2 points, each round played with ``cards``: its highest card wins
    both rounds, and the game."""
    for number in (1, 2):
        if number == 2:
            t.act("host", "next_round")
        for name, card in cards.items():
            t.act(name, "pick", card=card)


def test_the_next_game_keeps_every_phone_seated_in_its_order(toy, table):
    t = table("high-card", ("Ann", "Ben", "Cat"), options={"target": 2})
    refused = t.act("host", "next_game", expect=400, game="dixit")
    assert "Finish this game first" in refused["error"]  # a game in play is not dropped by a tap

    play_high_card(t, {"Ann": 3, "Ben": 6, "Cat": 1})
    assert t.view("host")["phase"] == "over"
    t.act("host", "next_game", game="dixit")
    lobby = t.view("Ben")
    assert lobby["game"] == "dixit" and lobby["phase"] == "lobby"
    assert [p["name"] for p in lobby["players"]] == ["Ann", "Ben", "Cat"]
    assert lobby["you"]["name"] == "Ben"  # the same token, no rescan
    assert lobby["night"] == [{"game": "high-card", "title": "High Card", "winners": ["Ben"],
                               "players": ["Ann", "Ben", "Cat"],
                               "places": [{"place": 1, "side": "Ben", "total": 2},
                                          {"place": 2, "side": "Ann", "total": 0},
                                          {"place": 2, "side": "Cat", "total": 0}],
                               "points": {"Ann": 0, "Ben": 2, "Cat": 0}, "ended_early": None}]

    assert "needs 4 to 6 players" in t.act("host", "start", expect=400)["error"]
    t.join("Dan")  # someone joins for the next game
    t.act("host", "start")
    assert [p["name"] for p in t.view("host")["players"]] == ["Ann", "Ben", "Cat", "Dan"]
    assert t.view("Dan")["night"] == lobby["night"]  # every view, the newcomer's too
    assert t.view(None)["night"] == lobby["night"]


def test_a_game_is_on_tonights_board_the_moment_it_ends_and_leaves_it_if_its_end_is_undone(toy, app, table):
    t = table("high-card", ("Ann", "Ben"), options={"target": 2})
    play_high_card(t, {"Ann": 5, "Ben": 2})
    ended = t.view("Ben")["night"]
    assert [(g["game"], g["winners"]) for g in ended] == [("high-card", ["Ann"])]  # before any next game
    exported = t.client.get(f"/api/v1/rooms/{t.code}/night", headers=t.headers("host")).get_json()
    assert [g["winners"] for g in exported["games"]] == [["Ann"]]
    t.act("host", "undo")  # Ben's last pick: the game is not over any more
    assert t.view("Ben")["night"] == []
    t.act("Ben", "pick", card=2)
    t.act("host", "next_game", game="high-card", options={"target": 2})
    assert t.view("Ben")["night"] == ended  # listed once, not twice


def test_undo_never_crosses_into_a_finished_game(toy, table):
    t = table("high-card", ("Ann", "Ben"), options={"target": 2})
    play_high_card(t, {"Ann": 5, "Ben": 2})
    t.act("host", "next_game", game="high-card", options={"target": 2})
    assert "nothing to undo" in t.act("host", "undo", expect=400)["error"]
    t.act("host", "start")
    t.act("Ann", "pick", card=4)
    t.act("host", "undo")  # Ann's pick in this game
    t.act("host", "undo")  # the start of this game: back to its lobby
    assert t.view("host")["phase"] == "lobby"
    assert "nothing to undo" in t.act("host", "undo", expect=400)["error"]
    assert [g["winners"] for g in t.view("host")["night"]] == [["Ann"]]


def test_a_seat_can_sit_a_game_out_and_play_the_next(toy, table):
    t = table("high-card", ("Ann", "Ben", "Cat"), options={"target": 2}, start=False)
    t.act("host", "sit_out", seat=t.seats["Cat"])
    assert [p["sitting_out"] for p in t.view("host")["players"]] == [False, False, True]
    t.act("host", "start")
    assert [p["name"] for p in t.view("host")["players"]] == ["Ann", "Ben"]
    cat = t.view("Cat")
    assert cat["you"] == {"seat": t.seats["Cat"], "name": "Cat", "sitting_out": True}
    assert "sit this game out" in t.act("Cat", "pick", expect=400, card=2)["error"]
    assert "lobby" in t.act("host", "sit_out", expect=400, seat=t.seats["Cat"], out=False)["error"]
    play_high_card(t, {"Ann": 1, "Ben": 4})
    t.act("host", "next_game", game="high-card", options={"target": 2})
    t.act("host", "sit_out", seat=t.seats["Cat"], out=False)
    t.act("host", "start")
    assert [p["name"] for p in t.view("host")["players"]] == ["Ann", "Ben", "Cat"]


@pytest.mark.parametrize("action, sentence", [
    ({"game": "chess"}, "Pick one of the games"),
    ({"game": 7}, "Pick one of the games"),
    ({"game": "dixit", "options": {"bonus": "sometimes"}}, ""),
    ({"game": "dixit", "extra": 1}, ""),
])
def test_a_next_game_the_table_cannot_play_gets_a_sentence_and_changes_nothing(toy, table, action, sentence):
    t = table("high-card", ("Ann", "Ben"), options={"target": 2})
    play_high_card(t, {"Ann": 5, "Ben": 2})
    before = t.view("host")
    answer = t.act("host", "next_game", expect=400, **action)
    assert sentence in answer["error"] and answer["error"]
    after = t.view("host")
    assert after["game"] == "high-card" and after["version"] == before["version"]


def test_only_the_host_picks_the_next_game(toy, table):
    t = table("high-card", ("Ann", "Ben"), options={"target": 2})
    play_high_card(t, {"Ann": 5, "Ben": 2})
    response = t.client.post(f"/api/v1/rooms/{t.code}/actions", json={"type": "next_game", "game": "dixit"},
                             headers=t.headers("Ann"))
    assert response.status_code in (400, 403) and t.view("host")["game"] == "high-card"


def test_the_night_survives_a_restart_and_is_exported_with_its_rounds(toy, app, table):
    t = table("high-card", ("Ann", "Ben"), options={"target": 2})
    play_high_card(t, {"Ann": 6, "Ben": 1})
    t.act("host", "next_game", game="dixit")

    again = create_app({"TESTING": True, "PUBLIC_URL": "http://192.0.2.10:8000"})  # a new server, same folder
    client = again.test_client(use_cookies=False)
    view = client.get(f"/api/v1/rooms/{t.code}", headers=t.headers("host")).get_json()
    assert view["game"] == "dixit" and [g["winners"] for g in view["night"]] == [["Ann"]]

    exported = client.get(f"/api/v1/rooms/{t.code}/night", headers=t.headers("host"))
    assert exported.status_code == 200
    game = exported.get_json()["games"][0]
    assert game["number"] == 1 and game["game"] == "high-card"
    assert [r["points"] for r in game["history"]] == [{"Ann": 1, "Ben": 0}, {"Ann": 1, "Ben": 0}]
    host = again.test_client()
    host.set_cookie(f"tch_{t.code}", t.host_token)
    rows = list(csv.reader(io.StringIO(host.get(f"/host/{t.code}/night.csv").get_data(as_text=True))))
    assert rows[0] == ["game", "title", "round", "side", "points", "place", "winner"]
    assert ["1", "High Card", "total", "Ann", "2", "1", "yes"] in rows
    assert ["1", "High Card", "2", "Ben", "0", "", ""] in rows
    for who in ("Ann", None):
        headers = t.headers(who) if who else {}
        assert client.get(f"/api/v1/rooms/{t.code}/night", headers=headers).status_code == 403


def test_the_screens_show_the_next_game_and_tonight_between_games(toy, app, table):
    t = table("high-card", ("Ann", "Ben", "Cat"), options={"target": 2})
    play_high_card(t, {"Ann": 2, "Ben": 6, "Cat": 1})
    host = app.test_client()
    host.set_cookie(f"tch_{t.code}", t.host_token)
    over = host.get(f"/host/{t.code}").get_data(as_text=True)
    assert 'id="pop-next"' in over and "High Card again" in over and '"next_game"' in over

    t.act("host", "next_game", game="dixit")
    lobby = host.get(f"/host/{t.code}").get_data(as_text=True)
    assert "Tonight" in lobby and "night.csv" in lobby and "sits this game out" in lobby
    # Both exports download (the CSV by its Content-Disposition, the JSON by its link): the TV
    # never shows raw JSON in place of the table.
    assert f'/api/v1/rooms/{t.code}/night" download="night-{t.code}.json"' in lobby
    phone = app.test_client()
    phone.set_cookie(f"tc_{t.code}", t.tokens["Cat"])
    mine = phone.get(f"/p/{t.code}").get_data(as_text=True)
    assert "Tonight" in mine and "Next: Dixit" in mine and "night.csv" not in mine

    t.act("host", "sit_out", seat=t.seats["Cat"])
    t.join("Dan", "Eve")
    t.act("host", "start")
    resting = phone.get(f"/p/{t.code}").get_data(as_text=True)
    assert "You sit this game out" in resting and "Tonight" in resting


def test_the_lobby_says_the_player_range_of_its_options_and_of_the_next_game(table):
    """Dixit takes 4 to 6, or 3 to 8 with the extended counts; Doodles, picked next, 3 to 7."""
    t = table("dixit", ("Ann", "Ben", "Cat", "Dan"), start=False)

    def player_range():
        view = t.view("host")
        return view["min_players"], view["max_players"]

    assert player_range() == (4, 6)
    t.act("host", "options", options={"extended_player_counts": True})
    assert player_range() == (3, 8)
    t.act("host", "next_game", game="doodles", options={})
    assert player_range() == (3, 7)


# --- The host ends a game early (issue 31) ---------------------------------------------------------

DIXIT = ("Ann", "Ben", "Cat", "Dan")


def dixit_round(t, storyteller, found_by=()):
    """One Dixit round at four: everyone claims a place (the storyteller 1), who is in ``found_by``
    votes for the storyteller's card and the others for the next free place; revealed."""
    others = [n for n in DIXIT if n != storyteller]
    t.act(storyteller, "claim", position=1)
    for place, name in enumerate(others, start=2):
        t.act(name, "claim", position=place)
    for name in others:
        t.act(name, "vote", position=1 if name in found_by else (2 if name != others[0] else 3))


def test_the_host_ends_dixit_after_two_rounds_and_the_night_keeps_them(table):
    t = table("dixit", DIXIT)
    dixit_round(t, "Ann", found_by=("Ben",))
    t.act("host", "next_round")
    dixit_round(t, "Ben", found_by=("Cat",))
    t.act("host", "next_round")
    t.act("Cat", "claim", position=1)  # round 3 in play: dropped
    playing = t.view("host")
    kept = playing["end_game"]
    assert kept["rounds"] == 2 and kept["standings"]["over"] is True
    totals = {n: 0 for n in DIXIT}
    for h in playing["history"]:
        for n, p in h["points"].items():
            totals[n] += p
    assert kept["standings"]["totals"] == totals
    best = max(totals.values())
    assert kept["winners"] == [n for n in DIXIT if totals[n] == best]
    assert "end_game" not in t.view("Ann") and "end_game" not in t.view(None)  # the host's alone

    t.act("host", "end_game")
    ended = t.view("host")
    assert ended["ended_early"] == {"rounds": 2} and ended["winners"] == kept["winners"]
    assert ended["can"] == [] and ended["waiting_for"] == [] and ended["standings"] == kept["standings"]
    assert ended["end_game"] is None and ended["undo"]["sentence"].startswith("Undo ending the game")
    refused = t.act("Dan", "claim", expect=400, position=4)
    assert "ended this game" in refused["error"]
    assert t.view("Dan")["can"] == []
    assert ended["night"] == [{"game": "dixit", "title": "Dixit", "winners": kept["winners"],
                               "players": list(DIXIT), "ended_early": 2, "points": totals,
                               "places": kept["standings"]["ranking"]}]
    exported = t.client.get(f"/api/v1/rooms/{t.code}/night", headers=t.headers("host")).get_json()
    assert [h["round"] for h in exported["games"][0]["history"]] == [1, 2]  # round 3: dropped

    t.act("host", "next_game", game="doodles")
    lobby = t.view("Ben")
    assert lobby["game"] == "doodles" and lobby["night"] == ended["night"]
    assert "nothing to undo" in t.act("host", "undo", expect=400)["error"]  # history now
    t.act("host", "start")  # the next game is played: nothing of the end is left on it
    doodles = t.view("host")
    assert doodles["ended_early"] is None and doodles["winners"] == [] and doodles["can"]
    assert doodles["night"] == ended["night"]


def test_undo_takes_the_end_back_until_the_next_game_starts(table):
    t = table("dixit", DIXIT)
    dixit_round(t, "Ann", found_by=("Ben",))
    t.act("host", "next_round")
    t.act("Ann", "claim", position=1)
    before = t.view("Ann")
    t.act("host", "end_game")
    t.act("host", "end_game")  # a repeated tap changes nothing
    t.act("host", "undo")
    after = t.view("Ann")
    assert after["ended_early"] is None and after["night"] == []
    assert {k: v for k, v in after.items() if k != "version"} == {k: v for k, v in before.items() if k != "version"}
    t.act("Ben", "claim", position=2)  # play goes on where it stopped
    assert t.view("host")["claimed"] == sorted([t.seats["Ann"], t.seats["Ben"]])


def test_a_game_over_or_not_started_cannot_be_ended_early(toy, table):
    t = table("high-card", ("Ann", "Ben"), options={"target": 2}, start=False)
    assert "not started" in t.act("host", "end_game", expect=400)["error"]
    t.act("host", "start")
    assert "Only the host" in t.act("Ann", "end_game", expect=400)["error"]
    play_high_card(t, {"Ann": 5, "Ben": 2})
    assert "over already" in t.act("host", "end_game", expect=400)["error"]
    assert t.view("host")["end_game"] is None


def test_the_dropped_rounds_secret_moves_are_in_no_view_page_or_export_after_ending(app, table):
    """Two tables alike but for Cat's secret claim and Ben's vote in the round in play: once the host
    ends the game, everyone else sees exactly the same at both (issue 31: ending reveals nothing)."""
    from tests.test_secrecy import page, same_but_code
    a, b = table(players=DIXIT), table(players=DIXIT)
    for t, claim, vote in ((a, 2, 2), (b, 3, 3)):  # Ann votes for Cat's card, wherever it is
        dixit_round(t, "Ann", found_by=("Ben",))
        t.act("host", "next_round")
        t.act("Ben", "claim", position=1)
        t.act("Cat", "claim", position=claim)
        t.act("Ann", "claim", position=5 - claim)
        t.act("Dan", "claim", position=4)
        t.act("Ann", "vote", position=vote)
        t.act("host", "end_game")
    client = app.test_client()
    for who in (None, "host", "Dan"):
        assert same_but_code(a.view(who), b.view(who)), who
        if who is not None:
            assert page(client, a, who) == page(client, b, who), who
    exports = [t.client.get(f"/api/v1/rooms/{t.code}/night", headers=t.headers("host")).get_json()["games"]
               for t in (a, b)]
    assert exports[0] == exports[1]


def test_again_keeps_the_last_games_options(table):
    t = table("doodles", ("Ann", "Ben", "Cat"), start=False)
    t.act("host", "options", options={"rounds": 3, "timer_seconds": 90})
    t.act("host", "start")
    t.act("host", "end_game")
    t.act("host", "next_game", game="doodles")
    again = t.view("host")["options"]
    assert again["rounds"] == 3 and again["timer_seconds"] == 90
    t.act("host", "next_game", game="dixit")
    t.act("host", "next_game", game="doodles", options={"rounds": 4})  # what the action says wins
    options = t.view("host")["options"]
    assert options["rounds"] == 4 and options["timer_seconds"] == 90


NOT_ADDED_BY_ENDING = {"version", "can", "waiting_for", "winners", "standings", "ended_early", "end_game", "undo",
                       "night"}


def _seated_room(name: str):
    """A room of ``name`` at its fewest players, started (the room's own entries, no server)."""
    from companion.rooms.room import Room, apply_entry
    engine = GAMES[name]
    room = apply_entry(Room(code="TEST", game=name), {"type": "create", "host": "h" * 64}, 0.0)
    for i in range(max(engine.player_range({})[0], 4 if name == "rorschach-teams" else 0)):
        room = apply_entry(room, {"type": "join", "name": "ABCDEFGH"[i] * 3, "token": f"{i:064d}"}, 0.0)
    return apply_entry(room, {"type": "start", "by": "host", "seed": 31}, 0.0)


@pytest.mark.parametrize("name", [*sorted(GAMES), toy_game.NAME])
def test_every_game_can_be_ended_in_every_phase_and_ending_shows_nothing_new(toy, name):
    """Random legal play (tests/test_contract.py's way): at the first state of every phase of every
    round, the host's end_game is taken; every view after it is the view before it but for the
    standings kept, nobody awaited and no move offered; the night records the rounds completed; a
    move is refused; undo gives back the very room; the next game can be picked."""
    from companion.rooms.room import apply_entry, tonight
    from companion.rooms.room import view as room_view
    from games.base import HOST, RuleError
    room, rng, seen = _seated_room(name), __import__("random").Random(31), set()
    engine, now = GAMES[name], 1000.0
    viewers = [None, HOST, *(s.seat for s in room.seats)]
    for _ in range(3000):
        over = bool(engine.view(room.state, None)["winners"])
        if over:
            break
        view = engine.view(room.state, None)
        key = (view["phase"], view.get("round"))
        if key not in seen:
            seen.add(key)
            ended = apply_entry(room, {"type": "end_game", "by": HOST}, now)
            kept = ended.ended_early
            assert kept is not None and kept.standings.over
            assert (not kept.rounds) == (not kept.standings.ranking) and (kept.rounds or not kept.winners)
            for who in viewers:
                before, after = room_view(room, who), room_view(ended, who)
                assert {k: v for k, v in after.items() if k not in NOT_ADDED_BY_ENDING} == \
                       {k: v for k, v in before.items() if k not in NOT_ADDED_BY_ENDING}, (key, who)
                assert after["can"] == [] and after["waiting_for"] == [] and after["ended_early"] == {"rounds": kept.rounds}
            record = tonight(ended)[-1]
            assert record["ended_early"] == kept.rounds and record["winners"] == list(kept.winners)
            actor, action = rng.choice(engine.legal_actions(room.state, now))
            with pytest.raises(RuleError):
                apply_entry(ended, {**action, "by": actor}, now)
            assert apply_entry(ended, {"type": "undo", "by": HOST}, now) == room
            picked = apply_entry(ended, {"type": "next_game", "by": HOST, "game": name}, now)
            assert not picked.started and picked.night[-1]["ended_early"] == kept.rounds
        actor, action = rng.choice(engine.legal_actions(room.state, now))
        room = apply_entry(room, {**action, "by": actor}, now)
        now += 1.0
    # Every phase but the last (the game over) was ended in, in random play; Doodles's and
    # Inkling's draw phase is met only with options this default table does not have.
    every = {p.value for p in engine.PHASES.phase} - {"over"}
    assert every - {phase for phase, _ in seen} <= {"draw"}, (name, seen)
    with pytest.raises(RuleError, match="over already"):
        apply_entry(room, {"type": "end_game", "by": HOST}, now)


def test_a_game_played_to_its_end_and_played_again_keeps_its_options(toy, table):
    t = table("high-card", ("Ann", "Ben"), options={"target": 2})
    play_high_card(t, {"Ann": 5, "Ben": 2})
    t.act("host", "next_game", game="high-card")  # "High Card again": no options sent
    assert t.view("host")["options"]["target"] == 2


@pytest.mark.parametrize("name", [*sorted(GAMES), toy_game.NAME])
def test_every_games_pages_show_the_game_ended_in_any_phase(toy, app, table, name):
    """Through the API and the pages: at the first state of each phase, the host ends the game;
    the host screen (with its Next game) and a phone render the ended game, then undo goes on."""
    import random
    import time
    engine, rng, seen = GAMES[name], random.Random(5), set()
    players = ("Ann", "Ben", "Cat", "Dan")[:max(3, engine.player_range({})[0])]
    t = table(name, players)
    rooms = app.extensions["rooms"]
    host, phone = app.test_client(), app.test_client()
    host.set_cookie(f"tch_{t.code}", t.host_token)
    phone.set_cookie(f"tc_{t.code}", t.tokens["Ben"])
    by_seat = {seat: n for n, seat in t.seats.items()}
    for _ in range(400):
        view = t.view("host")
        if view["winners"]:
            break
        key = (view["phase"], view.get("round"))
        if key not in seen:
            seen.add(key)
            kept = view["end_game"]
            page = host.get(f"/host/{t.code}").get_data(as_text=True)
            assert 'id="ask-end-game"' in page and 'data-ask="ask-end-game"' in page and 'id="ask-tonight"' in page
            t.act("host", "end_game")
            ended = host.get(f"/host/{t.code}").get_data(as_text=True)
            assert 'class="ended-early"' in ended and '"next_game"' in ended and 'data-phase="ended"' in ended
            mine = phone.get(f"/p/{t.code}").get_data(as_text=True)
            assert 'class="ended-early"' in mine and '"next_game"' not in mine
            assert t.view("host")["winners"] == kept["winners"]
            t.act("host", "undo")
        state = rooms.get(t.code).state
        for actor, action in rng.sample(engine.legal_actions(state, time.time()), k=1):
            who = "host" if actor == "host" else by_seat[actor]
            t.client.post(f"/api/v1/rooms/{t.code}/actions", json=action, headers=t.headers(who))
    assert len({phase for phase, _ in seen}) >= 2


def _completed(name, state):
    """The rounds each game's docstring says are completed in ``state`` (issue 31's decisions)."""
    phase = str(state.phase)
    if name == "doodles":  # a round counts once every doodle is revealed (its scores screen)
        return len(state.history) + (phase == "scores")
    if name == "inkling":  # scored once, at the review, for the three rounds
        return 3 if phase == "review" else 0
    return len(state.history)  # revealed (Dixit, Rorschach, High Card) or scored (teams) rounds


@pytest.mark.parametrize("name", [*sorted(GAMES), toy_game.NAME])
def test_the_round_in_play_is_dropped_and_the_completed_ones_kept_by_each_games_rule(toy, name):
    """Each game's ended_early, in random play: the rounds completed as its docstring decides, and
    the standings of those rounds alone, whatever the round in play has scored so far (a Doodles
    reveal half done, a Rorschach (teams) round waiting for its second guess)."""
    import random
    from games.base import Player
    engine, rng, now = GAMES[name], random.Random(11), 1000.0
    players = [Player(i + 1, n) for i, n in enumerate(("Ann", "Ben", "Cat", "Dan")[:max(3, engine.player_range({})[0])])]
    state = engine.setup(players, {}, 11)
    kept_at: dict[int, dict] = {}  # the totals when each count of rounds was first completed
    for _ in range(3000):
        if engine.view(state, None)["winners"]:
            break
        early = engine.ended_early(state)
        assert early.rounds == _completed(name, state), (name, state.phase)
        assert early.standings.over and (early.rounds or not early.winners)
        totals = dict(early.standings.totals)
        assert kept_at.setdefault(early.rounds, totals) == totals or name == "inkling", (name, state.phase)
        actor, action = rng.choice(engine.legal_actions(state, now))
        state = engine.apply(state, actor, action, now)
        now += 1.0
    assert len(kept_at) > 1
