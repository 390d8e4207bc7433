"""Warnings that name the script's line, as NumPy's do: the first frame
outside the maniple package, however many of maniple's own frames (wrappers,
deferred evaluation, NumPy's protocols) lie between. Python's default filter
then shows each warning once per line of the script, not once per line of
maniple."""
import os
import sys
import warnings

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep  # maniple/


def user_level(skip=0):
    """warnings.warn's stacklevel, for a call made skip frames above the
    caller of user_level, of the first frame outside maniple."""
    f, level = sys._getframe(2 + skip), 2 + skip
    while f is not None and f.f_code.co_filename.startswith(PACKAGE):
        f, level = f.f_back, level + 1
    return level


def warn(message, category=UserWarning):
    """warnings.warn at the script's line."""
    warnings.warn(message, category, stacklevel=user_level())


def from_script():
    """Whether the function calling this was called from outside maniple."""
    return not sys._getframe(2).f_code.co_filename.startswith(PACKAGE)
