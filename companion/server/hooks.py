"""gunicorn's server hooks, run in the master: one held-polls table (``companion/live/holds.py``)
for every worker it forks, each worker writing its own slot, and a dead worker's slot cleared.

The table must exist before the first fork to be shared (an anonymous shared mapping is inherited,
never found later), and only the master sees every worker start and end, whether it exits or is
killed: hence gunicorn's hooks rather than anything in the app, which each worker loads after the
fork.
"""

from __future__ import annotations

from companion.live.holds import HeldPolls


def on_starting(arbiter) -> None:
    """Make the table every worker will count its held polls in, before the first fork."""
    arbiter.companion_held_polls = HeldPolls.shared()


def pre_fork(arbiter, worker) -> None:
    """Give the worker about to be forked a slot of the table of its own (it writes only there)."""
    table = getattr(arbiter, "companion_held_polls", None)
    if table is None:
        return
    slot = table.take_slot()
    if slot is None:
        arbiter.log.warning("more workers than the held-polls table has slots: this one counts "
                            "its own polls only")
        return
    worker.held_polls = table.for_slot(slot)


def child_exit(arbiter, worker) -> None:
    """A worker ended, however (killed too): its held polls are held no more."""
    table = getattr(worker, "held_polls", None)
    if table is not None:
        table.release()
