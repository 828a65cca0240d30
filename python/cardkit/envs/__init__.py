"""Environments for learning code: :class:`VectorEnv`, a batch of episodes in Rust."""

from cardkit.envs.vector import VectorEnv

__all__ = ["VectorEnv"]
