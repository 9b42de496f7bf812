"""Photos of paper: a phone photographs what was played on paper or on the table (a doodle, the
cards laid out), the server checks the image and keeps it with the room, and the screens show it
when the game's rule allows (``games.base``: ``photos(state, viewer)``).

``images.py`` checks and re-encodes an upload; ``service.py`` records a photo (its bytes beside the
room's log, a small ``photo`` entry in it) and says, for a view, what the viewer may take and see.
"""
