"""Every phase of every game, made for the room (issue 32's "Done means"): each game at its largest
table (the count its engine declares), one seat without a phone (played from the host tablet),
the longest names a join accepts in each language's letters and the longest cards of each
language's decks dealt (the table's own cards: the deck's longest lines), and at every phase:

- the host at 1280x800 and 1920x1080 (one page, resized), the phone at 390x844: nothing scrolls;
- no text cut: every visible element with text is as wide as its text (scrollWidth within
  clientWidth) and, where its overflow is hidden, as high;
- the chips that say who the table waits for and Inkling's letters at least 24 CSS px at 1920x1080;
- the stage (what #live shows) covers at least 70 % of the host's height at both sizes;
- the phone's one action for the phase (its pad, its primary button, its field) in view.

Each problem names its phase, size and element with its text, all of a game's problems reported
at once. The moves go through the JSON API as a phone or the host screen sends them
(tests/table.py); SCREENSHOTS=dir keeps every screen of every phase to look at.
"""

from __future__ import annotations

import pytest
import requests

from games import content, dixit, doodles, inkling, rorschach, rorschach_teams
from tests.browser import PHONE, Shots, launch
from tests.server import Server
from tests.table import Room, overflow, wait_for_version
from tests.test_host_scale_browser import CHIPS, stage_share

pytestmark = [pytest.mark.browser, pytest.mark.sweep]

HOSTS = {"1280": (1280, 800), "1920": (1920, 1080)}
LEAST = 24  # CSS px at 1920x1080: the waiting chips and Inkling's letters, read from three metres
STAGE = 0.70
NAME_LIMIT = 16  # graphemes: the longest name a join accepts (companion/rooms/names.py)

# Long names of each language's letters (wide capitals, diacritics), cut to the longest a join
# takes; distinct first names keep them distinct to the join's look-alike check.
FIRST_LAST = {
    "en": [("Wilhelmina", "Worthington"), ("Maximilian", "Hollingsworth"), ("Bartholomew", "Wadsworth"),
           ("Gwendolyn", "Montgomery-Ward"), ("Christopher", "Whitmoreland"), ("Evangeline", "Marlborough"),
           ("Jacqueline", "Wetherspoon"), ("Nathaniel", "Wolverhampton"), ("Marguerite", "Bloomsworth"),
           ("Sebastian", "Mountbatten-Wu"), ("Theodora", "Wickhamshire"), ("Wolfgang", "Westmoreland"),
           ("Penelope", "Wainwright-Moss"), ("Dominique", "Warrington"), ("Alexandria", "Whittingham"),
           ("Humphrey", "Masterson-Webb")],
    "it": [("Massimiliano", "Dell'Acquà"), ("Giambattista", "Mastrogiacomo"), ("Mariagrazia", "Sant'Ambrogio"),
           ("Bartolomeo", "Buonarrotì"), ("Ermenegildo", "Malatesta"), ("Pierluigi", "Capodimonte"),
           ("Gianfranco", "Niccolò Bò"), ("Margherita", "Quarantottò"), ("Annamaria", "Montefeltro"),
           ("Ludovica", "Castelvetrò"), ("Guglielmo", "Ventimiglià"), ("Domitilla", "Caracciolò"),
           ("Leopoldo", "Mormandò"), ("Ottavia", "Scarabottolò"), ("Vittoria", "Sgarbossà"),
           ("Benedetta", "Pellizzarì")],
    "pl": [("Małgorzata", "Brzęczyszczykiewicz"), ("Grzegorz", "Szczepańczyk"), ("Władysław", "Żółtowski"),
           ("Wawrzyniec", "Ślęczkowski"), ("Przemysław", "Wróblewski"), ("Bożydar", "Kościuszkowski"),
           ("Jędrzej", "Chrząszczewski"), ("Zdzisława", "Wiśniewska"), ("Bolesław", "Gąsiorowski"),
           ("Mieczysław", "Świętochowski"), ("Józefina", "Łukaszewicz"), ("Wiesław", "Pszczółkowski"),
           ("Radosław", "Źdźbłowski"), ("Stanisława", "Ćwiklińska"), ("Świętopełk", "Krzyżanowski"),
           ("Bogumiła", "Żurawiejska")],
}


