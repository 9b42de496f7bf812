"""Both Rorschach games in Debian's chromium (issue 4): a host screen and phones, to the reveal.

Same approach as tests/test_browser.py: the real server, a 1280x800 host context and 390x844 phone
contexts with their own cookies. Set SCREENSHOTS=dir to keep a picture of every phase.
"""

from __future__ import annotations

import pytest

from tests.browser import Shots, choose_option, open_table

pytestmark = pytest.mark.browser


def test_a_host_and_four_phones_play_a_rorschach_round_to_the_reveal(server, browser):  # noqa: F811
    shot = Shots()
    names = ("Ann", "Ben", "Cat", "Dan")
    host, phones = open_table(browser, server, "Rorschach (2008)", names)
    choose_option(host, "rotating_blots", "host")
    # Each seat shows the die it takes (colour and letter), and no other mark.
    assert host.locator(".seats li .rs-dot").all_inner_texts() == ["R", "B", "G", "Y"]
    assert host.locator(".seats li .badge").count() == 0
    shot(host, "rs-host-1-lobby")

    host.get_by_role("button", name="Start the game").click()
    host.wait_for_selector(".rs-question")
    assert host.locator(".rs-host .rs-blot").count() == 3
    host.wait_for_function("() => [...document.querySelectorAll('.rs-blot img')].every(i => i.naturalWidth >= 400)")
    shot(host, "rs-host-2-picking")

    picks = {"Ann": 1, "Ben": 1, "Cat": 2, "Dan": 3}
    phones["Ann"].wait_for_selector(".rs-blot-pad button")
    box = phones["Ann"].locator(".rs-blot-pad button").first.bounding_box()
    assert box["width"] >= 150 and box["height"] >= 120  # big enough for a thumb
    shot(phones["Ann"], "rs-phone-1-picking")
    phones["Ann"].click(".rs-blot-pad button[data-blot='2']")
    phones["Ann"].wait_for_selector(".rs-blot-pad button.chosen[data-blot='2']")
    phones["Ann"].click(".rs-blot-pad button[data-blot='1']")  # changing one's mind
    phones["Ann"].wait_for_selector(".rs-blot-pad button.chosen[data-blot='1']")
    shot(phones["Ann"], "rs-phone-2-picked")
    for name in ("Ben", "Cat"):
        phones[name].wait_for_selector(".rs-blot-pad button")
        phones[name].click(f".rs-blot-pad button[data-blot='{picks[name]}']")
    host.wait_for_function("() => document.querySelectorAll('.rs-matrix tr.done').length === 3")
    assert "The reveal" not in host.inner_text("#live")
    shot(host, "rs-host-3-three-picked")
    phones["Dan"].wait_for_selector(".rs-blot-pad button")
    phones["Dan"].click(".rs-blot-pad button[data-blot='3']")

    host.wait_for_selector("text=The reveal")
    matched = host.inner_text(".rs-group[data-group='1']")
    assert "Ann and Ben matched on blot 1: each takes the other's colour." in matched
    assert host.locator(".rs-blot.alone").count() == 2
    assert host.locator(".rs-matrix .rs-dot.new").count() == 4  # Ann, Ben, Cat and Dan each took one
    shot(host, "rs-host-4-reveal")
    phones["Cat"].wait_for_selector("[data-breakdown] >> text=your own colour, for being alone")
    assert "be alone on a blot" not in phones["Cat"].inner_text("#live")  # Cat was alone: own colour taken
    shot(phones["Cat"], "rs-phone-3-reveal")

    # Rotating blots chosen on the host screen, then the next question.
    host.get_by_role("button", name="Replace blot 2").click()
    host.wait_for_selector("text=Blot 2 gets a new picture next round.")
    assert phones["Ann"].locator("[data-action*='next_round']").count() == 0  # the host's move only
    host.get_by_role("button", name="Next question →").click()
    host.wait_for_selector(".rs-blots")
    phones["Ann"].wait_for_selector(".rs-blot-pad button:not(.chosen)")
    assert "round 2" in phones["Ann"].inner_text(".mine")


def test_a_host_and_four_phones_play_a_rorschach_teams_round_to_the_reveal(server, browser):  # noqa: F811
    shot = Shots()
    names = ("Ann", "Ben", "Cat", "Dan")
    host, phones = open_table(browser, server, "Rorschach (teams)", names)
    lobby = host.inner_text("[data-teams]")
    assert "Black team · 2" in lobby and "White team · 2" in lobby
    host.get_by_role("button", name="Swap Ben with Cat").click()  # the host moves players
    # The names, not the swap buttons (whose labels name the other team's players too).
    host.wait_for_selector('ul[data-team=black] .grow:text-is("Cat")')
    shot(host, "rt-host-1-lobby")
    host.get_by_role("button", name="Swap Cat with Ben").click()
    host.wait_for_selector('ul[data-team=black] .grow:text-is("Ben")')

    host.get_by_role("button", name="Start the game").click()
    host.wait_for_selector("[data-test-subject]")
    assert "Ann" in host.inner_text("[data-test-subject]")
    shot(host, "rt-host-2-hiding")
    phones["Cat"].wait_for_selector(".rt-hide button")
    shot(phones["Cat"], "rt-phone-1-control-hides")
    phones["Cat"].locator(".rt-hide button").nth(3).click()

    ann = phones["Ann"]
    ann.wait_for_selector("form[data-matching]")
    host.wait_for_selector("text=is matching in secret")
    assert host.locator("form[data-matching]").count() == 0
    phones["Ben"].wait_for_selector("text=is matching")
    assert phones["Ben"].locator("form[data-matching]").count() == 0
    assert ann.locator("[data-match-send]").is_disabled()
    for image, word in (("1", "A"), ("2", "B"), ("3", "C")):
        ann.click(f"label[for=m-{image}-{word}]")
    ann.wait_for_selector("[data-match-send]:not([disabled])")
    shot(ann, "rt-phone-2-matching")
    shot(host, "rt-host-3-matching")
    ann.click("[data-match-send]")

    ben = phones["Ben"]
    ben.wait_for_selector("text=Guess one image's word")
    box = ben.locator(".rt-pick .choices button").first.bounding_box()
    assert box["height"] >= 60
    shot(ben, "rt-phone-3-guess")
    ben.get_by_role("button", name="Image 1 is word A").click()
    dan = phones["Dan"]
    dan.wait_for_selector("text=Agree, or name another word")
    shot(dan, "rt-phone-4-control")
    host.wait_for_selector("text=The guess:")
    assert "marker:" not in host.inner_text("#live")  # the matching is still secret
    shot(host, "rt-host-4-control")
    dan.locator(".rt-words3 button").nth(1).click()  # "No, it's B": wrong

    host.wait_for_selector("tr.applies[data-row='2']")
    assert "second guess" in host.inner_text("#live")
    shot(host, "rt-host-5-second-guess")
    ben.wait_for_selector("text=Your second guess")
    shot(ben, "rt-phone-5-second-guess")
    ben.get_by_role("button", name="Image 2 is word B").click()
    host.wait_for_selector("text=Next round: White tests")
    assert host.inner_text("[data-score-team=black] .pts").startswith("2")
    assert host.locator(".rt-img.right").count() == 2
    shot(host, "rt-host-6-scored")
    phones["Cat"].wait_for_selector("text=Row 2 of the table")
    shot(phones["Cat"], "rt-phone-6-scored")
