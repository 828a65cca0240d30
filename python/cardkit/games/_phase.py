"""The base of every game's phase enum.

A phase is a :class:`StrEnum` member: it equals its lower-case value (``Phase.BID ==
"bid"``), hashes like it and ``json.dumps`` writes it as that string, so saves,
observations and events read the same as the plain strings they replaced.
``enum.StrEnum`` is new in Python 3.11; on 3.10 a ``str`` mix-in stands in for it.
"""

from __future__ import annotations

import sys
from enum import Enum

__all__ = ["StrEnum"]

if sys.version_info >= (3, 11):
    from enum import StrEnum
else:

    class StrEnum(str, Enum):
        """``enum.StrEnum`` of Python 3.11: members are strings, ``str()`` is the value."""

        def __str__(self) -> str:
            return str.__str__(self)
