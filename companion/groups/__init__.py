"""A group's memory across nights (issue 35, part 4): a table saved by its host as a group, its
nights, standings and statistics (``keep.py``), its exports (``export.py``) and its pages (``web.py``)."""
