"""Issue 29 round 7: the bounded sandbox's compiled fast paths (``obj.name`` and ``obj['key']`` of a plain dict and
``a ~ b``'s size check written inline by ``render._CodeGenerator``; the step counter a C call against a mark) give
the answers, errors and step counts of the hooks they skip, and the budget still stops a runaway template at the
same step with the same message."""

from __future__ import annotations

import functools
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jinja2 import StrictUndefined, Undefined
from jinja2.compiler import CodeGenerator
from jinja2.sandbox import SandboxedEnvironment

from anko_writer import render
from anko_writer.render import BoundedEnvironment
from tests import json_choices
from tests.choices import Choices, built


class HookedEnvironment(BoundedEnvironment):
    """The bounded sandbox compiled by Jinja's own code generator: every look-up and ``~`` goes through the hooks
    (the way before round 7)."""

    code_generator_class = CodeGenerator


def run(env_class: type[BoundedEnvironment], source: str, undefined: type[Undefined] = StrictUndefined,
        **context: Any) -> tuple[str, int]:
    """``source`` rendered with a budget: the text (or the error's kind and message) and the steps counted."""
    env = env_class(undefined=undefined)
    env.budget = render._Budget()
    try:
        out = env.from_string(source).render(**context)
    except Exception as exc:  # the same kind of error, with the same message, after the same steps
        out = f"{type(exc).__name__}: {exc}"
    return out, env.budget.steps


@functools.cache
def _environment(env_class: type[BoundedEnvironment], undefined: type[Undefined]) -> BoundedEnvironment:
    """One environment of ``env_class`` for the property tests, its templates compiled once (:func:`_template`);
    each run gives it a fresh budget, which is all the state a render reads from it."""
    env = env_class(undefined=undefined)
    env.globals["seen"] = render.pass_context(lambda context, *names: [context.get(n) for n in names])
    return env


@functools.cache
def _template(env_class: type[BoundedEnvironment], undefined: type[Undefined], source: str) -> Any:
    """``source`` compiled once by :func:`_environment` (a property test draws the same dozen sources again and
    again: compiling them was most of its time)."""
    return _environment(env_class, undefined).from_string(source)


def run_compiled(env_class: type[BoundedEnvironment], source: str, undefined: type[Undefined], **context: Any
                 ) -> tuple[str, int]:
    """:func:`run`, with the template compiled once for every example (a fresh budget each time)."""
    env = _environment(env_class, undefined)
    env.budget = render._Budget()
    try:
        out = _template(env_class, undefined, source).render(**context)
    except Exception as exc:
        out = f"{type(exc).__name__}: {exc}"
    return out, env.budget.steps


def test_the_code_is_inline() -> None:
    """The fast paths are in the compiled code (so the comparisons below compare two ways)."""
    env = BoundedEnvironment()
    code = env.compile("{{ d.a }}{{ d['b'] }}{{ d.a ~ 'x' }}{{ d.items }}{{ d[k] }}", raw=True)
    assert code.count("_anko_o.get(") == 3 and "_anko_size_checked(_anko_s)" in code  # d.a twice, d['b']
    assert "environment.getattr(_anko_o, 'a')" in code and "environment.getitem(_anko_o, 'b')" in code
    assert "(_anko_v := _anko_o.items) is not None" in code and "environment.getattr(_anko_o, 'items')" in code  # a dict's method (round 9)
    assert "else l_0_k))" in code and code.count("environment.getitem(") == 2  # a variable key: the hook alone
    assert "_anko_o" not in HookedEnvironment().compile("{{ d.a }}{{ d['b'] }}{{ d.a ~ 'x' }}", raw=True)


_KEYS = ["a", "b", "items", "get", "_x", "__class__", 0, 1, -1, 2, "0"]


def _value(ch: Choices) -> Any:
    """-3 to 3, a half-precision float (infinities too), a boolean, None, up to three characters, a list, a 1-tuple,
    a dict or a set of 0 to 2, or ``b'x'``."""
    kind = ch.number(10)
    if kind == 0:
        return ch.integer(-3, 3)
    if kind == 1:
        return ch.half_float() if ch.number(8) else ch.pick([float("inf"), float("-inf")])
    if kind == 2:
        return ch.flip()
    if kind == 3:
        return None
    if kind == 4:
        return json_choices.text(ch, 3)
    if kind == 5:
        return [ch.integer(0, 2) for _ in range(ch.integer(0, 2))]
    if kind == 6:
        return (ch.integer(0, 2),)
    if kind == 7:
        return {ch.pick("ab"): ch.integer(0, 2) for _ in range(ch.integer(0, 2))}
    return {ch.integer(0, 2) for _ in range(ch.integer(0, 2))} if kind == 8 else b"x"


