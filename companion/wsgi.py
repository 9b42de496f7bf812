"""The WSGI entry point gunicorn loads: ``companion.wsgi:app``.

It also tunes the garbage collector of the worker process. A worker holding a game night keeps
thousands of waiting screens (greenlets, sockets, requests) and hundreds of rooms in memory, and a
full collection of all of it stopped the process for 150–200 ms about every ten seconds at 500
tables (measured with ``gc.callbacks``): every request in flight waited, and that was the slowest
1 % of actions. Full collections are made ten times rarer (the third threshold, 10 → 100); the young
generations, which find nearly all the garbage cycles there are, are collected as before.
"""

import gc

from companion import create_app

gc.set_threshold(700, 10, 100)

app = create_app()
