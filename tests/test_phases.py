"""The phase machine each game declares (games/base.py, :class:`Phases`), checked in random play:

- for every state reached and every viewer who can act (each seat, the host), the moves the view
  offers (``can``) are exactly the moves ``apply`` accepts: an offered move has at least one
  accepted instance, and a move not offered is refused (or, a repeat of what is in effect, changes
  nothing: the contract's "repeating a move already in effect returns an equal state");
- a move of another phase is refused with the phase's one sentence, "The game is over." once over;
- ``waiting_for`` is the phase's awaited seats, and the prompted seats include them;

and, per game, that the table declares every phase of the game's ``Phase`` and allows every move
somewhere. The instances tried are the moves random play has sampled so far (``legal_actions`` of
every state, from every actor), the moves of the state now from any actor, a move naming what
another move names, and those made from the models alone (no field, or a seat: each seat), so a
move is tried by viewers it was not sampled for too. A view has no clock: an offered move need
be accepted at some time of the phase (a vote once the hourglass has run out, a doodle before),
and a move not offered may be accepted only because the time is up. The default run plays a few
option sets per game; every option of every game is under ``sweep``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import GAMES
from games.base import GAME_OVER, HOST, TABLE, Phases, Player, RuleError, kind_of, prompted_seats
from tests import toy_game
from tests.test_contract import NAMES, NOW, cases, viewers

ENGINES: dict[str, Any] = {**GAMES, toy_game.NAME: toy_game}
PHASED = sorted(name for name, engine in ENGINES.items() if isinstance(getattr(engine, "PHASES", None), Phases))
MAX_STEPS = 4000
TRIED = 8  # instances of each kind of move tried per viewer and state, sampled ones
SEEDED = 16  # and the first ones of the pool, made from the models (:func:`seeded_pool`)
LATER = 10**7  # seconds: a time by which every hourglass has run out (and, before now, none had)


def sampled_cases(per_game: int = 3) -> list[Any]:
    """The defaults and a few other option sets of each game, chosen by a seeded draw."""
    out = []
    for name in PHASED:
        mine = cases_of(name)
        rng = random.Random(name)
        out += mine[:1] + rng.sample(mine[1:], min(per_game - 1, len(mine) - 1))
    return out


def cases_of(name: str) -> list[Any]:
    if name == toy_game.NAME:
        return [pytest.param(name, {}, 2, id=f"{name}-defaults-2p"), pytest.param(name, {"target": 5}, 6,
                                                                                  id=f"{name}-target=5-6p")]
    return [case for case in cases() if case.values[0] == name]


def _outcome(engine: Any, state: Any, actor: Any, move: dict, now: float) -> str:
    """``"refused"``, ``"same"`` (accepted, nothing changed) or ``"changed"``."""
    try:
        after = engine.apply(state, actor, move, now)
    except RuleError:
        return "refused"
    return "same" if after == state else "changed"


def check_can_is_what_apply_accepts(engine: Any, state: Any, players: list[Player], pool: dict[str, list[dict]],
                                    rng: random.Random, now: float) -> None:
    kinds = sorted(engine.ACTIONS.models)
    mine: dict[Any, dict[str, list[dict]]] = {}
    for actor, move in [m for when in (now, now - LATER, now + LATER) for m in engine.legal_actions(state, when)]:
        if move not in mine.setdefault(actor, {}).setdefault(move["type"], []):
            mine[actor][move["type"]].append(move)
    for viewer in viewers(players):
        if viewer is TABLE:
            continue
        offered = set(engine.view(state, viewer)["can"])
        for kind in kinds:
            own = mine.get(viewer, {}).get(kind, [])
            seeded = [m for m in pool.get(kind, [])[:SEEDED] if m.keys() <= {"type", "seat"} and m not in own]
            theirs = [m for moves in mine.values() for m in moves.get(kind, [])]  # another actor's, now
            others = [m for m in pool.get(kind, []) + theirs + _alike(engine, kind, mine)
                      if m not in own and m not in seeded]
            tried = own[:TRIED] + seeded + rng.sample(others, min(TRIED, len(others)))
            outcomes = [(_outcome(engine, state, viewer, m, now), m) for m in tried]
            if kind in offered:  # at some time of the phase: a view has no clock
                accepted = any(o != "refused" for o, _ in outcomes) or any(
                    _outcome(engine, state, viewer, m, when) != "refused" for m in tried
                    for when in (now - LATER, now + LATER))
                assert accepted, f"{engine.NAME} {state.phase}: {viewer} is offered {kind}, none accepted: {tried}"
            else:  # taken now only because the hourglass has run out (a vote): the clock's, not the view's
                taken = [m for o, m in outcomes if o == "changed"
                         and _outcome(engine, state, viewer, m, now - LATER) == "changed"]
                assert not taken, f"{engine.NAME} {state.phase}: {viewer} is not offered {kind}, accepted {taken}"


def check_other_phases_refused(engine: Any, state: Any, players: list[Player], pool: dict[str, list[dict]],
                               now: float) -> None:
    """Each move the phase does not take is refused with the phase's sentence for it."""
    during = engine.PHASES.of(state)
    if state.phase == "over":
        assert during.refusal == GAME_OVER
    for model in set(engine.ACTIONS.models.values()) - set(during.moves):
        actor = HOST if model.by == "host" else players[0].seat
        for move in pool.get(kind_of(model), [])[:3]:
            read = engine.ACTIONS.read(move)
            try:  # a repeat's test may itself refuse (who makes the move, what it names)
                repeat = model in during.repeats and during.repeats[model](state, actor, read)
            except RuleError as error:
                expected = error.msgid
            else:
                if repeat:
                    assert engine.apply(state, actor, move, now) is state
                    continue
                expected = during.refusal_of(model, state).msgid
            with pytest.raises(RuleError) as refused:
                engine.apply(state, actor, move, now)
            assert refused.value.msgid == expected, (state.phase, move)


