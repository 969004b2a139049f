"""Creation routines: ranges, grids and triangles, sequences and windows.
"""
