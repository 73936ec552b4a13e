"""The learned models shipped beside the bots as JSON files (``value_net.json``,
``hand_net.json``, ``knock_net.json``, ``knock_model.json``): one way to read them and
check them against the inputs this code computes, so that a file written for other
inputs fails loudly, naming itself, instead of playing on with weights that mean
something else."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

__all__ = ["check", "matrix", "read_shipped", "same_inputs", "vector"]


def read_shipped(filename: str) -> dict[str, Any]:
    """The JSON object in ``filename``, shipped in this package."""
    text = resources.files(__package__).joinpath(filename).read_text("utf-8")
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError(f"{filename}: not a JSON object")
    return data


def same_inputs(filename: str, found: object, expected: object) -> None:
    """Refuse a model whose recorded inputs are not the ones this code computes."""
    if found != expected:
        raise ValueError(f"{filename} has inputs {found}, the code {expected}")


def check(filename: str, shapes_match: bool) -> None:
    """Refuse a model whose weight shapes do not fit its inputs."""
    if not shapes_match:
        raise ValueError(f"{filename}: weight shapes do not match its inputs")


def vector(data: dict[str, Any], key: str) -> tuple[float, ...]:
    """The list ``data[key]`` as floats."""
    return tuple(float(w) for w in data[key])


def matrix(data: dict[str, Any], key: str) -> tuple[tuple[float, ...], ...]:
    """The list of lists ``data[key]`` as rows of floats."""
    return tuple(tuple(float(w) for w in row) for row in data[key])
