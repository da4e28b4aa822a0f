"""Adversarial submissions for the grader (lesson 3 cells), autograded by tests/test_adversarial.py.

``cases.CASES``: what each submission does and what autograde must make of it. ``spy``: the
submission that tries to read the instructor's files and change grades from inside its kernel.
"""
