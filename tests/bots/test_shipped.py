"""The shipped models are read one way (bots/shipped.py), and a file that does not fit the
inputs this code computes is refused with its name, never played with."""

from __future__ import annotations

import copy
import json
import re

import pytest

from hollywood_gin.bots import handnet, knockmodel, knocknet, shipped, valuenet

NETS = [
    (valuenet, "value_net.json", "dense_features", "bias"),
    (knocknet, "knock_net.json", "dense_features", "bias"),
    (handnet, "hand_net.json", "scalars", "b1"),
]


@pytest.mark.parametrize(("module", "filename", "inputs", "bias"), NETS)
def test_each_network_reads_back_from_its_shipped_file(module, filename, inputs, bias):
    data = shipped.read_shipped(filename)
    net = module.net_from_dict(data)
    assert filename == module.FILE
    assert type(net).__name__ in {"ValueNet", "KnockNet", "HandNet"}


@pytest.mark.parametrize(("module", "filename", "inputs", "bias"), NETS)
def test_a_network_for_other_inputs_is_refused_by_name(module, filename, inputs, bias):
    data = copy.deepcopy(shipped.read_shipped(filename))
    data[inputs] = [*data[inputs], "something_new"]
    with pytest.raises(ValueError, match=re.escape(f"{filename} has inputs")):
        module.net_from_dict(data)


@pytest.mark.parametrize(("module", "filename", "inputs", "bias"), NETS)
def test_a_network_with_a_unit_missing_is_refused_by_name(module, filename, inputs, bias):
    data = copy.deepcopy(shipped.read_shipped(filename))
    data[bias] = data[bias][:-1]
    with pytest.raises(ValueError, match=re.escape(f"{filename}: weight shapes do not match")):
        module.net_from_dict(data)


def test_the_knock_model_checks_its_features(monkeypatch):
    data = shipped.read_shipped("knock_model.json")
    assert knockmodel.load_model.__wrapped__().coef == tuple(float(c) for c in data["coef"])
    data["features"] = data["features"][:-1]
    monkeypatch.setattr(knockmodel, "read_shipped", lambda filename: data)
    with pytest.raises(ValueError, match=re.escape("knock_model.json has inputs")):
        knockmodel.load_model.__wrapped__()


def test_a_shipped_file_that_is_not_an_object_is_refused(monkeypatch):
    parse = json.loads
    monkeypatch.setattr(shipped, "json", type("Json", (), {
        "loads": staticmethod(lambda text: [parse(text)])}))
    with pytest.raises(ValueError, match=re.escape("value_net.json: not a JSON object")):
        shipped.read_shipped("value_net.json")


def test_weights_come_back_as_floats():
    data = {"v": [1, 2.5], "m": [[1, 2], [3, 4.5]]}
    assert shipped.vector(data, "v") == (1.0, 2.5)
    assert shipped.matrix(data, "m") == ((1.0, 2.0), (3.0, 4.5))
    assert all(isinstance(w, float) for row in shipped.matrix(data, "m") for w in row)
