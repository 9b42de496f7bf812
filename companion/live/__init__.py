"""Live updates: screens' polls answered "nothing new" early, held until their room changes, and
woken across worker processes and servers."""
