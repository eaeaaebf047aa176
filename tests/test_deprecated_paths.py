"""The three paths the docs taught before the packages were one per layer still import for one release, each
with a :class:`DeprecationWarning` naming its new home, and hand over the very same objects."""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

import pytest

import inarow.engines.exact.reference
import inarow.engines.textbook
import inarow.teaching.abstract


@pytest.mark.parametrize(
    ("old", "new", "name"),
    [
        ("inarow.search.textbook", inarow.engines.textbook, "search"),
        ("inarow.search.abstract", inarow.teaching.abstract, "parse_leaves"),
        ("inarow.search.engine", inarow.engines.exact.reference, "Engine"),
    ],
)
def test_an_old_public_path_imports_with_a_warning_and_gives_the_new_object(
    old: str, new: ModuleType, name: str
) -> None:
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=rf"{old} is deprecated .* import {new.__name__}"):
        module = importlib.import_module(old)
    assert getattr(module, name) is getattr(new, name)
