"""Numbers as the lessons' prose writes them: small counts as words, ordinals, and lists joined
with "and". Every lesson's ``figures()`` uses these, so a count reads the same in every lesson.

Leaves out: numbers above twelve as words (the prose writes them as digits), fractions other
than one half to one tenth, and any language but English.

    >>> WORDS[3], ORDINALS[0], and_list([0, 6, 12]), fraction(4)
    ('three', 'first', '0, 6 and 12', 'a quarter')
"""

WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve")
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


def and_list(items: list) -> str:
    """Items as text, the last joined with "and": ``and_list([325, 217, 208])`` ->
    '325, 217 and 208'"""
    *head, last = [str(i) for i in items]
    return f"{', '.join(head)} and {last}" if head else last


FRACTIONS = {2: "half", 3: "a third", 4: "a quarter", 5: "a fifth", 6: "a sixth",
             7: "a seventh", 8: "an eighth", 9: "a ninth", 10: "a tenth"}


def fraction(parts: int) -> str:
    """One ``parts``-th as words (a ValueError outside 2 to 10): ``fraction(4)`` -> 'a quarter'
    """
    if parts not in FRACTIONS:
        raise ValueError(f"parts: the prose names fractions 1/2 to 1/10, got {parts!r}")
    return FRACTIONS[parts]