def _record(ch: Choices) -> Any:
    """A dict of up to four of :data:`_KEYS`, a list of up to three values, a pair, up to three characters, 0 to 3, or
    None (the values :func:`_value`'s)."""
    kind = ch.number(6)
    if kind == 0:
        return {ch.pick(_KEYS): _value(ch) for _ in range(ch.integer(0, 4))}
    if kind == 1:
        return [_value(ch) for _ in range(ch.integer(0, 3))]
    if kind == 2:
        return (_value(ch), _value(ch))
    if kind == 3:
        return json_choices.text(ch, 3)
    return ch.integer(0, 3) if kind == 4 else None


_RECORDS = built(_record, size=60)
_EXPRESSIONS = st.sampled_from([
    "{{ r.a }}", "{{ r.b }}", "{{ r.items }}", "{{ r.get }}", "{{ r._x }}", "{{ r.__class__ }}",
    "{{ r['a'] }}", "{{ r[0] }}", "{{ r[1] }}", "{{ r[-1] }}", "{{ r['0'] }}", "{{ r['items'] }}", "{{ r['_x'] }}",
    "{{ r.a.a }}", "{{ r.a['b'] }}", "{{ r[0][0] }}", "{{ r.a is defined }}", "{{ r[0] is defined }}",
    "{{ r.a ~ r.b }}", "{{ r.a ~ '-' ~ r[0] }}", "{{ (r.a ~ r.b) | length }}", "{% set x = r.a %}{{ x }}{{ r.b }}",
    "{% for k in r %}{{ r[k] if k is string and k in r else k }}{{ r.a }}{% endfor %}",
    "{% macro f(x) %}{{ x.a }}{{ x[0] }}{% endmacro %}{{ f(r) }}{{ f(r.a) }}",
])


@settings(max_examples=300, deadline=None)
@given(record=_RECORDS, source=_EXPRESSIONS, strict=st.booleans())
def test_inline_look_ups_give_the_hooks_answers_and_steps(record: Any, source: str, strict: bool) -> None:
    """The compiled fast paths and the hooks give the same text or error after the same number of steps."""
    undefined = StrictUndefined if strict else Undefined
    assert run_compiled(BoundedEnvironment, source, undefined, r=record) == \
        run_compiled(HookedEnvironment, source, undefined, r=record)


@pytest.mark.parametrize("source", ["{{ r.a }}", "{{ r['a'] }}", "{{ r.a ~ '' }}", "{{ r.b.a }}"])
def test_values_past_the_size_limit_are_refused_inline_as_by_the_hooks(source: str) -> None:
    big = {"a": "x" * (render.MAX_VALUE + 1), "b": {"a": list(range(render.MAX_VALUE + 1))}}
    ours, hooked = run(BoundedEnvironment, source, r=big), run(HookedEnvironment, source, r=big)
    assert ours == hooked and ours[0].startswith("BudgetError: 表达式造出了 1,000,001 个")


def test_the_stock_sandbox_renders_the_same() -> None:
    """The inline paths change nothing the stock sandbox would render."""
    source = "{% for r in rs %}{{ r.a }}|{{ r['b'] }}|{{ r.a ~ r['b'] }}|{{ r.items() | list }}|{{ r[0] if 0 in r else '' }};{% endfor %}"
    rs = [{"a": 1, "b": "二"}, {"a": None, "b": [1]}, {"a": (1,), "b": {"c": 1}, 0: "零"}]
    assert BoundedEnvironment(undefined=StrictUndefined).from_string(source).render(rs=rs) == \
        SandboxedEnvironment(undefined=StrictUndefined).from_string(source).render(rs=rs)


