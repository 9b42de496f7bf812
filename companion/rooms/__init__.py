"""Rooms: a table's lobby and the game played at it, as the replay of its log, and the service
that creates, reads and acts on them."""
