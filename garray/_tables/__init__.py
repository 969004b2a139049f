"""The kernel tables of every family: which template instantiations garray builds.

Pure Python that imports nothing of garray but ``garray._dtypes``, so the build
(``garray/_compiler/aot.py``, run by meson before the extension exists) can load
it without the package.
"""
