"""The grammar in grammar/taxpro.lark agrees with the Swift parser.

Every example, fixture and library file is parsed with the grammar, and the grammar's verdict (accept or reject) must
equal the Swift parser's (`taxpro check --syntax`). Then programs generated at random from the grammar's own rules must
be accepted by both, and random token-level mutations of them must be accepted or rejected by both alike.
"""

import os
import pathlib
import random
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "grammar"))
import taxpro_postlex  # noqa: E402

from lark.exceptions import LarkError  # noqa: E402


@pytest.fixture(scope="module")
def grammar_parse():
    return taxpro_postlex.make_parser()


def taxpro():
    binary = os.environ.get("TAXPRO")
    if not binary:
        pytest.fail("set TAXPRO to the taxpro binary (scripts/test does)")
    return binary


def swift_verdicts(paths):
    """Which files the Swift parser accepts: one `taxpro check --syntax` run over all of them."""
    result = subprocess.run([taxpro(), "check", "--syntax", "--no-color", *map(str, paths)],
                            capture_output=True, text=True, timeout=300)
    rejected = set()
    for line in result.stderr.splitlines():
        match = re.match(r"^(.*?):\d+:\d+: error\[[a-z-]+\]:", line)
        if match:
            rejected.add(match.group(1))
    return {str(path): str(path) not in rejected for path in paths}


def grammar_accepts(parse, text):
    try:
        parse(text)
        return True
    except LarkError:
        return False


def corpus():
    files = []
    for pattern in ("examples/**/*.tax", "Tests/TaxProCoreTests/Fixtures/**/*.tax", "Sources/TaxProLibrary/Resources/**/*.tax",
                    "tests/**/*.tax"):
        files += sorted(ROOT.glob(pattern))
    return files


def test_corpus_agrees(grammar_parse):
    files = corpus()
    assert len(files) >= 20
    verdicts = swift_verdicts(files)
    disagreements = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        grammar = grammar_accepts(grammar_parse, text)
        if grammar != verdicts[str(path)]:
            disagreements.append(f"{path.relative_to(ROOT)}: grammar {'accepts' if grammar else 'rejects'}, "
                                 f"Swift {'accepts' if verdicts[str(path)] else 'rejects'}")
    assert not disagreements, "\n".join(disagreements)
    # The corpus holds both outcomes.
    assert any(verdicts.values()) and not all(verdicts.values())


# ---------------------------------------------------------------------------------------------------------------------
# Programs generated from the grammar's rules.

NAMES = ["a", "b", "income", "x1", "ON", "rate_2", "province", "year", "test", "parameters", "Money", "total"]
PLAIN_NAMES = ["a", "b", "income", "x1", "ON", "rate_2", "Money", "total", "XA"]


class Generator:
    """Random derivations of the grammar, bounded in depth by each symbol's shortest derivation."""

    def __init__(self, seed):
        from lark import Lark
        grammar = (ROOT / "grammar" / "taxpro.lark").read_text()
        self.lark = Lark(grammar, parser="lalr", lexer="basic", maybe_placeholders=False)
        self.rules = {}
        for rule in self.lark.rules:
            self.rules.setdefault(rule.origin.name, []).append([symbol for symbol in rule.expansion])
        self.literals = {}
        for terminal in self.lark.terminals:
            if terminal.pattern.type == "str":
                self.literals[terminal.name] = terminal.pattern.value
        self.random = random.Random(seed)
        self.min_depth = self.shortest_derivations()

    def shortest_derivations(self):
        depth = {}
        changed = True
        while changed:
            changed = False
            for name, expansions in self.rules.items():
                for expansion in expansions:
                    parts = [0 if symbol.is_term else depth.get(symbol.name) for symbol in expansion]
                    if None in parts:
                        continue
                    value = 1 + max(parts, default=0)
                    if value < depth.get(name, 10 ** 9):
                        depth[name] = value
                        changed = True
        return depth

    def terminal(self, name, previous):
        r = self.random
        if name in self.literals:
            return self.literals[name]
        if name == "NAME":
            # A province code or interface name that is a contextual keyword is a known corner where the grammar's
            # post-lexer (which cannot see positions) and the Swift parser differ; they are not generated there.
            return r.choice(PLAIN_NAMES if previous in ("province", "parameters") else NAMES)
        if name == "NUMBER":
            if previous == "year":
                # A tax year is a whole number from 1 to 9999 (the Swift parser checks it; the grammar has one NUMBER).
                return r.choice(["2025", "2026", "1"])
            return r.choice(["0", "1", "2.5", "1_000", "42", "7", "0.05", "2025"])
        if name == "RATE":
            return r.choice(["5%", "13.5%", "0%", "15.0198%", "1_0%"])
        if name == "MONEY":
            return r.choice(["$0", "$85,000", "$1,234.56", "$0.50", "$12_000", "$7", "$1,000,000"])
        if name == "STRING":
            return r.choice(['"Ontario"', '"a \\"b\\""', '""', '"x\\ny"'])
        if name == "COMPARE":
            return r.choice(["==", "!=", "<", "<=", ">", ">="])
        if name == "_NL":
            return "\n"
        if name == "_DOC":
            return "## Documentation.\n"  # before a constant's `let`, at the left margin
        raise AssertionError(f"no sample for terminal {name}")

    def derive(self, name, budget, out):
        expansions = self.rules[name]
        if budget <= self.min_depth.get(name, 0):
            # Only expansions that can still finish within the budget.
            def fits(expansion):
                return all(symbol.is_term or self.min_depth.get(symbol.name, 10 ** 9) < budget for symbol in expansion)
            candidates = [e for e in expansions if fits(e)] or [min(
                expansions, key=lambda e: max([0] + [0 if s.is_term else self.min_depth[s.name] for s in e]))]
        else:
            candidates = expansions
        expansion = self.random.choice(candidates)
        for symbol in expansion:
            if symbol.is_term:
                out.append(self.terminal(symbol.name, out[-1] if out else None))
            else:
                self.derive(symbol.name, budget - 1, out)

    def program(self, budget=14):
        tokens = []
        self.derive("start", budget, tokens)
        return render(tokens)


