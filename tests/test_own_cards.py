"""The group's own cards (issue 18 §6): a table adds its own cards to a deck for the evening.

Rorschach (2008) questions, Rorschach (teams) words, Doodles subject cards and Inkling clue cards,
typed or pasted on the host screen (or a file brought back), checked by the rules the shipped decks
follow (the same readers: every shipped card passes them), mixed into the box's deck or dealt
alone, carried through the start, undo and the next game of the night, and downloaded as the text
they were typed in. Every refusal is a sentence naming the line, and records nothing.
"""

from __future__ import annotations

import io

import pytest

from games import content, doodles, inkling, rorschach, rorschach_teams
from games.base import (MAX_OWN_CARDS, MAX_OWN_LINES, OWN_CARD_CHARS, Player, RuleError, normalize_options,
                        own_cards_of, read_own_cards)

PLAYERS = [Player(i, name) for i, name in enumerate(("Ann", "Ben", "Cat", "Dan"))]
SUBJECTS = ["sword | dagger | knife", "puddle|pond|lake", "  hill | mountain |  volcano ", "kitten | cat | lion"]
CLUES = [
    "cat:1 sun:1 pirate:2 garden:2 umbrella:3 crocodile:3",
    "dog:1 hat:1 parrot:2 tunnel:2 elephant:3 mountains:3",
    "cup:1 owl:1 rocket:2 castle:2 dinosaur:3 telescope:3",
    "box:1 egg:1 banana:2 wizard:2 carousel:3 pineapple:3",
]
EIGHT = [*SUBJECTS, "drizzle | rain | storm", "pebble | rock | boulder", "spark | flame | blaze",
         "nap | sleep | hibernation"]
QUESTIONS = [f"Which looks most like our cousin number {n}?" for n in range(1, 11)]
WORDS = ["mysterious", "sticky", "Grumpy", "upside down", "half-asleep", "royal", "soggy", "brave new",
         "noisy", "ticklish", "o'clock", "fuzzy"]
ENGINES = (rorschach, rorschach_teams, doodles, inkling)


def refusal(model, options) -> str:
    with pytest.raises(RuleError) as raised:
        normalize_options(model, options)
    return str(raised.value)


# --- reading the lines: each game's rules, each refusal's sentence -------------------------------


def test_each_game_that_deals_a_deck_declares_its_own_cards_and_dixit_does_not():
    from games import dixit
    assert own_cards_of(dixit) is None
    for engine in ENGINES:
        rules = own_cards_of(engine)
        assert rules is not None and rules.title and rules.hint and rules.example
        # The form's example is itself a good card.
        assert read_own_cards(rules, [rules.example])


def test_cards_are_kept_as_the_game_writes_them_and_blank_lines_and_comments_are_skipped():
    options = normalize_options(doodles.Options, {"deck": "mixed", "own_cards": ["# ours", "", *SUBJECTS]})
    assert options["own_cards"] == ("sword | dagger | knife", "puddle | pond | lake", "hill | mountain | volcano",
                                    "kitten | cat | lion")
    words = normalize_options(rorschach_teams.Options, {"deck": "mixed", "own_cards": WORDS})["own_cards"]
    assert "grumpy" in words and "brave new" in words, "kept lower case, as the box's words"
    question = normalize_options(rorschach.Options, {"deck": "mixed", "own_cards": ["which is grumpiest?"]})
    assert question["own_cards"] == ("Which is grumpiest?",)
    clues = normalize_options(inkling.Options, {"deck": "mixed", "own_cards": ["CAT:1 Sun:1 pirate:2 garden:2 umbrella:3 crocodile:3"]})
    assert clues["own_cards"] == (CLUES[0],)
    # Read again (the log is replayed), the cards stay as they are.
    assert normalize_options(doodles.Options, options) == options


