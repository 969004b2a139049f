"""Sampling and permutations of ``Generator``: choice, permutation, permuted, shuffle."""


class _SamplingMethods:
    """Mixed into ``Generator``."""
