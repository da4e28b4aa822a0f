"""Write everything the source notebooks hold by generation, from its one source, in order.

Run ``.venv/bin/python tools/sync.py``, then ``python3 course.py release``. It runs:
lesson 6's shipped results (``build_results``, first: the prose reads them), the chapter
reference (``sync_reference``), the lessons' prose with their computed figures
(``sync_prose``), the quiz questions (``sync_quiz``) and the hidden tests' helpers and Part 1
checks (``sync_hidden``). Each is idempotent; tests fail while any copy is stale.

Leaves out: the release (``course.py release``) and anything a person writes in a notebook.
"""

import build_results
import sync_hidden
import sync_prose
import sync_quiz
import sync_reference

if __name__ == "__main__":
    for tool in (build_results, sync_reference, sync_prose, sync_quiz, sync_hidden):
        tool.main()
