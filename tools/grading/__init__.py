"""The instructor's grading pipeline (``python3 tools/grade.py``): release, collect, autograde
in a sandbox, feedback without hidden tests, grade table and review report.

Modules: ``cli`` (commands), ``pipeline`` (nbgrader runs), ``collect`` (folder or zip intake),
``execute`` (hardened Execute preprocessor), ``guard`` (kernel-side reset before each test),
``sandbox`` (bubblewrap kernel launcher), ``scan`` (static review), ``export`` (CSV, report),
``worker`` (one submission graded in a private folder), ``parallel`` (``--jobs`` and Dask),
``record`` (a worker's result written into the course), ``progress`` (bar and ``status``);
``selfgrade`` (a learner's own notebook, graded in words: ``course.py grade``) and ``cases``
(the kind of case a failing hidden test names).
"""

import sys

#: jsonschema (which nbformat and nbgrader import) loads the optional ``rfc3987_syntax`` package
#: for its IRI format checker; importing it builds 38 grammars, about 2.5 s of every grading
#: process's start (``tools/grade.py`` and each ``--jobs`` or Dask worker). Nothing here checks
#: that format (nbformat and nbgrader validate without a format checker), so it is never loaded
#: when this package comes first; a process that imported jsonschema before keeps it.
if "jsonschema" not in sys.modules:
    sys.modules.setdefault("rfc3987_syntax", None)
