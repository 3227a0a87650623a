"""Issue 29 round 3: the bounded sandbox's fast paths (macros called without ``Macro.__call__``'s frames, tests
by name without Jinja's look-ups, item and attribute look-ups on plain data) give the stock sandbox's answers
and count the same steps."""

from __future__ import annotations

import functools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jinja2 import StrictUndefined, Undefined
from jinja2.sandbox import SandboxedEnvironment
from jinja2.utils import Namespace

from anko_writer import render
from anko_writer.render import BoundedEnvironment
from tests import json_choices
from tests.choices import Choices, built

MACROS = "{% macro f(a, b=2) %}{{ a }}-{{ b }}{% endmacro %}{% macro g() %}{{ varargs }}{{ kwargs }}{% endmacro %}" \
         "{% macro h(x) %}<{{ caller(x) }}>{% endmacro %}{% macro e() %}<b>{% endmacro %}"


def both(source: str, undefined: type[Undefined] = Undefined, **context: Any) -> tuple[str, str]:
    """``source`` rendered by our sandbox (with a budget) and by Jinja's stock one, or the error each raised."""
    out = []
    for env in (BoundedEnvironment(undefined=undefined), SandboxedEnvironment(undefined=undefined)):
        if isinstance(env, BoundedEnvironment):
            env.budget = render._Budget()
        try:
            out.append(env.from_string(source).render(**context))
        except Exception as exc:  # the same kind of error, with the same message
            out.append(f"{type(exc).__name__}: {exc}")
    return out[0], out[1]


@pytest.mark.parametrize("body", [
    "{{ f(1) }} {{ f(1, 3) }} {{ f(1, b=4) }} {{ f(a=5) }} {{ f() }}",
    "{% for i in range(3) %}{{ f(i) }}{{ f(i, loop.index) }}{% endfor %}",
    "{{ g(1, 2, x=3) }}{{ g() }}",
    "{% call(y) h(2) %}{{ y * 2 }}{% endcall %}",
    "{% autoescape true %}{{ e() }}{{ f('<i>') }}{{ '<i>' }}{% endautoescape %}{{ e() }}",
    "{{ f(1, 2, 3) }}",
    "{{ e(1) }}",
    "{{ f(1, c=3) }}",
    "{% set ns = namespace(m=f) %}{{ ns.m(7) }}{{ [f] | map('string') | list }}",
])
@pytest.mark.parametrize("undefined", [Undefined, StrictUndefined])
def test_macros_render_as_in_the_stock_sandbox(body: str, undefined: type[Undefined]) -> None:
    ours, stock = both(MACROS + body, undefined)
    assert ours == stock


@pytest.mark.parametrize("body", [
    "{{ xs | selectattr('a', 'equalto', 1) | list }}",
    "{{ xs | rejectattr('a', 'in', [1, 3]) | map(attribute='a') | list }}",
    "{{ xs | selectattr('b', 'defined') | list }}",
    "{{ [1, 2, 3, none] | select('odd') | list }}{{ [1, none] | reject('none') | list }}",
    "{{ ['upper', 'nope', 'trim'] | select('filter') | list }}{{ ['odd', 'x'] | select('test') | list }}",
    "{{ xs | selectattr('a', 'nope') | list }}",
    "{{ xs | selectattr('a', 'gt') | list }}",
    "{{ xs | selectattr('a') | list }}{{ xs | rejectattr('b') | list }}{{ [0, 1, ''] | select | list }}",
    "{{ [] | selectattr('a', 'nope') | list }}{{ xs | selectattr | list }}",
    "{{ xs | selectattr('c.d', 'equalto', 1) | list }}{{ xs | selectattr('a', 'gt', 1) | first }}",
    "{{ xs | rejectattr('a', 'sameas', 1) | list }}{{ [1, 2] | reject('divisibleby', 2) | list }}",
    "{{ [none, 1] | select('defined') | list }}{{ xs | selectattr('a', 'equalto', x=1) | list }}",
])
def test_tests_by_name_give_the_stock_answers(body: str) -> None:
    """``select``, ``reject``, ``selectattr`` and ``rejectattr`` (ours look a test up once a filter, not once an
    item) keep the same items and raise the same errors as Jinja's."""
    xs = [{"a": 1}, {"a": 2, "b": None}, {"a": 3, "c": {"d": 1}}]
    ours, stock = both(body, xs=xs)
    assert ours == stock


def test_selecting_with_a_test_that_takes_the_environment_is_the_stock_way() -> None:
    env = BoundedEnvironment()
    env.tests["near"] = render.pass_environment(lambda e, value, other: e is env and abs(value - other) <= 1)
    assert env.from_string("{{ [1, 3, 5] | select('near', 4) | list }}").render() == "[3, 5]"


