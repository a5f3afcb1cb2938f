"""The game contract's models (games.core.model): ``Model.model_copy`` gives what pydantic's
gives, and ``made_once`` shares one object per distinct action."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, PrivateAttr, ValidationError

from games.core import Model, made_once


class Inner(Model):
    n: int = 0


class Thing(Model):
    name: str
    inner: Inner = Inner()
    tags: tuple[str, ...] = ()


class WithPrivate(Model):
    n: int = 0
    _seen: int = PrivateAttr(default=3)


def test_model_copy_matches_pydantics_own() -> None:
    """The fields, the set fields, equality, the JSON and frozenness of a copy with and
    without an update are those of pydantic's model_copy; the original is unchanged."""
    a = Thing(name="a", tags=("x",))
    for update in (None, {}, {"name": "b"}, {"inner": Inner(n=2), "tags": ()}):
        ours = a.model_copy(update=update)
        theirs = BaseModel.model_copy(a, update=update)
        assert ours == theirs and ours is not a
        assert ours.__dict__ == theirs.__dict__ and ours.__dict__ is not a.__dict__
        assert ours.model_fields_set == theirs.model_fields_set
        assert ours.model_dump_json() == theirs.model_dump_json()
        assert hash(ours) == hash(theirs)
        with pytest.raises(ValidationError):
            ours.name = "c"  # type: ignore[misc]
    assert a == Thing(name="a", tags=("x",)) and a.model_fields_set == {"name", "tags"}


def test_model_copy_of_a_model_with_private_attributes_or_deep_is_pydantics() -> None:
    """A model with private attributes keeps them in its copy; a deep copy copies the parts."""
    p = WithPrivate(n=1)
    q = p.model_copy(update={"n": 2})
    assert q.n == 2 and q._seen == 3
    t = Thing(name="a", inner=Inner(n=1))
    deep = t.model_copy(deep=True)
    assert deep == t and deep.inner is not t.inner


def test_made_once_shares_one_object_per_fields() -> None:
    """made_once: equal fields give the very same (frozen) object; other fields another;
    invalid fields are refused as by the model."""
    make = made_once(Thing)
    a = make(name="a", tags=("x",))
    assert make(name="a", tags=("x",)) is a
    assert a == Thing(name="a", tags=("x",))
    assert make(name="b") is not a
    with pytest.raises(ValidationError):
        make(name=3)
