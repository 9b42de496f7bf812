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
    # Rorschach
    N_("Only the players pick blots; the host screen cannot pick for them."),
    N_("The blots have been revealed; wait for the next question."),
    N_("Only the host screen removes a blot in speed rounds."),
    N_("Speed rounds are not part of this game."),
    N_("In this game speed rounds remove a blot by chance."),
    N_("The host screen chooses the blot to discard, once the table agrees."),
    N_("Blots are not rotated in this game."),
    N_("In this game the blot to discard is chosen by chance."),
    N_("A blot is discarded after the reveal."),
    # Rorschach (teams)
    N_("No image can be hidden now."),
    N_("Only the test subject matches the images; the host screen cannot."),
    N_("Wait for the control team to hide an image first."),
    N_("Wait for the test subject to place the matching before guessing."),
    N_("Your markers are already placed; the matching cannot change now."),
    N_("Match each image to a different word."),
    N_("The second guess must be on another image."),
    N_("The test team has already guessed this round."),
    N_("The control team answers once the test team has guessed."),
    N_("The control team has already answered this round."),
    N_("No second guess is allowed: the test team's first guess was wrong."),
    # Doodles
    N_("The doodling for this round is over."),
    N_("The hourglass has not been started yet."),
    N_("The time is already up."),
    N_("Voting has begun, so the hourglass can no longer be restarted."),
    N_("The subject card can only be set before the hourglass is started."),
    N_("Type all three words of the subject card, or none to play with the numbers only."),
    N_("In this game the doodles are drawn on paper."),
    N_("Wait for the hourglass before you start doodling."),
    N_("Pencils down: the time is up."),
    N_("You can't vote for your own doodle."),
    N_("A vote is 1, 2 or 3."),
    N_("Everyone has voted, so the votes can no longer be changed."),
    N_("The hourglass is paused; voting starts when the time is up."),
    N_("Voting starts when the time is up."),
    N_("The reveal starts once everyone has voted."),
    N_("Every doodle of this round has been revealed."),
    N_("Finish revealing this round's doodles first."),
    N_("Only the host screen can start the hourglass."),
    N_("Only the host screen can reveal the doodles."),
    N_("Only the host screen can start the next round."),
    N_("Only a player can vote."),
    N_("Only a player can doodle."),
    # Inkling
    N_("You can only guess the words of the players next to you."),
    N_("In this game the ink cards are on the table, not in the app."),
    N_("That ink card is not in your hand."),
    N_("The arrangements stay as they are until the next round."),
    N_("The guessing is over for this round."),
    N_("The guessing is over."),
    N_("Write a word to guess."),
    N_("Guesses from earlier rounds cannot be changed."),
    N_("Guessing starts once everyone has arranged their ink cards."),
    N_("Choose different ink cards to put back."),
    N_("The ink cards have already been drawn for this round."),
    N_("The scores are final."),
    N_("Near misses are accepted once the clue cards are revealed."),
    N_("The scores are confirmed after the third round."),
    N_("Only a player can guess."),
    N_("Only the host screen can accept a near miss."),
    N_("Only the host screen can confirm the scores."),
]

# Words the pages show from the engines' views (Rorschach's colour names).
WORDS = [
    N_("red"), N_("blue"), N_("green"), N_("yellow"), N_("purple"), N_("orange"), N_("white"), N_("black"),
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
    # Rorschach
    N_("There is no blot number %(number)s on the table."),
    N_("Round %(number)s is still being played."),
    N_("The next round is round %(number)s."),
    N_("Blot %(number)s is already being replaced; remove another one."),
    N_("Blot %(number)s is being removed; discard another one."),
    # Rorschach (teams)
    N_("Image %(image)s is face down; guess a visible image."),
    N_("Image %(image)s is already face down."),
    N_("The test subject cannot guess; the rest of the %(team)s team does."),
    # Doodles
    N_("The doodles are revealed in order: next is %(name)s."),
    # Inkling
    N_("You have used all %(count)s guesses for %(name)s."),
    N_("You have already guessed “%(word)s” for %(name)s."),
    N_("You can put back at most %(count)s ink cards."),
    N_("A guess can be at most %(count)s characters long."),
]