def long_names(language: str, count: int) -> list[str]:
    """``count`` names of ``language``'s letters, each as long as a join accepts."""
    names = []
    for first, last in FIRST_LAST[language][:count]:
        name = f"{first} {last}"
        while len(name) < NAME_LIMIT:
            name += " " + last
        names.append(name[:NAME_LIMIT].rstrip())
    return names


def longest(deck: str, language: str, count: int, key=len) -> list[str]:
    """The ``count`` longest cards of ``deck`` in ``language``: the table's own cards for the sweep."""
    return sorted(content.deck(deck, language), key=key)[-count:]


def clue_length(card: str) -> tuple[int, int]:
    words = [item.rpartition(":")[0] for item in card.split()]
    return max(map(len, words)), sum(map(len, words))


def largest(engine, options) -> int:
    return engine.player_range(options)[1]


# --- what the checks measure ----------------------------------------------------------------------

CLIPPED = """() => {
  const hidden = el => el.closest('dialog:not([open]), details:not([open]) > :not(summary), [hidden]');
  const found = [];
  for (const el of document.querySelectorAll('body *')) {
    if (el instanceof SVGElement || ['INPUT', 'SELECT', 'TEXTAREA', 'OPTION', 'CANVAS', 'SCRIPT', 'STYLE',
        'TEMPLATE'].includes(el.tagName)) continue;
    if (!el.textContent.trim() || hidden(el) || !el.checkVisibility({visibilityProperty: true})) continue;
    const s = getComputedStyle(el);
    if (s.display === 'inline' || s.display === 'contents') continue;
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) continue;  // read to screen readers only
    const clips = /hidden|clip|auto|scroll/;
    const wide = el.scrollWidth > el.clientWidth + 1;
    const high = clips.test(s.overflowY) && el.scrollHeight > el.clientHeight + 1;
    if (wide || high) found.push(el);
  }
  // the innermost: a box whose own text is cut, not each box around it
  return found.filter(el => !found.some(other => other !== el && el.contains(other)))
    .map(el => `<${el.tagName.toLowerCase()} class="${el.className}"> "${el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 60)}"`
      + ` ${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight}`);
}"""

IN_VIEW = """els => els.filter(el => el.checkVisibility()).map(el => {
    const r = el.getBoundingClientRect();
    if (r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5) {
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (hit && (hit === el || el.contains(hit) || hit.contains(el))) return null;
      return `${el.tagName} "${el.textContent.trim().slice(0, 30)}" covered by ${hit ? hit.className || hit.tagName : 'nothing'}`;
    }
    return `${el.tagName} "${(el.textContent || el.placeholder || '').trim().slice(0, 30)}" at ${r.top.toFixed(0)}-${r.bottom.toFixed(0)}`;
  }).filter(Boolean)"""

LETTERS = """() => Array.from(document.querySelectorAll('.ik-seat .ik-board .ink')).map(el => {
    const r = document.createRange(); r.selectNodeContents(el);
    return Math.min(r.getBoundingClientRect().height, parseFloat(getComputedStyle(el).fontSize)); })"""

# Who the table waits for: the chips of tests/test_host_scale_browser.py, and the mark under each
# doodle voted on when the doodles are on the phones.
WAITING = CHIPS + ", .dd-doodle .cap .state"
CHIP_HEIGHTS = """s => Array.from(document.querySelectorAll(s))
    .filter(el => el.offsetParent !== null && el.textContent.trim())
    .map(el => parseFloat(getComputedStyle(el).fontSize))"""

# Two frames, and a reveal's animation played out (tokens flying, markers dealt: each finite
# animation's end): the screen measured is the one the table then reads.
SETTLED = """() => Promise.all(document.getAnimations()
    .filter(a => a.effect && a.effect.getComputedTiming().endTime !== Infinity).map(a => a.finished.catch(() => null)))
  .then(() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done))))"""