@pytest.mark.parametrize("engine, lines, sentence", [
    (doodles, ["sword | dagger | knife", "", "sword | dagger"], "Line 3: a Doodles card is three words separated by |."),
    (doodles, ["sword | | knife"], "Line 1: a Doodles card is three words separated by |."),
    (doodles, ["sword | Sword | knife"], "Line 1: the three words of a card must differ."),
    (doodles, ["sword | dagger | knife", "knife | SWORD | dagger"], "Line 2 is the same card as line 1."),
    (rorschach, ["Which looks like a cat"], "Line 1: a question card is one question, ending with a question mark."),
    (rorschach, ["Which? | Which?"], "Line 1: a question card is one question, ending with a question mark."),
    (rorschach, ["Which is it?", "which  is IT?"], "Line 2 is the same card as line 1."),
    (rorschach_teams, ["four words at once"], "Line 1: a word card is one word, or at most three, of letters only."),
    (rorschach_teams, ["r2d2"], "Line 1: a word card is one word, or at most three, of letters only."),
    (rorschach_teams, ["soggy", "Soggy"], "Line 2 is the same card as line 1."),
    (inkling, ["cat:1 sun:1 pirate:2 garden:2 umbrella:3"],
     "Line 1: a clue card is six words written word:points, two each worth 1, 2 and 3."),
    (inkling, ["cat:1 sun:1 pirate:2 garden:2 umbrella:3 crocodile:2"],
     "Line 1: a clue card is six words written word:points, two each worth 1, 2 and 3."),
    (inkling, ["ox:1 sun:1 pirate:2 garden:2 umbrella:3 crocodile:3"],
     "Line 1: “ox” is not a clue word: 3 to 12 letters, nothing else."),
    (inkling, ["cat:1 sun:1 pirate:2 garden:2 umbrella:3 crocodilesxxx:3"],
     "Line 1: “crocodilesxxx” is not a clue word: 3 to 12 letters, nothing else."),
    (inkling, ["cat:1 sun:1 pirate:2 garden:2 umbrella:3 ice-cream:3"],
     "Line 1: “ice-cream” is not a clue word: 3 to 12 letters, nothing else."),
    (inkling, ["cat:1 sun:1 pirate:2 garden:2 umbrella:3 cat:3"], "Line 1 has the same word twice."),
    (inkling, [CLUES[0], "", "cat:1 hat:1 parrot:2 tunnel:2 elephant:3 mountains:3"],
     "Line 3 has a word of line 1: each clue word is on one card only."),
])
def test_a_wrong_line_is_refused_with_a_sentence_naming_it(engine, lines, sentence):
    assert refusal(engine.Options, {"deck": "mixed", "own_cards": lines}) == sentence


def test_every_shipped_card_passes_the_readers_of_the_tables_own_cards():
    """One implementation of each rule: the box's decks, in every language, are what the readers
    accept (each card alone, and the whole deck without a repeat, as a table's own list would be)."""
    decks = {rorschach: rorschach.QUESTION_DECK, rorschach_teams: rorschach_teams.WORD_DECK,
             doodles: doodles.SUBJECT_DECK, inkling: "inkling_clues"}
    for engine, name in decks.items():
        rules = own_cards_of(engine)
        for lang in content.LANGUAGES:
            cards = content.deck(name, lang)
            for number, card in enumerate(cards, 1):
                assert rules.read(card, number), (engine.NAME, lang, card)
            kept = read_own_cards(rules, cards[:MAX_OWN_CARDS])
            assert len(kept) == min(len(cards), MAX_OWN_CARDS), (engine.NAME, lang)


# --- sizes -------------------------------------------------------------------------------------


def test_sizes_are_bounded_with_a_sentence():
    many = [f"w{n}a | w{n}b | w{n}c" for n in range(MAX_OWN_CARDS + 1)]
    assert refusal(doodles.Options, {"deck": "mixed", "own_cards": many}) == \
        f"Line {MAX_OWN_CARDS + 1} is one card too many: at most {MAX_OWN_CARDS} cards of your own."
    long_line = "a | b | " + "c" * OWN_CARD_CHARS
    assert refusal(doodles.Options, {"own_cards": ["a | b | c", long_line]}) == \
        f"Line 2 is too long: a card is at most {OWN_CARD_CHARS} characters."
    assert refusal(doodles.Options, {"own_cards": [""] * (MAX_OWN_LINES + 1)}) == \
        f"That is too many lines: at most {MAX_OWN_LINES}."
    assert refusal(doodles.Options, {"own_cards": "a | b | c"}) == "Your own cards are lines of text, one card a line."
    assert refusal(doodles.Options, {"own_cards": ["a | b | c", 3]}) == "Line 2 is not text."
    assert normalize_options(doodles.Options, {"deck": "mixed", "own_cards": many[:MAX_OWN_CARDS]})