class Greeter:
    """A host object whose methods a template calls (as the phraser's ``phrase``)."""

    def hello(self, who: str, end: str = "！") -> str:
        """A greeting."""
        return f"你好，{who}{end}"

    @render.pass_context
    def where(self, context: Any) -> str:
        """The name of the template calling."""
        return str(context.name)

    def stop(self) -> str:
        """A method that raises StopIteration."""
        raise StopIteration


def test_methods_are_called_as_in_the_stock_sandbox() -> None:
    body = "{{ g.hello('甲') }}{{ g.hello(who='乙', end='。') }}{% for i in [1] %}{{ g.hello(i) }}{% endfor %}" \
           "{{ g.where() }}{{ g.stop() }}"
    ours, stock = both(body, g=Greeter())
    assert ours == stock and "你好，甲！" in ours


@pytest.mark.parametrize("obj", [{"a": 1, "items": [1], 2: "two", "big": "x" * 10}, [1, "b", [2]], ("t", 1), "abc"])
def test_item_lookups_give_the_stock_answers(obj: Any) -> None:
    ours, stock = BoundedEnvironment(), SandboxedEnvironment()
    for key in ["a", "items", "keys", "nope", "_x", "__class__", 2, 0, 1, -1, 9, True, 1.0, None, "upper"]:
        mine, theirs = ours.getitem(obj, key), stock.getitem(obj, key)
        assert type(mine) is type(theirs), key
        if not isinstance(theirs, stock.undefined) and not callable(theirs):
            assert mine == theirs, key


def test_attributes_of_namespaces_modules_and_loops_give_the_stock_answers() -> None:
    ours, stock = BoundedEnvironment(), SandboxedEnvironment()
    module = ours.from_string("{% set n = 1 %}{% set d = {'k': 2} %}{% macro m() %}x{% endmacro %}").module
    for obj in (Namespace(a=1, b="b", c=[1]), module, "a{}"):
        for name in ["a", "b", "c", "n", "d", "m", "nope", "_x", "__class__", "format", "upper", "__init__"]:
            for _ in range(2):  # the verdict, then the remembered one
                mine, theirs = ours.getattr(obj, name), stock.getattr(obj, name)
                assert type(mine) is type(theirs), name
                if not isinstance(theirs, stock.undefined) and not callable(theirs):
                    assert mine == theirs, name
    assert ours.getattr("a{}", "format")("b") == "ab"  # still the sandbox's checked str.format


def test_the_fast_paths_count_one_step_each() -> None:
    """Each loop item, look-up and call is one step, as before the fast paths: ``range(7)`` is a call, then each
    of the 7 iterations is a loop step, ``d.a``, ``d['b']``, ``f(i)``, the look-up ``xs.append`` and its call."""
    env = BoundedEnvironment()
    env.budget = render._Budget()
    source = "{% macro f(x) %}{{ x }}{% endmacro %}" \
             "{% for i in range(7) %}{{ d.a }}{{ d['b'] }}{{ f(i) }}{% set _ = xs.append(i) %}{% endfor %}"
    xs: list[int] = []
    assert env.from_string(source).render(d={"a": "A", "b": "B"}, xs=xs) == "".join(f"AB{i}" for i in range(7))
    per_iteration = 6
    assert env.budget.steps == 1 + 7 * per_iteration and xs == list(range(7))


def test_a_runaway_macro_loop_still_stops(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render, "MAX_STEPS", 2048)
    env = BoundedEnvironment()
    env.budget = render._Budget()
    with pytest.raises(render.BudgetError, match="模板运行超过 2,048 步"):
        env.from_string("{% macro f() %}{% endmacro %}{% for i in range(5000) %}{{ f() }}{% endfor %}").render()


@pytest.mark.parametrize("body", [
    "{{ [3, 1, 2] | list }}{{ xs | map(attribute='a') | list }}{{ [1, 2] | join(',') }}{{ [] | first }}",
    "{{ xs | groupby('a') | list }}{{ [1, 2, 3] | slice(2) | list }}{{ [1, 2] | sum }}{{ [1, 1] | unique | list }}",
    "{{ 'ab' | first }}{{ xs | map('length') | list }}{{ xs | sum(attribute='a') }}{{ 'a,b' | join }}",
])
def test_filters_with_an_async_variant_give_the_stock_answers(body: str) -> None:
    """Jinja's filters with an async variant are their sync functions here (the environment is not async)."""
    ours, stock = both(body, xs=[{"a": 2}, {"a": 1}])
    assert ours == stock