class Sweep:
    """One room of ``game`` in ``language`` at its largest table, its last seat without a phone: the
    host page (resized per phase) and the phones opened as a phase needs them, every problem kept."""

    def __init__(self, server, browser, game, engine, language, options):
        self.game, self.language, self.browser = game, language, browser
        self.count = largest(engine, options)
        self.names = long_names(language, self.count)
        self.tablet = self.names[-1]
        self.room = Room(server, game, self.names[:-1], options, language=language)
        self.room.act("host", "seat_without_phone", name=self.tablet)
        self.seat = {p["name"]: p["seat"] for p in self.room.view()["players"]}
        self.host = self.room.open_host(browser)
        self.phones: dict = {}
        self.shots = Shots()
        self.problems: list[str] = []
        self.name = f"{game}-{language}"

    # the moves, as a phone sends them, or the host screen for the seat without a phone
    def act(self, who, type_, **payload):
        if who == self.tablet:
            return self.room.act("host", type_, **{"for": self.seat[who]}, **payload)
        return self.room.act(who, type_, **payload)

    def you(self, who):
        """What ``who``'s own screen shows (the view's ``you``)."""
        if who == self.tablet:
            answer = requests.get(f"{self.room.server.url}/api/v1/rooms/{self.room.code}",
                                  params={"for": self.seat[who]},
                                  headers={"Authorization": f"Bearer {self.room.host_token}"}, timeout=10)
            return answer.json()["you"]
        return self.room.view(who)["you"]

    def phone(self, who):
        if who not in self.phones:
            self.phones[who] = self.room.open_phone(self.browser, who, PHONE)
        return self.phones[who]

    def check(self, phase, phone=None, action=None, chips=False, letters=False):
        """Every check of the module's docstring on the host at both sizes, and on ``phone``'s
        phone with ``action`` (a selector: every match visible must be in view)."""
        version = self.room.view()["version"]
        for size, (width, height) in HOSTS.items():
            page = self.host
            page.set_viewport_size({"width": width, "height": height})
            wait_for_version(page, version)
            page.evaluate(SETTLED)
            where = f"{self.name} {phase} host {size}"
            self.shots(page, f"sweep-{self.name}-{phase}-host-{size}")
            self.common(page, where)
            if (share := stage_share(page)) < STAGE:
                self.problems.append(f"{where}: the stage covers {share:.0%} of the height")
            if chips and size == "1920":
                heights = page.evaluate(CHIP_HEIGHTS, WAITING)
                if not heights:
                    self.problems.append(f"{where}: no waiting chips ({WAITING})")
                elif min(heights) < LEAST:
                    self.problems.append(f"{where}: waiting chips {min(heights):.1f} px high")
            if letters and size == "1920":
                heights = page.evaluate(LETTERS)
                if not heights:
                    self.problems.append(f"{where}: no letters laid on the host")
                elif min(heights) < LEAST:
                    self.problems.append(f"{where}: Inkling's letters {min(heights):.1f} px high")
        if phone:
            page = self.phone(phone)
            wait_for_version(page, version)
            page.evaluate(SETTLED)
            where = f"{self.name} {phase} phone of {phone}"
            self.shots(page, f"sweep-{self.name}-{phase}-phone")
            self.common(page, where)
            if action:
                controls = page.locator(action)
                if not controls.count():
                    self.problems.append(f"{where}: no {action} to act with")
                elif out := controls.evaluate_all(IN_VIEW):
                    self.problems.append(f"{where}: its action out of view: {out}")

    def common(self, page, where):
        over = overflow(page)
        if over["height"] or over["width"]:
            self.problems.append(f"{where}: scrolls by {over}")
        for cut in page.evaluate(CLIPPED):
            self.problems.append(f"{where}: text cut: {cut}")

    def close(self):
        for page in (self.host, *self.phones.values()):
            page.context.close()
        assert not self.problems, f"{len(self.problems)} problems:\n" + "\n".join(self.problems)


# --- the games, phase by phase ------------------------------------------------------------------