def test_our_cards_only_needs_enough_for_a_game_and_says_how_many():
    assert refusal(doodles.Options, {"deck": "own", "rounds": 5, "own_cards": SUBJECTS}) == \
        "“Our cards only” needs at least 5 cards here; there are 4."
    assert refusal(rorschach.Options, {"deck": "own", "own_cards": QUESTIONS[:9]}) == \
        "“Our cards only” needs at least 10 cards here; there are 9."
    assert refusal(rorschach_teams.Options, {"deck": "own", "own_cards": WORDS[:11]}) == \
        "“Our cards only” needs at least 12 cards here; there are 11."
    assert refusal(inkling.Options, {"deck": "own", "own_cards": CLUES[:2]}) == \
        "“Our cards only” needs at least 3 cards here; there are 2."
    # Inkling deals one clue card a player: the start says so when there are fewer.
    options = normalize_options(inkling.Options, {"deck": "own", "own_cards": CLUES[:3]})
    with pytest.raises(RuleError, match="a clue card for each player: 4 here"):
        inkling.setup(PLAYERS, options, 1)


def test_own_cards_need_the_cards_the_app_deals():
    sentence = "Your own cards are dealt by the app: they need the virtual cards (or choose the box's cards)."
    assert refusal(doodles.Options, {"deck": "mixed", "subject_cards": "physical", "own_cards": SUBJECTS}) == sentence
    assert refusal(rorschach.Options, {"deck": "own", "cards": "physical", "own_cards": QUESTIONS}) == sentence
    # Kept, unused, with the box's physical cards.
    assert normalize_options(doodles.Options, {"subject_cards": "physical", "own_cards": SUBJECTS})["own_cards"]


def test_inkling_with_virtual_ink_refuses_a_word_the_languages_ink_cannot_spell():
    options = normalize_options(inkling.Options, {"deck": "own", "ink_cards": "virtual", "language": "it",
                                                  "own_cards": CLUES})
    with pytest.raises(RuleError, match="“owl” cannot be spelled with this language's ink cards"):
        inkling.setup(PLAYERS[:3], options, 1)
    physical = normalize_options(inkling.Options, {**options, "ink_cards": "physical"})
    assert inkling.setup(PLAYERS[:3], physical, 1)


# --- the deal: ours alone, or mixed in; the seed decides ------------------------------------------


def test_doodles_deals_our_cards_only_in_an_order_the_seed_decides():
    options = {"deck": "own", "rounds": 4, "own_cards": SUBJECTS}
    ours = {doodles.parse_subject_card(c) for c in normalize_options(doodles.Options, options)["own_cards"]}

    def dealt(seed):
        return [doodles._new_round(PLAYERS[:3], seed, doodles.read_options(doodles.Options, options), n).subject_card
                for n in range(1, 5)]
    assert set(dealt(7)) == ours, "every round one of ours, none twice"
    assert dealt(7) == dealt(7)
    assert any(dealt(seed) != dealt(7) for seed in range(8, 14))
    state = doodles.setup(PLAYERS[:3], options, 7)
    assert state.current.subject_card == dealt(7)[0]


