"""Test support for garray and for code that uses it (not imported by ``import garray``)."""