def _alike(engine: Any, kind: str, mine: dict[Any, dict[str, list[dict]]]) -> list[dict]:
    """Moves of ``kind`` naming what another kind of move sampled now names (the host's undoing
    of a ruling names the line its ruling names)."""
    model = engine.ACTIONS.models[kind]
    fields = set(model.model_fields) - {"type"}
    required = {f for f in fields if model.model_fields[f].is_required()}
    return [{"type": kind, **{f: m[f] for f in fields if f in m}} for moves in mine.values()
            for other, ms in moves.items() if other != kind for m in ms if required and required <= m.keys()]


def seeded_pool(engine: Any, players: list[Player]) -> dict[str, list[dict]]:
    """The moves that need no sampling: those of no field but their type, and those that name
    only a seat, naming each seat."""
    pool: dict[str, list[dict]] = {}
    for kind, model in engine.ACTIONS.models.items():
        required = {f for f, info in model.model_fields.items() if info.is_required()} - {"type"}
        if not required:
            pool[kind] = [{"type": kind}]
        elif required == {"seat"}:
            pool[kind] = [{"type": kind, "seat": p.seat} for p in players]
    return pool


def play(name: str, options: Any, count: int) -> None:
    """Random legal play to the end, checking the phase table at every step."""
    engine = ENGINES[name]
    rng = random.Random(f"phases{name}{options}{count}")
    players = [Player(10 + i * 3, NAMES[i]) for i in range(count)]
    state = engine.setup(players, options, rng.randrange(2**62))
    pool = seeded_pool(engine, players)
    now = NOW
    for _ in range(MAX_STEPS):
        moves = engine.legal_actions(state, now)
        for _, move in moves:  # a move that names a seat is tried naming each seat
            for variant in [move] + [{**move, "seat": p.seat} for p in state.players if "seat" in move]:
                if variant not in pool.setdefault(move["type"], []):
                    pool[move["type"]].append(variant)
        awaited = engine.waiting_for(state)
        assert awaited == engine.PHASES.waiting_for(state) and awaited <= prompted_seats(engine, state)
        check_can_is_what_apply_accepts(engine, state, players, pool, rng, now)
        check_other_phases_refused(engine, state, players, pool, now)
        if state.phase == "over":
            break
        actor, move = rng.choice(moves)
        state = engine.apply(state, actor, move, now)
        now += rng.choice([0.5, 5.0, 40.0])
    assert state.phase == "over"


@pytest.mark.parametrize("name, options, count", sampled_cases())
def test_can_is_exactly_what_apply_accepts(name, options, count):
    play(name, options, count)


@pytest.mark.sweep
@pytest.mark.parametrize("name, options, count", [c for name in PHASED for c in cases_of(name)])
def test_can_is_exactly_what_apply_accepts_with_every_option(name, options, count):
    play(name, options, count)


@pytest.mark.parametrize("name", PHASED)
def test_the_table_declares_every_phase_and_allows_every_move(name):
    engine = ENGINES[name]
    phases = engine.PHASES
    assert set(phases.table) == set(engine.Phase)
    allowed = {m for during in phases.table.values() for m in during.moves}
    assert allowed == set(engine.ACTIONS.models.values())
    assert phases.table[engine.Phase("over")].moves == ()
    assert phases.table[engine.Phase("over")].refusal == GAME_OVER