def test_mixed_is_the_box_and_ours_shuffled_together_and_a_repeat_of_a_box_card_is_dealt_once():
    box_card = doodles.subject_deck("en")[0]
    repeat = " | ".join(reversed(box_card)).upper()
    options = doodles.read_options(doodles.Options, {"deck": "mixed", "own_cards": [*SUBJECTS, repeat]})
    deck = doodles._shuffled_deck(3, "en", "mixed", options.deck, options.own_cards)
    ours = {doodles.parse_subject_card(c) for c in options.own_cards}

    def same(card):
        return frozenset(w.casefold() for w in card)
    box = [c for c in doodles.subject_deck("en") if same(c) not in {same(o) for o in ours}]
    assert sorted(deck) == sorted([*box, *ours]), "every card once: the box's copy makes way for ours"
    assert box_card not in deck and len(box) <= len(doodles.subject_deck("en")) - 2  # "puddle | pond | lake" too
    assert deck == doodles._shuffled_deck(3, "en", "mixed", options.deck, options.own_cards)
    box = doodles._shuffled_deck(3, "en", "mixed")
    assert set(box) == set(doodles.subject_deck("en"))


def test_rorschach_deals_our_questions():
    state = rorschach.setup(PLAYERS[:3], {"deck": "own", "own_cards": QUESTIONS}, 5)
    assert state.questions == tuple(QUESTIONS) and state.question in QUESTIONS
    mixed = rorschach.setup(PLAYERS[:3], {"deck": "mixed", "own_cards": QUESTIONS}, 5)
    assert set(QUESTIONS) < set(mixed.questions)
    assert set(mixed.questions) - set(QUESTIONS) == set(content.deck(rorschach.QUESTION_DECK, "en"))


def test_rorschach_teams_deals_our_words():
    state = rorschach_teams.setup(PLAYERS, {"deck": "own", "own_cards": WORDS}, 5)
    ours = set(normalize_options(rorschach_teams.Options, {"deck": "own", "own_cards": WORDS})["own_cards"])
    assert set(state.word_deck) == ours and set(state.round.words) <= ours


def test_inkling_deals_our_clue_cards_one_a_player():
    state = inkling.setup(PLAYERS, {"deck": "own", "own_cards": CLUES}, 9)
    assert sorted(state.clue_cards) == sorted(inkling.parse_clue_card(c) for c in CLUES)
    assert state.clue_cards == inkling.setup(PLAYERS, {"deck": "own", "own_cards": CLUES}, 9).clue_cards


def test_no_view_shows_our_cards_they_stay_the_hosts():
    """The deck they make would tell a phone what the others may hold (Inkling's clue cards)."""
    options = {"deck": "own", "own_cards": CLUES[:3]}
    state = inkling.setup(PLAYERS[:3], options, 2)
    for viewer in (0, 1, "host", None):
        assert inkling.view(state, viewer)["options"]["own_cards"] == []
    assert inkling.lobby_view(PLAYERS[:3], options)["options"]["own_cards"] == []
    for engine, cards in ((doodles, SUBJECTS), (rorschach, QUESTIONS), (rorschach_teams, WORDS)):
        state = engine.setup(PLAYERS, {"deck": "mixed", "own_cards": cards}, 2)
        assert engine.view(state, 0)["options"]["own_cards"] == []
        assert engine.lobby_view(PLAYERS, {"own_cards": cards})["options"]["own_cards"] == []


# --- through the companion: the API, the form, the download ------------------------------------


def host_client(app, t):
    """A browser on the host screen (its cookie from the host link)."""
    client = app.test_client()
    client.set_cookie(f"tch_{t.code}", t.host_token)
    return client


def post_cards(client, t, expect=303, **data):
    response = client.post(f"/host/{t.code}/cards", data=data, headers={"Origin": "http://localhost"},
                           content_type="multipart/form-data")
    assert response.status_code == expect, response.get_data(as_text=True)[:500]
    return response


def test_the_json_api_takes_them_as_options_and_a_refusal_records_nothing(table):
    t = table(game="doodles", players=("Ann", "Ben", "Cat"), start=False)
    t.act("host", "options", options={"own_cards": SUBJECTS, "deck": "mixed"})
    before = t.view("host")["version"]
    answer = t.act("host", "options", expect=400, options={"own_cards": ["a | b | c", "a | b"], "deck": "own"})
    assert answer["error"] == "Line 2: a Doodles card is three words separated by |."
    assert t.view("host")["version"] == before
    assert t.view("host")["options"]["deck"] == "mixed"
    assert t.act("Ann", "options", expect=400, options={"deck": "box"})["error"] == "Only the host can do that."
    assert t.view("host")["version"] == before


