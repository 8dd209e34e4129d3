"""Fixtures of the command-line tests."""
import pytest

from runkit import race21_registered


@pytest.fixture
def race21():
    """The toy game (tests/toygame.py) registered as `race21` for one test: a module that plays it says
    `pytestmark = pytest.mark.usefixtures("race21")`."""
    with race21_registered():
        yield