def test_a_doodles_player_is_prompted_for_the_secret_subject_before_the_hourglass():
    """Issue 31 asks the table who has something to see or do, seat by seat: in Doodles each player
    reads their secret subject before the hourglass and, doodling on phones, draws while it runs;
    then only the voters still voting."""
    doodles = GAMES["doodles"]
    players = [Player(i, NAMES[i]) for i in range(4)]
    state = doodles.setup(players, {"doodle_on_phone": True}, 3)
    assert state.phase == "subject" and doodles.waiting_for(state) == frozenset()
    assert all(doodles.PHASES.prompted(state, p.seat) for p in players)
    state = doodles.apply(state, HOST, {"type": "start_timer"}, NOW)
    assert prompted_seats(doodles, state) == {p.seat for p in players}
    on_paper = doodles.apply(doodles.setup(players, {}, 3), HOST, {"type": "start_timer"}, NOW)
    assert prompted_seats(doodles, on_paper) == frozenset()
    state = doodles.apply(state, HOST, {"type": "pencils_down"}, NOW + 1)
    assert prompted_seats(doodles, state) == doodles.waiting_for(state) == {p.seat for p in players}


# --- who has something to see or do, as each rulebook says (issue 31) ---------------------------

def prompts_of(engine: Any, state: Any) -> dict[int, tuple[str, bool]]:
    """Each prompted seat: what it has to see or do, and whether that is only a change."""
    return {seat: (p.says, p.optional) for seat in prompted_seats(engine, state)
            if (p := engine.PHASES.prompt(state, seat)) is not None}


def test_dixit_prompts_the_storyteller_s_card_and_clue_each_place_then_each_vote():
    """Dixit (dixit-pl.txt, "Round"): the storyteller chooses a card and says the clue; everyone
    says where their card lies and may change it until the reveal (issue 31: a slip is fixed by the
    one who made it); everyone but the storyteller votes and may change it until the last vote is
    in, while the storyteller may still move their place (a quiet offer); the reveal asks nothing."""
    dixit = GAMES["dixit"]
    state = dixit.setup([Player(i, NAMES[i]) for i in range(4)], {}, 5)
    teller = state.storyteller
    place, tell = ("say where your card is", False), ("choose a card, say the clue, then say where it is", False)
    assert prompts_of(dixit, state) == {s: tell if s == teller else place for s in range(4)}
    state = dixit.apply(state, 1, {"type": "claim", "position": 2}, NOW)
    assert prompts_of(dixit, state)[1] == ("change where your card is", True)
    assert dixit.waiting_for(state) == {0, 2, 3} - {1}
    for seat, position in ((0, 1), (2, 3), (3, 4)):
        state = dixit.apply(state, seat, {"type": "claim", "position": position}, NOW)
    assert state.phase == "voting"
    voters = {s for s in range(4) if s != teller}
    assert prompts_of(dixit, state) == {s: ("vote for the storyteller's card", False) for s in voters} | {
        teller: ("change where your card is", True)}
    voter = min(voters)
    mine = dict(state.claims)[voter][0]
    state = dixit.apply(state, voter, {"type": "vote", "position": next(k for k in (1, 2, 3, 4) if k != mine)}, NOW)
    assert prompts_of(dixit, state)[voter] == ("change your vote", True)
    for seat in sorted(voters - {voter}):
        own = dict(state.claims)[seat][0]
        state = dixit.apply(state, seat, {"type": "vote", "position": next(k for k in (1, 2, 3, 4) if k != own)}, NOW)
    assert state.phase == "revealed" and prompts_of(dixit, state) == {}


def test_doodles_prompts_each_subject_token_then_the_doodle_then_each_ballot():
    """Doodles (doodles.txt, "First phase"): everyone looks at their subject token before the
    hourglass; doodling on the phones, everyone draws while it runs (on paper, the app asks
    nothing); everyone votes for every other doodle ("Second phase"), and may change a vote until
    the last is in; the scoring asks nothing of the players."""
    doodles = GAMES["doodles"]
    players = [Player(i, NAMES[i]) for i in range(3)]
    state = doodles.setup(players, {"doodle_on_phone": True}, 3)
    assert prompts_of(doodles, state) == {s: ("read your word", False) for s in range(3)}
    numbers = doodles.setup(players, {"subject_cards": "physical"}, 3)
    numbers = doodles.apply(numbers, HOST, {"type": "subject_card", "words": []}, NOW)
    assert prompts_of(doodles, numbers) == {s: ("see your number", False) for s in range(3)}
    state = doodles.apply(state, HOST, {"type": "start_timer"}, NOW)
    assert prompts_of(doodles, state) == {s: ("draw your doodle", False) for s in range(3)}
    state = doodles.apply(state, HOST, {"type": "pencils_down"}, NOW + 1)
    assert prompts_of(doodles, state) == {s: ("vote on the doodles", False) for s in range(3)}
    for artist in (1, 2):
        state = doodles.apply(state, 0, {"type": "vote", "artist": artist, "subject": 1}, NOW + 2)
    assert prompts_of(doodles, state)[0] == ("change your votes", True) and 0 not in doodles.waiting_for(state)
    for voter, artists in ((1, (0, 2)), (2, (0, 1))):
        for artist in artists:
            state = doodles.apply(state, voter, {"type": "vote", "artist": artist, "subject": 2}, NOW + 2)
    assert state.phase == "reveal" and prompts_of(doodles, state) == {}


