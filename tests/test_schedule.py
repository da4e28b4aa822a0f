"""How the full lane spreads its tests over two workers (tests/conftest.py): the groups tests
run in, the order long groups start in, and the schedule printed at the end of a run."""

from __future__ import annotations

from tests.conftest import schedule, start_order, xdist_group


def test_a_lesson_of_a_graded_class_file_is_a_group_and_both_sandbox_files_are_one():
    assert xdist_group("tests/test_autograde.py::test_x[03-overlap]") == "03-overlap"
    assert xdist_group("tests/test_selfgrade.py::test_y[06-evaluation]") == "06-evaluation"
    assert xdist_group("tests/test_adversarial.py::test_z[os_exit]") == "sandbox"
    assert xdist_group("tests/test_parallel.py::test_w") == "sandbox"
    assert xdist_group("tests/test_windows.py::test_v[03-overlap]") == "tests/test_windows.py"


def test_long_groups_start_first_then_files_with_slow_tests():
    groups = ["tests/test_windows.py", "tests/test_explorers.py", "03-overlap", "sandbox",
              "tests/test_browser.py"]
    assert sorted(groups, key=start_order) == [
        "tests/test_browser.py", "sandbox", "03-overlap", "tests/test_explorers.py",
        "tests/test_windows.py"]


def test_the_schedule_shows_each_workers_long_groups_in_order_and_when_it_finished():
    phases = [("gw0", "tests/test_browser.py", 100.0, 150.0),
              ("gw0", "tests/test_browser.py", 150.0, 170.0),
              ("gw1", "sandbox", 101.0, 190.0),
              ("gw0", "01-units", 170.0, 200.0),
              ("gw1", "tests/test_windows.py", 190.0, 192.0),
              ("gw1", "tests/test_units.py", 192.0, 195.5)]
    assert schedule(phases) == [
        "gw0: test_browser.py 0-70, 01-units 70-100; done at 100 s",
        "gw1: sandbox 1-90, 2 shorter group(s) 6 s; done at 96 s"]


def test_sandbox_tests_start_the_runs_first_and_read_the_adversarial_class_last():
    from tests.conftest import sandbox_order

    tests = {"reads the class": ["run", "adversarial_class", "sandbox_runs"],
             "a scan": ["tmp_path"],
             "starts the runs": ["runs", "sandbox_runs"]}
    assert sorted(tests, key=lambda t: sandbox_order(tests[t])) == [
        "starts the runs", "a scan", "reads the class"]
