"""Helpers every lesson's hidden tests use; copied verbatim into the notebooks.

``_alone(f, name)`` runs the learner's ``f`` with reference versions (the lesson's ``_REFS``)
of the other exercises it builds on, so a bug in one exercise costs that exercise only.
``_raises(f, *args)`` says whether ``f(*args)`` raises ValueError.

Leaves out: anything lesson-specific (see ``lNN_*.py``); ``_same`` (generated from
``chunklib.exact``).
"""


def _alone(f, name):
    """``f`` (the learner's ``name``) as a function that, for the length of each call, finds
    the reference versions in the notebook's names of the other exercises; the learner's
    versions are put back afterwards. Works for every form of ``f``: keyword-only defaults,
    decorators, the learner's own helpers, a lambda or a callable object.

    ``_alone(n_chunks, "n_chunks")(1000, 200, 50)`` uses the reference chunk_starts.
    """
    f = getattr(f, "_alone_of", f)
    names = globals()
    refs = {k: v for k, v in names.get("_REFS", {}).items() if k != name}
    forget = getattr(f, "cache_clear", lambda: None)

    def alone(*args, **kwargs):
        missing = object()
        saved = {k: names.get(k, missing) for k in refs}
        names.update(refs)
        forget()  # an lru_cache must not answer from results the learner's siblings gave
        try:
            return f(*args, **kwargs)
        finally:
            forget()
            for k, v in saved.items():
                if v is missing:
                    names.pop(k, None)
                else:
                    names[k] = v

    alone._alone_of = f
    return alone


def _raises(f, *args):
    """True when ``f(*args)`` raises ValueError; False when it returns or raises another error.

    ``_raises(int, "x")`` -> True
    """
    try:
        f(*args)
    except ValueError:
        return True
    except Exception:
        return False
    return False