def test_rorschach_prompts_each_pick_which_may_change_until_the_dice_are_revealed():
    """Rorschach (rorschach-2008.txt, "Round Order"): each player secretly chooses a blot and
    hides the die until everyone has decided; a skipped player has nothing to choose."""
    rorschach = GAMES["rorschach"]
    state = rorschach.setup([Player(i, NAMES[i]) for i in range(4)], {}, 7)
    assert prompts_of(rorschach, state) == {s: ("pick a blot", False) for s in range(4)}
    state = rorschach.apply(state, 0, {"type": "pick", "number": 1}, NOW)
    state = rorschach.apply(state, HOST, {"type": "skip", "seat": 3}, NOW)
    assert prompts_of(rorschach, state) == {0: ("change your pick", True), 1: ("pick a blot", False),
                                            2: ("pick a blot", False)}
    for seat in (1, 2):
        state = rorschach.apply(state, seat, {"type": "pick", "number": 2}, NOW)
    assert state.phase == "reveal" and prompts_of(rorschach, state) == {}


def test_rorschach_teams_prompts_the_control_team_then_only_the_test_subject_then_the_guessers():
    """Rorschach (teams) (rorschach-teams.txt, "Playing the game"): the control team hides an
    image; then only the test subject matches, secretly; the rest of the test team guesses; the
    control team agrees or names another word."""
    rt = GAMES["rorschach-teams"]
    state = rt.setup([Player(i, NAMES[i]) for i in range(4)], {}, seed=11)
    test, control = state.members(state.round.test_team), state.members(state.round.control_team)
    assert prompts_of(rt, state) == {s: ("hide an image with your team", False) for s in control}
    state = rt.apply(state, control[0], {"type": "hide", "image": 4}, NOW)
    subject = state.round.test_subject
    assert prompts_of(rt, state) == {subject: ("match each image to a word", False)}
    state = rt.apply(state, subject, {"type": "match", "matching": {"1": "A", "2": "B", "3": "C"}}, NOW)
    guessers = {s for s in test if s != subject}
    assert prompts_of(rt, state) == {s: ("guess an image's word with your team", False) for s in guessers}
    words = state.round.words
    state = rt.apply(state, min(guessers), {"type": "guess", "image": 1, "word": words[0]}, NOW)
    assert prompts_of(rt, state) == {s: ("agree with the guess, or name another word", False) for s in control}


def test_inkling_prompts_each_arrangement_then_each_guessing_sheet_then_the_draw():
    """Inkling (inkling.txt, "How to Play"): everyone arranges their ink cards (with the app's
    cards, on the screen, movable until the guessing starts), then guesses both neighbours' words
    (a line of this round may change until everyone is done), then puts back and draws."""
    inkling = GAMES["inkling"]
    state = inkling.setup([Player(i, NAMES[i]) for i in range(3)], {"ink_cards": "virtual"}, 4)
    assert prompts_of(inkling, state) == {s: ("arrange your ink cards", False) for s in range(3)}
    state = inkling.apply(state, 0, {"type": "finish_arranging"}, NOW)
    assert prompts_of(inkling, state)[0] == ("change your arrangement", True)
    physical = inkling.setup([Player(i, NAMES[i]) for i in range(3)], {"ink_cards": "physical"}, 4)
    physical = inkling.apply(physical, 0, {"type": "finish_arranging"}, NOW)
    assert set(prompts_of(inkling, physical)) == {1, 2}  # paper cards on the table: nothing to change here
    for seat in (1, 2):
        state = inkling.apply(state, seat, {"type": "finish_arranging"}, NOW)
    assert prompts_of(inkling, state) == {s: ("guess your neighbours' words", False) for s in range(3)}
    state = inkling.apply(state, 1, {"type": "finish_guessing"}, NOW)
    assert prompts_of(inkling, state)[1] == ("change your guesses", True)
    for seat in (0, 2):
        state = inkling.apply(state, seat, {"type": "finish_guessing"}, NOW)
    assert state.phase == "draw"
    assert prompts_of(inkling, state) == {s: ("put back ink cards and draw", False) for s in range(3)}
