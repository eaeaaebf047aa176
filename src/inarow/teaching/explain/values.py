"""Textbook values in JSON: ±∞ as the strings ``"inf"`` and ``"-inf"``, because JSON has no infinity."""

from __future__ import annotations

import math

JsonValue = int | float | str | None
"""A textbook value in JSON: a number (integers stay integers), ``"inf"``/``"-inf"`` for ±∞, or null."""


def json_value(value: float | None) -> JsonValue:
    """A value for JSON: integers stay integers, ±∞ become ``"inf"`` / ``"-inf"``, None and NaN null."""
    if value is None or math.isnan(value):
        return None
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return int(value) if float(value).is_integer() else value
