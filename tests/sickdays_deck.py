"""The Sick Days deck, as both Sick Days games' tests name its cards (tests/sickdays_solo/helpers.py,
tests/sickdays_party/helpers.py): the solo and the party game deal the same cards, workers then events."""
from balance.simcore.sickdays_party import constants as party
from balance.simcore.sickdays_solo import constants as solo

DAYS = 7  # a worker suit's days, 1..7
NWORK = solo.NWORK
assert party.NWORK == NWORK  # one deck for both games


def card(suit, day):
    """Card id of worker `suit` (0-based), day 1..7."""
    return suit * DAYS + day - 1


def event(e):
    return NWORK + e


def take_out(s, c, start, count):
    """Take card c out of the packed list s[start:start + s[count]]: the cards after it close up, -1 fills
    the freed end, the count drops by one. Returns the cards left, in order."""
    n = s[count]
    left = [x for x in s[start:start + n] if x != c]
    assert len(left) == n - 1, f"card {c} is not in the list at {start}"
    s[start:start + n] = left + [-1]
    s[count] = n - 1
    return left
