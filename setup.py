"""The packages: every folder under core/, net/ and tui/ (a new game's two folders need no line here),
and the top-level styles/ carried as tui/styles, where tui/__init__.py looks for it in an install."""

from setuptools import find_packages, setup

setup(packages=find_packages(include=["core*", "net*", "tui*"]) + ["tui.styles", "tui.styles.screens"])
