"""Numbers as the lessons' prose writes them: small counts as words, ordinals, and lists joined
with "and". Every lesson's ``figures()`` uses these, so a count reads the same in every lesson.

Leaves out: numbers above twelve as words (the prose writes them as digits), and any language
but English.

    >>> WORDS[3], ORDINALS[0], and_list([0, 6, 12])
    ('three', 'first', '0, 6 and 12')
"""

WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve")
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


def and_list(items: list) -> str:
    """Items as text, the last joined with "and": ``and_list([325, 217, 208])`` ->
    '325, 217 and 208'"""
    *head, last = [str(i) for i in items]
    return f"{', '.join(head)} and {last}" if head else last
