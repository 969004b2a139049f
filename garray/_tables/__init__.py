"""The kernel tables of every family: which template instantiations garray builds.

Each family is one ``Family`` (``family.py``: kernel file, slot enum, dtypes, templates,
barrier slots); ``family.MODULES`` lists the modules defining them, and the table list,
meson's dependency list and the barrier-kernel list follow from it.

Build-time safe: these modules are pure Python that import nothing of garray but
``garray._dtypes`` (and each other), because the build runs ``garray/_compiler/aot.py``
before the extension exists and loads them without ``garray/__init__.py``.  Keep it so:
no import of the package, of ``garray._core`` or of NumPy beyond what ``_dtypes`` needs.
"""