def test_the_form_takes_the_text_box_comes_back_to_the_lobby_and_the_download_gives_the_cards(app, table):
    t = table(game="doodles", players=("Ann", "Ben", "Cat"), start=False)
    client = host_client(app, t)
    lobby = client.get(f"/host/{t.code}/live").get_data(as_text=True)
    assert 'id="pop-cards"' in lobby and "Our own subject cards" in lobby and 'name="own_cards"' in lobby
    t.act("host", "options", options={"rounds": 4})
    response = post_cards(client, t, own_cards="\n".join(SUBJECTS), deck="own")
    assert response.headers["Location"].endswith(f"/host/{t.code}")
    assert t.view("host")["options"]["deck"] == "own"
    text = client.get(f"/host/{t.code}/cards.txt")
    assert text.status_code == 200 and text.mimetype == "text/plain"
    assert "attachment" in text.headers["Content-Disposition"]
    lines = text.get_data(as_text=True).splitlines()
    assert lines[0].startswith("# Doodles")
    assert lines[1:] == ["sword | dagger | knife", "puddle | pond | lake", "hill | mountain | volcano", "kitten | cat | lion"]
    # The lobby shows how many, and its text box holds them.
    lobby = client.get(f"/host/{t.code}/live").get_data(as_text=True)
    assert "Our 4 cards only" in lobby and "puddle | pond | lake" in lobby


def test_a_refused_form_comes_back_with_the_sentence_and_the_text_and_records_nothing(app, table):
    t = table(game="doodles", players=("Ann", "Ben", "Cat"), start=False)
    client = host_client(app, t)
    before = t.view("host")["version"]
    typed = "sword | dagger | knife\nonly | two"
    page = post_cards(client, t, expect=400, own_cards=typed, deck="mixed").get_data(as_text=True)
    assert "Line 2: a Doodles card is three words separated by |." in page
    assert "only | two" in page and 'name="own_cards"' in page
    assert t.view("host")["version"] == before
    page = post_cards(client, t, expect=400, own_cards="\n".join(SUBJECTS), deck="own").get_data(as_text=True)
    assert "“Our cards only” needs at least 8 cards here; there are 4." in page
    assert t.view("host")["version"] == before


def test_the_download_brought_back_as_a_file_gives_the_same_cards(app, table):
    first = table(game="inkling", players=("Ann", "Ben", "Cat"), start=False)
    client = host_client(app, first)
    post_cards(client, first, own_cards="\n".join(CLUES), deck="own")
    downloaded = client.get(f"/host/{first.code}/cards.txt").get_data()
    later = table(game="inkling", players=("Ann", "Ben", "Cat"), start=False)
    other = host_client(app, later)
    post_cards(other, later, own_cards="", deck="own", file=(io.BytesIO(downloaded), "inkling-cards.txt"))
    assert other.get(f"/host/{later.code}/cards.txt").get_data() == downloaded
    later.act("host", "start")
    dealt = {tuple(sorted(w["word"] for w in later.view(n)["you"]["clue_card"])) for n in ("Ann", "Ben", "Cat")}
    assert dealt <= {tuple(sorted(w for w, _ in inkling.parse_clue_card(c))) for c in CLUES}


def test_a_file_that_is_not_text_or_too_big_is_refused_and_records_nothing(app, table):
    t = table(game="doodles", players=("Ann", "Ben", "Cat"), start=False)
    client = host_client(app, t)
    before = t.view("host")["version"]
    page = post_cards(client, t, expect=400, file=(io.BytesIO(b"\xff\xfe\x00 not text"), "cards.txt")).get_data(as_text=True)
    assert "That file is not plain text" in page
    huge = io.BytesIO(b"a | b | c\n" * 40_000)
    page = post_cards(client, t, expect=400, file=(huge, "cards.txt")).get_data(as_text=True)
    assert "That file is too big for a list of cards." in page
    assert t.view("host")["version"] == before


