"""Environments for learning code, for every registered game.

- :class:`VectorEnv`: a batch of episodes stepped in Rust (``docs/vector_env.md``).
- :mod:`cardkit.envs.pettingzoo` (PettingZoo AEC, every seat a learner) and
  :mod:`cardkit.envs.gym` (Gymnasium, one learning seat against cardkit agents),
  built on the common learning contract (``game.info``,
  ``state.observation_tensor``, ``state.legal_action_mask``,
  ``state.id_to_action``); see ``docs/learning.md``.

The last two need PettingZoo and Gymnasium, which neither ``import cardkit`` nor
``import cardkit.envs`` loads: ``pip install 'cardkit[envs]'``. Importing either
module without them raises an :class:`ImportError` that names the extra.
"""

from cardkit.envs.vector import VectorEnv

__all__ = ["VectorEnv"]
