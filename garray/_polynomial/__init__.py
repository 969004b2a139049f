"""NumPy's legacy polynomial API (poly1d and the poly* functions).
"""
