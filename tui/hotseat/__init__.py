"""Hot seat: several people at one keyboard, each a seat of its own at a table hosted in this process.

Each person has a ``TableClient`` of their own, so what shows for a person is exactly what the host sends
that seat (ruling A1 holds by construction: no view is computed here). Between two people a curtain
covers the table, with only the public table (a spectator's view) around it.

- ``seats.py``: the people's clients and the spectator's, and who the game awaits.
- ``turns.py``: whose view the keyboard shows next (a pure function).
- ``curtain.py``: the curtain, "Pass to Ann — press Enter when only Ann is looking".
- ``public_table.py``: the public table, which passes the keyboard from person to person.
- ``person_table.py``: one person's table, shown once the curtain is lifted for them.
"""
