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
