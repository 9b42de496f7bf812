"""A round's form in pages, one step at a time, where the screen is too small for all of it.

A score sheet's round form is a game's steps (``<fieldset class="step">``: the storyteller, the
cards, the votes; a doodle each; a guesser each). Held upright, a tablet shows a step at a time
and the scores on a page of their own (``templates/score/pages.html``; ``static/score.css`` lays
them out only at that size: a wide screen still shows the whole form beside the scores).

The pages are made without a script, since the score sheet needs none: the tabs are a group of
radio buttons, one per step and one for the scores (a keyboard moves through them with the arrow
keys), the "Next" buttons are labels of the next step's, and CSS shows the step whose button is
checked. The buttons belong to no form (``form="sheet-pages"`` names none), so a page turned is
never sent. This is written here, not taken from a library, because it only numbers the steps our
own templates render and reads their legends for the tabs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from markupsafe import Markup

STEP = re.compile(r'<fieldset class="step[^"]*"[^>]*>.*?</fieldset>', re.S)
LEGEND = re.compile(r"<legend>(.*?)</legend>", re.S)
SMALL = re.compile(r"<small>.*?</small>", re.S)


@dataclass(frozen=True)
class FormPages:
    html: Markup  # the steps, each in its page (``<div class="page" data-page="n">``)
    titles: tuple[str, ...]  # each step's legend, as plain text

    @property
    def paged(self) -> bool:
        """Whether the form has steps to show one at a time (a form of no step is shown whole)."""
        return bool(self.titles)


def form_pages(fields: str) -> FormPages:
    """The form's fields with every step a numbered page, and the steps' titles."""
    titles: list[str] = []

    def page(match: re.Match) -> str:
        titles.append(_title(match.group(0)))
        return f'<div class="page" data-page="{len(titles)}">{match.group(0)}</div>'

    html = STEP.sub(page, str(fields))
    return FormPages(Markup(html), tuple(titles))


def _title(step: str) -> str:
    legend = LEGEND.search(step)
    if legend is None:
        return ""
    text = Markup(SMALL.sub("", legend.group(1))).striptags()
    # A legend that opens with a player's badge letter ("A Ann's doodle") is titled by the words.
    return re.sub(r"^\S\s+(?=\S)", "", text) if re.match(r"^\s*<i class=\"badge", legend.group(1)) else text
