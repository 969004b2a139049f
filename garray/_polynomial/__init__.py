"""NumPy's legacy polynomial API (poly1d and the poly* functions).

``poly1d``: the class, polyval, the arithmetic, poly and roots; ``fit``: polyfit;
``printing``: how a poly1d prints.
"""
