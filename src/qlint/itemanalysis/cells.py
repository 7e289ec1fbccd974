"""The cells of a responses export that are numbers or times, read strictly: a bad cell is an
error the reader reports at its `file:line:col`, never a guess (`str.isdigit` accepts `²`, which
`int` refuses; ISO 8601 strings with different offsets do not sort by the instant they name).

Times become instants: microseconds since 1970-01-01 UTC. A time without an offset is read as
UTC (Moodle writes the user's own zone without one; its times are compared with each other).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

MAX_ATTEMPT_DIGITS = 9  # an attempt number of a billion is a corrupt cell; int() of 5,000 digits raises
MAX_TIME_CHARS = 64  # the longest format below is under 40 characters
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_MICROSECOND = timedelta(microseconds=1)
# Moodle's Responses report ("Started on"): its strftimedatetime and strftimedaydatetime in
# English, with and without the comma, 12- and 24-hour; ISO 8601 is tried first.
_MOODLE = ("%d %B %Y, %I:%M %p", "%d %B %Y %I:%M %p", "%A, %d %B %Y, %I:%M %p", "%A %d %B %Y %I:%M %p",
           "%d %B %Y, %H:%M", "%d %B %Y %H:%M", "%d %b %Y, %I:%M %p", "%d %b %Y %I:%M %p")
_TIME_EXAMPLES = "ISO 8601 such as 2024-03-01T10:00:00Z or 2024-03-01 15:00:00+05:00, or Moodle's 1 March 2024, 9:00 AM"


def attempt_number(text: str) -> int:
    """A whole attempt number from 1, written in ASCII digits; ValueError saying why not."""
    if not (text.isascii() and text.isdigit()) or len(text) > MAX_ATTEMPT_DIGITS:
        raise ValueError(f"attempt {text[:40]!r} is not a whole number (1, 2, 3 ...)")
    n = int(text)
    if n < 1:
        raise ValueError(f"attempt {text!r}: attempts are numbered from 1")
    return n


def instant(text: str) -> int | None:
    """Microseconds since the epoch of a time cell; None for a blank cell (or Moodle's `-`);
    ValueError naming the formats read."""
    t = " ".join(text.split())
    if not t or t == "-":
        return None
    if len(t) > MAX_TIME_CHARS or not t.isascii():
        raise ValueError(f"time {t[:40]!r} is not a time qlint reads ({_TIME_EXAMPLES})")
    stamp = _parse(t)
    if stamp is None:
        raise ValueError(f"time {t!r} is not a time qlint reads ({_TIME_EXAMPLES})")
    if stamp.tzinfo is None:
        stamp = stamp.replace(tzinfo=timezone.utc)
    return (stamp - _EPOCH) // _MICROSECOND


def _parse(t: str) -> datetime | None:
    iso = t[:-4] + "+00:00" if t.endswith(" UTC") else t  # "2024-03-01 10:00:00 UTC"
    try:
        return datetime.fromisoformat(iso)
    except ValueError:
        pass
    for fmt in _MOODLE:
        try:
            return datetime.strptime(t, fmt)
        except ValueError:
            continue
    return None