def test_only_the_host_sees_changes_or_downloads_them(app, table):
    t = table(game="doodles", players=("Ann", "Ben", "Cat"), start=False)
    t.act("host", "options", options={"own_cards": SUBJECTS, "deck": "mixed"})
    phone = app.test_client()
    phone.set_cookie(f"tc_{t.code}", t.tokens["Ann"])
    for response in (phone.get(f"/host/{t.code}/cards.txt"), phone.get(f"/host/{t.code}/cards"),
                     phone.post(f"/host/{t.code}/cards", data={"own_cards": "a | b | c"},
                                headers={"Origin": "http://localhost"})):
        assert response.status_code == 403
        assert "sword" not in response.get_data(as_text=True)
    assert app.test_client().get(f"/host/{t.code}/cards.txt").status_code == 403
    for who in ("Ann", None):
        assert t.view(who)["options"]["own_cards"] == []
    assert "sword" not in str(t.view("Ann")) and "sword" not in str(t.view())
    dixit = table(game="dixit", start=False)
    assert host_client(app, dixit).get(f"/host/{dixit.code}/cards.txt").status_code == 403


# --- through the evening: the start, undo, the next game -----------------------------------------


def play_one_round_of_doodles(t, clock):
    """A one-round Doodles game played to its end (everyone votes 1)."""
    t.act("host", "start_timer")
    clock.now += 60
    for voter in t.seats:
        for artist, seat in t.seats.items():
            if artist != voter:
                t.act(voter, "vote", artist=seat, subject=1)
    for seat in t.seats.values():
        t.act("host", "reveal", artist=seat)
    assert t.view("host")["winners"]




def kept(app, t) -> tuple:
    return app.extensions["rooms"].get(t.code).options["own_cards"]


def test_they_survive_the_start_undo_and_the_next_game_of_the_night(app, table, clock):
    t = table(game="doodles", players=("Ann", "Ben", "Cat"), start=False)
    t.act("host", "options", options={"own_cards": EIGHT, "deck": "own", "rounds": 1})
    ours = kept(app, t)
    assert len(ours) == 8
    t.act("host", "start")
    assert " | ".join(t.view("host")["subject_card"]["words"]) in ours
    t.act("host", "undo")
    assert t.view("host")["phase"] == "lobby" and kept(app, t) == ours
    t.act("host", "start")
    play_one_round_of_doodles(t, clock)
    # The same game again: our cards come along, "our cards only" too.
    t.act("host", "next_game", game="doodles")
    assert kept(app, t) == ours and t.view("host")["options"]["deck"] == "own"
    # Another game, then Doodles again: the night kept the cards with that game's options.
    t.act("host", "next_game", game="inkling")
    assert kept(app, t) == ()
    t.act("host", "next_game", game="doodles")
    assert kept(app, t) == ours and t.view("host")["options"]["deck"] == "own"
    # Unless the next game says otherwise.
    t.act("host", "next_game", game="doodles", options={"own_cards": [], "deck": "box"})
    assert kept(app, t) == ()


def test_the_next_game_takes_them_mixed_when_our_cards_only_would_not_fit_its_options(app, table, clock):
    t = table(game="doodles", players=("Ann", "Ben", "Cat"), start=False)
    t.act("host", "options", options={"own_cards": SUBJECTS[:1], "deck": "own", "rounds": 1})
    t.act("host", "start")
    play_one_round_of_doodles(t, clock)
    t.act("host", "next_game", game="doodles", options={"rounds": 3})
    host = t.view("host")
    assert host["options"]["rounds"] == 3 and host["options"]["deck"] == "mixed"
    assert kept(app, t) == ("sword | dagger | knife",)
    next_game = host_client(app, t).get(f"/host/{t.code}/live").get_data(as_text=True)
    assert "Our 1 own card comes along when we play Doodles again." in next_game


def test_a_change_of_the_tables_language_keeps_them(table):
    t = table(game="doodles", players=("Ann", "Ben", "Cat"), start=False)
    t.act("host", "options", options={"own_cards": SUBJECTS, "deck": "mixed"})
    t.act("host", "language", language="pl")
    assert t.view("host")["options"]["language"] == "pl"
    t.act("host", "start")
    assert t.view("host")["phase"] == "subject"