def play_dixit(sweep):
    """Dixit at eight: claiming, voting, settling (two claims of one place), the reveal, the end."""
    names, act = sweep.names, sweep.act
    act("host", "start")
    rounds = 0
    while True:
        rounds += 1
        view = sweep.room.view()
        teller = next(n for n, s in sweep.seat.items() if s == view["storyteller"]["seat"])
        place = {n: (k + rounds) % len(names) + 1 for k, n in enumerate(names)}
        others = [n for n in names if n != teller]
        watcher = next(n for n in others if n != sweep.tablet)
        if rounds == 1:
            sweep.check("claiming", phone=watcher, action=".pad button:not([disabled])", chips=True)
        for n in names:
            if n != watcher or rounds > 1:
                act(n, "claim", position=place[n])
        if rounds == 1:
            act(watcher, "claim", position=place[others[-1] if watcher != others[-1] else others[0]])
            act(others[0] if others[0] != watcher else others[1], "vote", position=place[teller])
            sweep.check("voting", phone=watcher, action=".pad button:not([disabled])", chips=True)
        for n in others:
            if not (rounds == 1 and n == (others[0] if others[0] != watcher else others[1])):
                act(n, "vote", position=place[teller] if n < names[3] else place[others[0] if n != others[0] else teller])
        if rounds == 1:
            sweep.check("settling", phone=watcher, action=".pad button:not([disabled])")
            act(watcher, "claim", position=place[watcher])
            sweep.check("revealed", phone=watcher)
        if sweep.room.view()["phase"] == "over":
            break
        act("host", "next_round")
    sweep.check("over", phone=names[0])


def play_doodles(sweep):
    """Doodles at seven, drawn on the phones: the word, the hourglass, the vote, the reveal, the
    round's scores, the end."""
    names, act = sweep.names, sweep.act
    artist = names[1]
    for number in (1, 2):
        act("host", "start")  if number == 1 else act("host", "next_round", round=2)
        if number == 1:
            sweep.check("subject", phone=artist)
        act("host", "start_timer")
        for k, n in enumerate(names):
            if n != artist or number == 2:
                act(n, "doodle", doodle=f"M{10 + 8 * k} 10l30 {20 + 5 * k}l-20 30M50 60l{4 * k} 20")
        if number == 1:
            sweep.check("doodle", phone=artist, action="[data-canvas] canvas, [data-canvas] button")
            act(artist, "doodle", doodle="M10 10l50 50")
        act("host", "pencils_down")
        for k, voter in enumerate(names):
            if voter == artist and number == 1:
                continue
            for j, other in enumerate(names):
                if other != voter:
                    act(voter, "vote", artist=sweep.seat[other], subject=(j + k) % 3 + 1)
        if number == 1:
            sweep.check("vote", phone=artist, action=".dd-ballot-row .dd-pad button", chips=True)
            for j, other in enumerate(names):
                if other != artist:
                    act(artist, "vote", artist=sweep.seat[other], subject=j % 3 + 1)
        for k, n in enumerate(names):
            act("host", "reveal", artist=sweep.seat[n])
            if number == 1 and k == 2:
                sweep.check("reveal", phone=artist)
        if number == 1:
            sweep.check("scores", phone=artist)
    sweep.check("over", phone=artist)