@pytest.mark.parametrize("limit", [1000, 2048, 5000])
@pytest.mark.parametrize("body", ["{{ d.a }}", "{{ d['a'] }}", "{{ f() }}", "{{ d.a ~ d['a'] }}", ""])
def test_a_runaway_template_stops_at_the_same_step(monkeypatch: pytest.MonkeyPatch, limit: int, body: str) -> None:
    """Past :data:`MAX_STEPS` the budget stops a template at the first look after it (a multiple of 1,024 steps),
    inline or through the hooks, with the same message."""
    monkeypatch.setattr(render, "MAX_STEPS", limit)
    source = "{% macro f() %}{% endmacro %}{% for i in range(100000) %}" + body + "{% endfor %}"
    ours, hooked = run(BoundedEnvironment, source, d={"a": 1}), run(HookedEnvironment, source, d={"a": 1})
    assert ours == hooked == (f"BudgetError: 模板运行超过 {limit:,} 步（循环、调用、查找）：是不是死循环或失控的循环？",
                              (limit // 1024 + 1) * 1024)


def test_the_time_limit_is_looked_at_every_1024_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render, "MAX_SECONDS", 0.0)
    source = "{% for i in range(100000) %}{{ d.a }}{% endfor %}"
    for env_class in (BoundedEnvironment, HookedEnvironment):
        assert run(env_class, source, d={"a": 1}) == ("BudgetError: 模板渲染超过 0 秒", 1024)


def test_the_budget_counts_and_looks_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """``steps`` is what was counted; the look is made inside the step that reaches each multiple of
    :data:`_TICK_EVERY` (where ``steps % 1024`` made it), and it moves the mark on (round 9: no comparison left to
    the caller)."""
    looks: list[int] = []
    check = render._Budget.check

    def looking(budget: render._Budget) -> bool:
        looks.append(budget.steps)
        return check(budget)

    monkeypatch.setattr(render._Budget, "check", looking)
    budget = render._Budget()
    for n in range(1, 5000):
        assert budget.step() == n and budget.steps == n
    assert looks == [1024, 2048, 3072, 4096] and budget.mark == 5120
    budget.tick()
    assert budget.steps == 5000 and budget.mark == 5120


def test_a_look_that_refuses_keeps_the_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """A look past :data:`MAX_STEPS` raises inside the step that reached the mark; the count stays there and goes
    on from it, with the mark moved as before."""
    monkeypatch.setattr(render, "MAX_STEPS", 1500)
    budget = render._Budget()
    for _ in range(2047):
        budget.step()
    assert budget.steps == 2047 and budget.mark == 2048
    with pytest.raises(render.BudgetError, match="模板运行超过 1,500 步"):
        budget.step()
    assert budget.steps == 2048 and budget.mark == 3072
    assert budget.step() == 2049 and budget.steps == 2049


def _old_normalize(text: str) -> str:
    """``normalize`` as it was (5ac80d2)."""
    lines = [line.rstrip(" \t") for line in text.split("\n")]
    body = re.sub(r"\n{4,}", "\n\n\n", "\n".join(lines))
    return body.strip("\n") + "\n"


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="a \t\n\r甲\u3000", max_size=40))
def test_normalize_gives_what_the_regex_gave(text: str) -> None:
    assert render.normalize(text) == _old_normalize(text)


