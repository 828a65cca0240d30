"""Learning environments for every registered game, built on the common learning
contract (``game.info``, ``state.observation_tensor``, ``state.legal_action_mask``,
``state.id_to_action``): :mod:`cardkit.envs.pettingzoo` (PettingZoo AEC, every seat
a learner) and :mod:`cardkit.envs.gym` (Gymnasium, one learning seat against cardkit
agents). See ``docs/learning.md``.

Both need PettingZoo and Gymnasium, which ``import cardkit`` never loads:
``pip install 'cardkit[envs]'``. Importing either module without them raises an
:class:`ImportError` that names the extra.
"""

from __future__ import annotations