def play_inkling(sweep):
    """Inkling at six with the app's ink: arranging (cards laid), guessing, the draw, three rounds,
    the review and the end."""
    names, act = sweep.names, sweep.act
    phone = names[0]
    act("host", "start")
    for number in (1, 2, 3):
        for n in names:
            hand = sweep.you(n)["hand"]
            act(n, "arrange", cards=[{"card": c["card"], "x": 12.5 * k % 87.5, "y": 20 + 20 * (k // 7)}
                                     for k, c in enumerate(hand[:8 + 2 * (number - 1)])])
        if number in (1, 2):
            sweep.check(f"arrange-{number}", phone=phone, action="[data-board], [data-hand], button.primary",
                        letters=True)
        for n in names:
            act(n, "finish_arranging")
        words = [w for card in inkling.clue_deck(sweep.language) for w, _ in card]
        left = sweep.you(names[1])["sheet"]["left"]["seat"]
        for k in range(2):  # seven guesses a neighbour in the game
            act(names[1], "guess", neighbour=left, word=sorted(words, key=len)[-1 - k - 2 * number])
        if number == 1:
            sweep.check("guess", phone=phone, action="form[data-guess] input, form[data-guess] button")
        for n in names:
            act(n, "finish_guessing")
        if number < 3:
            if number == 1:
                sweep.check("draw", phone=phone, action="[data-hand][data-mode=put_back], button.primary")
            for n in names:
                act(n, "put_back", cards=[])
    sweep.check("review", phone=phone)
    act("host", "confirm_scores")
    sweep.check("over", phone=phone)


def play_rorschach(sweep):
    """Rorschach at eight with the app's cards: picking, the reveal, the end."""
    names, act = sweep.names, sweep.act
    act("host", "start")
    picker = names[0]
    first = {n: (1 if k < 4 else 2 if k < 6 else k - 3) for k, n in enumerate(names)}
    for n in names[1:3]:
        act(n, "pick", number=first[n])
    sweep.check("picking", phone=picker, action=".rs-blot-pad button", chips=True)
    for n in [names[0], *names[3:]]:
        act(n, "pick", number=first[n])
    sweep.check("reveal", phone=picker)
    act("host", "next_round", round=2)
    for n in names:
        act(n, "pick", number=2)
    sweep.check("over", phone=picker)


def play_rorschach_teams(sweep):
    """Rorschach (teams) at sixteen with the app's cards: hiding, matching, guessing, the control
    team's answer, the second guess, the scored round, and rounds to the end."""
    act = sweep.act
    plays = [((1, "A"), "B", (2, "B")), ((1, "B"), "A", None), ((1, "B"), "C", None), ((1, "A"), "A", (2, "B")),
             ((1, "A"), "B", (2, "C"))]
    for number, (guess, control, second) in enumerate(plays, 1):
        if number == 1:
            act("host", "start")
        else:
            act("host", "next_round", round=number)
        view = sweep.room.view()
        testers = view["teams"][view["test_team"]]["names"]
        controllers = view["teams"][view["control_team"]]["names"]
        subject = view["test_subject_name"]
        guesser = next(n for n in testers if n != subject)
        first = number == 1
        if first:
            sweep.check("hiding", phone=controllers[-1] if controllers[-1] != sweep.tablet else controllers[0],
                        action="button.primary, [data-action]")
        act(controllers[-1], "hide", image=4)
        if first:
            sweep.check("matching", phone=subject, action="form[data-matching] button.primary")
        act(subject, "match", matching={"1": "A", "2": "B", "3": "C"})
        if first:
            sweep.check("guessing", phone=guesser, action="button.primary, [data-action]")
        act(guesser, "guess", image=guess[0], word=guess[1])
        if first:
            sweep.check("control", phone=controllers[0], action="button.primary, [data-action]")
        act(controllers[0], "control_guess", word=control)
        if second:
            if first:
                sweep.check("second-guess", phone=guesser, action="button.primary, [data-action]")
            act(guesser, "guess", image=second[0], word=second[1])
        if first:
            sweep.check("scored", phone=guesser)
        if sweep.room.view()["phase"] == "over":
            break
    sweep.check("over", phone=sweep.names[0])


def own(deck, language, count, key=len):
    return {"deck": "own", "own_cards": longest(deck, language, count, key)}


GAMES = {
    "dixit": (dixit, play_dixit, lambda lang: {"extended_player_counts": True}),
    "doodles": (doodles, play_doodles, lambda lang: {
        "rounds": 2, "timer_seconds": 300, "doodle_on_phone": True, "subject_cards": "virtual",
        **own("doodles_subjects", lang, 4)}),
    "inkling": (inkling, play_inkling, lambda lang: {
        "ink_cards": "virtual", **own("inkling_clues", lang, 8, key=clue_length)}),
    "rorschach": (rorschach, play_rorschach, lambda lang: {"cards": "virtual", **own("rorschach_questions", lang, 10)}),
    "rorschach-teams": (rorschach_teams, play_rorschach_teams, lambda lang: {
        "cards": "virtual", **own("rorschach_words", lang, 12)}),
}


@pytest.fixture(scope="module")
def sweep_server(tmp_path_factory):
    """One server for the whole sweep."""
    server = Server(tmp_path_factory.mktemp("sweep") / "instance").start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def sweep_browser():
    """One chromium for the whole sweep."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = launch(p)
        yield browser
        browser.close()


@pytest.mark.parametrize("language", ["en", "it", "pl"])
@pytest.mark.parametrize("game", GAMES)
def test_every_phase_fits_the_room(sweep_server, sweep_browser, game, language):
    engine, play, options = GAMES[game]
    sweep = Sweep(sweep_server, sweep_browser, game, engine, language, options(language))
    play(sweep)
    sweep.close()