def _old_checked_grow(receiver: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
    """``_checked_call``'s check of a growing method as it was (5ac80d2)."""
    args = tuple(render._listed(a) for a in args)
    render._small(len(receiver) + sum(len(a) for a in args if hasattr(a, "__len__")) + len(kwargs), "集合的长度")
    return args


@pytest.mark.parametrize("receiver", [{}, {"a": 1}, [1, 2], {3}])
@pytest.mark.parametrize("arg", [{"b": 2}, [3], (4, 5), "xy", {"c": 1, "d": 2}])
@pytest.mark.parametrize("limit", [1, 2, 3, 100])
def test_a_collection_grown_by_one_value_is_checked_as_before(monkeypatch: pytest.MonkeyPatch, receiver: Any,
                                                              arg: Any, limit: int) -> None:
    monkeypatch.setattr(render, "MAX_VALUE", limit)
    method = getattr(receiver, "update" if not isinstance(receiver, list) else "extend")
    outcome = []
    for check in (render._checked_call, lambda m, a, k: _old_checked_grow(m.__self__, a, k)):
        try:
            outcome.append(check(method, (arg,), {}))
        except render.BudgetError as exc:
            outcome.append(str(exc))
    assert outcome[0] == outcome[1]


@pytest.mark.parametrize("body", [
    "{{ xs | selectattr('a', 'equalto', 1) | list }}", "{{ xs | rejectattr('a', 'in', [1, 3]) | list }}",
    "{{ xs | selectattr('a', 'gt', 1) | list }}", "{{ xs | selectattr('a', 'equalto', x=1) | list }}",
    "{{ xs | selectattr('a', 'nope', 1) | list }}", "{{ [1, 2, 3] | select('gt', 1) | list }}",
])
def test_selecting_with_one_argument_gives_the_stock_answers(body: str) -> None:
    xs = [{"a": 1}, {"a": 2, "b": None}, {"a": 3}]
    ours = run(BoundedEnvironment, body, Undefined, xs=xs)[0]
    stock = SandboxedEnvironment()
    try:
        theirs = stock.from_string(body).render(xs=xs)
    except Exception as exc:
        theirs = f"{type(exc).__name__}: {exc}"
    assert ours == theirs


_MODULE = "{% macro f(x) %}<{{ x }}>{% endmacro %}{% set n = 3 %}{% set t = 'tt' %}{% set _h = 1 %}{% set ns = namespace(a=1) %}"
_ROUND9 = st.sampled_from([
    "{% for x in r %}{{ loop.index0 }}{{ loop.last }}{{ loop.first }}{{ loop.length }}{{ loop.revindex }}{% endfor %}",
    "{% for x in r %}{{ loop.previtem }}|{{ loop.nextitem }}|{{ loop.depth }}{{ loop.cycle(1, 2) }}{% endfor %}",
    "{% for x in r if x %}{{ loop.last }}{{ loop.nextitem is defined }}{% endfor %}",
    "{% for x in r %}{% for y in r %}{{ loop.last }}{{ loop.depth0 }}{% endfor %}{{ loop.index }}{% endfor %}",
    "{{ m.f(1) }}{{ m.n }}{{ m.t }}{{ m.ns }}{{ m.nope is defined }}", "{{ m._h is defined }}{{ m.f }}",
    "{{ r.items }}{{ r.count }}{{ r.upper }}{{ r.get }}{{ r.startswith }}{{ r.format is defined }}",
    "{{ r.count(1) if r is sequence else '' }}{{ r.keys() | list if r is mapping else '' }}",
    "{% set xs = [] %}{% set _ = xs.append(r) %}{{ xs }}{{ xs.append }}{{ 'a{}'.format(r) }}",
    "{% macro g(x, y=1) %}{{ x }}{{ y }}{% endmacro %}{{ g(r) }}{{ g(r, 2) }}{{ g() }}{{ g(1, 2, 3) }}{{ g(y=r) }}",
    "{% macro g(x) %}{{ x }}{% endmacro %}{% for x in [r, 1] %}{{ g(x) }}{{ m.f(x) }}{{ seen('x') }}{{ seen() }}"
    "{% set y = x %}{{ seen('y') }}{% endfor %}{{ seen('x') }}{{ r.get('a') if r is mapping else r }}",
    "{% macro g() %}{{ varargs }}{{ kwargs }}{% endmacro %}{% for x in [1] %}{{ g(r) }}{{ g(x, r) }}{% endfor %}",
])


@settings(max_examples=300, deadline=None)
@given(record=_RECORDS, source=_ROUND9, strict=st.booleans())
def test_loops_modules_and_methods_read_inline_give_the_hooks_answers_and_steps(record: Any, source: str,
                                                                                strict: bool) -> None:
    """Round 9's inline reads (a loop's property, an imported module's name, a plain value's method) and its calls
    given positional arguments alone (``call_positional``: a macro, a method, a callable taking the context in a
    loop) give the hooks' text or error after the same number of steps."""
    undefined = StrictUndefined if strict else Undefined
    outcomes = []
    for env_class in (BoundedEnvironment, HookedEnvironment):
        env = _environment(env_class, undefined)
        env.budget = render._Budget()
        try:
            module = _template(env_class, undefined, _MODULE).make_module()
            out = _template(env_class, undefined, source).render(r=record, m=module)
        except Exception as exc:
            out = f"{type(exc).__name__}: {exc}"
        outcomes.append((re.sub(r" at 0x[0-9a-f]+", "", out), env.budget.steps))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("body", ["{% for x in r %}{{ loop.last }}{% endfor %}", "{{ m.f() }}", "{{ s.upper() }}"])
def test_a_runaway_loop_of_round_9_reads_stops_at_the_same_step(monkeypatch: pytest.MonkeyPatch, body: str) -> None:
    monkeypatch.setattr(render, "MAX_STEPS", 2048)
    source = "{% for i in range(100000) %}" + body + "{% endfor %}"
    outcomes = []
    for env_class in (BoundedEnvironment, HookedEnvironment):
        env = env_class()
        env.budget = render._Budget()
        module = env.from_string("{% macro f() %}{% endmacro %}").make_module()
        try:
            env.from_string(source).render(r=[1, 2], m=module, s="a")
        except render.BudgetError as exc:
            outcomes.append((str(exc), env.budget.steps))
    assert outcomes[0] == outcomes[1] == ("模板运行超过 2,048 步（循环、调用、查找）：是不是死循环或失控的循环？", 3072)