def render(tokens):
    """Tokens joined by spaces, with line breaks where the grammar put _NL."""
    text = ""
    for token in tokens:
        if token == "\n":
            text = text.rstrip(" ") + "\n"
        elif token.endswith("\n"):  # a documentation line
            text = text.rstrip(" ") + token
        else:
            text += token + " "
    return text.rstrip(" ") + "\n"


def tokenize(text):
    """Rough tokens for mutation: literals, words, punctuation and line breaks."""
    return re.findall(r'"(?:[^"\\\n]|\\.)*"|\$[0-9][0-9,_.]*|[0-9][0-9_.]*%?|[A-Za-z_][A-Za-z0-9_]*|->|\.\.|==|!=|<=|>=|\n|\S', text)


def mutate(rng, text):
    tokens = tokenize(text)
    if not tokens:
        return text
    choice = rng.randrange(4)
    index = rng.randrange(len(tokens))
    if choice == 0:
        del tokens[index]
    elif choice == 1:
        tokens.insert(index, tokens[rng.randrange(len(tokens))])
    elif choice == 2 and index + 1 < len(tokens):
        tokens[index], tokens[index + 1] = tokens[index + 1], tokens[index]
    else:
        tokens[index] = rng.choice(["(", ")", "{", "}", ",", "-", "not", "=", "\n", "then", "if", "1", "x", "->", "..",
                                    "test", "year", "$5", "5%", "formula", "let"])
    return render(tokens)


def test_generated_programs_are_accepted_by_both(grammar_parse, tmp_path):
    generator = Generator(seed=2025)
    programs = [generator.program(budget=generator.random.randint(8, 16)) for _ in range(250)]
    paths = []
    for index, program in enumerate(programs):
        assert grammar_accepts(grammar_parse, program), f"the grammar rejects its own program:\n{program}"
        path = tmp_path / f"generated_{index}.tax"
        path.write_text(program, encoding="utf-8")
        paths.append(path)
    verdicts = swift_verdicts(paths)
    rejected = [p for p in paths if not verdicts[str(p)]]
    assert not rejected, "the Swift parser rejects generated programs:\n" + "\n---\n".join(
        p.read_text() for p in rejected[:5])


def test_mutated_programs_get_the_same_verdict(grammar_parse, tmp_path):
    generator = Generator(seed=7)
    rng = random.Random(11)
    cases = []
    for index in range(600):
        program = generator.program(budget=rng.randint(8, 14))
        mutant = mutate(rng, program)
        path = tmp_path / f"mutant_{index}.tax"
        path.write_text(mutant, encoding="utf-8")
        cases.append((path, mutant))
    verdicts = swift_verdicts([path for path, _ in cases])
    disagreements = []
    for path, mutant in cases:
        grammar = grammar_accepts(grammar_parse, mutant)
        if grammar != verdicts[str(path)]:
            disagreements.append(f"grammar {'accepts' if grammar else 'rejects'}, Swift "
                                 f"{'accepts' if verdicts[str(path)] else 'rejects'}:\n{mutant}")
    assert not disagreements, f"{len(disagreements)} disagreements; first ones:\n" + "\n---\n".join(disagreements[:5])
    accepted = sum(verdicts.values())
    assert 0 < accepted < len(cases), "mutations should produce both outcomes"
