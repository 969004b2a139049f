"""Manipulation: views, joining and cutting, shaping, padding, diagonals, and the
functional helpers (apply_along_axis ...).
"""