@pytest.mark.parametrize("body", ["{{ 1 + 2 }} {{ 2 * 3.5 }} {{ 7 % 3 }} {{ 7.5 % 2 }} {{ 2 ** 10 }}", "{{ 1 % 0 }}",
                                  "{{ 'a' * 3 }}{{ [1] + [2] }}{{ true + 1 }}{{ '%d' % 4 }}"])
def test_arithmetic_on_numbers_gives_the_stock_answers(body: str) -> None:
    ours, stock = both(body)
    assert ours == stock


@functools.cache
def _compiled(kind: str, body: str) -> Any:
    """``body`` compiled once in an environment of its own for each ``kind`` (``stock``: Jinja's sandbox; ``ours``,
    ``fast``, ``plain``: ours, given a fresh budget at each render): the property test below draws the same 72
    bodies again and again, and compiling them four times an example was most of its time."""
    return _environment(kind).from_string(body)


@functools.cache
def _environment(kind: str) -> SandboxedEnvironment:
    """The environment of :func:`_compiled`'s ``kind``."""
    return SandboxedEnvironment() if kind == "stock" else BoundedEnvironment()


def _rendered(kind: str, body: str, **context: Any) -> str:
    """``body`` rendered in ``kind``'s environment (ours with a fresh budget), or the error it raised."""
    env = _environment(kind)
    if isinstance(env, BoundedEnvironment):
        env.budget = render._Budget()
    try:
        return _compiled(kind, body).render(**context)
    except Exception as exc:  # the same kind of error, with the same message
        return f"{type(exc).__name__}: {exc}"


def _small_list(ch: Choices) -> list[int]:
    return [ch.integer(0, 2) for _ in range(ch.integer(0, 2))]


def _item(ch: Choices) -> Any:
    """An item of a record: -3 to 3, up to three characters, None, a list or a dict of 0 to 2."""
    kind = ch.number(5)
    if kind == 0:
        return ch.integer(-3, 3)
    if kind == 1:
        return json_choices.text(ch, 3)
    if kind == 2:
        return None
    if kind == 3:
        return _small_list(ch)
    return {ch.pick("da"): ch.integer(0, 2) for _ in range(ch.integer(0, 2))}


def _records(ch: Choices) -> list[Any]:
    """Up to six records: dicts of up to four of ``a``, ``b``, ``keys``, ``''``, ``c`` (:func:`_item`), or 0 to 2, a
    text of up to two characters, a list of 0 to 2."""
    out: list[Any] = []
    for _ in range(ch.integer(0, 6)):
        kind = ch.number(4)
        if kind == 0:
            out.append({ch.pick(["a", "b", "keys", "", "c"]): _item(ch) for _ in range(ch.integer(0, 4))})
        elif kind == 1:
            out.append(ch.integer(0, 2))
        else:
            out.append(json_choices.text(ch, 2) if kind == 2 else _small_list(ch))
    return out


@settings(max_examples=150, deadline=None)
@given(xs=built(_records, size=200), name=st.sampled_from(["a", "b", "keys", "", "c", "c.d", "0", "upper"]),
       how=st.sampled_from(["selectattr(N) | list", "rejectattr(N) | list", "selectattr(N, 'defined') | list",
                            "rejectattr(N, 'defined') | list",
                            "rejectattr(N, 'equalto', 1) | list", "selectattr(N, 'in', [1, 2, none]) | list",
                            "map(attribute=N) | list", "map(attribute=N) | select('defined') | list",
                            "map(attribute=N, default=0) | list"]))
def test_attribute_look_ups_of_items_give_the_plain_answers_and_steps(xs: list[Any], name: str, how: str) -> None:
    """``selectattr``, ``rejectattr`` and ``map(attribute=)`` reading a plain dict's item without ``getitem``'s call
    (round 5), and ``selectattr(name, 'defined')`` not making the undefined of a dict without the item, keep the
    stock sandbox's items and errors, and count the steps Jinja's own look-up counts."""
    body = "{{ xs | " + how.replace("N", repr(name)) + " }}"
    ours, stock = _rendered("ours", body, xs=xs), _rendered("stock", body, xs=xs)
    assert ours == stock
    steps = []
    for fast in (True, False):
        env = _environment("fast" if fast else "plain")  # made unpatched, as the environment of each example was
        with pytest.MonkeyPatch.context() as mp:
            if not fast:  # Jinja's getter, and a 'defined' test that is not the one the fast path knows
                mp.setattr(render, "_item_getter", render.make_attrgetter)
                mp.setattr(render, "_plain_item_name", lambda attribute: None)  # round 9's reads in the loops
                mp.setattr(render, "test_defined", lambda value: not isinstance(value, Undefined))
            _rendered("fast" if fast else "plain", body, xs=xs)  # the error is compared above; the steps up to it here
        steps.append(env.budget.steps)
    assert steps[0] == steps[1]
