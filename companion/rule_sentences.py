"""The rules engines' English sentences that the catalogues translate (games/ stays free of Flask).

``SENTENCES`` are constant sentences; ``PATTERNS`` are sentences with a name or a number in them,
written with ``%(name)s`` where the engine puts a value. ``i18n.rule_sentence`` matches an engine's
sentence against them and returns the catalogue's translation; a sentence not listed stays English.
"""

from __future__ import annotations


def N_(message: str) -> str:
    """Marks a message for extraction (pybabel's default keywords include N_)."""
    return message


SENTENCES = [
    # the room and the lobby (companion/rooms.py, companion/service.py)
    N_("Please type your name."),
    N_("There is no such seat at this table."),
    N_("The host has closed this table."),
    N_("Only the host can do that."),
    N_("The game has not started yet."),
    N_("You are not seated in this game."),
    N_("This room already exists."),
    N_("The game has already started: ask the host to let you in."),
    N_("The game has not started: join the table instead."),
    N_("Names can only be changed before the game starts."),
    N_("Seats can only be removed before the game starts."),
    N_("The seating order is fixed once the game starts."),
    N_("The new order must list every seat once."),
    N_("Options can only be changed before the game starts."),
    N_("Options must be a set of named choices."),
    N_("The options must be a set of named choices."),
    N_("The game has already started."),
    N_("That phone is no longer waiting."),
    N_("There is nothing to undo."),
    N_("Pick one of the games on the list."),
    N_("The table can speak English, Italian or Polish."),
    N_("The cards are available in English, Italian and Polish."),
    N_("That request could not be read: send a JSON object."),
    # Dixit
    N_("Choose a position by its number, counted from the left."),
    N_("Finish this round first: the votes are not all in."),
    N_("Give the positions of your cards as numbers."),
    N_("Only a player at the table can say where their card is."),
    N_("Only a player at the table can vote."),
    N_("Only the host can choose the storyteller."),
    N_("Only the host can start the next round."),
    N_("Say where both of your cards lie."),
    N_("Say where your one card lies."),
    N_("That is not a move in Dixit."),
    N_("That move doesn't say what it is."),
    N_("The game is over."),
    N_("The storyteller doesn't vote."),
    N_("The votes of this round are already revealed."),
    N_("This round is over: wait for the next one."),
    N_("Wait until everyone has said where their card is."),
    N_("You can't vote for your own card."),
    N_("Your two cards can't lie at the same position."),
    N_("Two players can't have the same name."),
]

PATTERNS = [
    N_("Names can be at most %(limit)s characters long."),
    N_("Someone at this table is already called %(name)s."),
    N_("This table is full: %(game)s takes at most %(most)s players here."),
    N_("With these options the game takes at most %(most)s players."),
    N_("%(game)s needs %(least)s to %(most)s players; %(joined)s have joined."),
    N_("Someone else has already claimed position %(position)s."),
    N_("There is no position %(value)s: the cards are numbered 1 to %(count)s from the left."),
    N_("There is no card at position %(position)s: the cards are numbered 1 to %(count)s."),
    N_("Dixit needs %(low)s to %(high)s players."),
]
