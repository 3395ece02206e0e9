"""jupyter_kernel_test, the standard conformance suite for Jupyter kernels, run against the TaxPro kernel.

The kernel is started by jupyter_client from the spec `python -m taxpro_kernel install` wrote into the tests' own
Jupyter folder (the `jupyter_environment` fixture, autouse here so it is in place before the suite's setUpClass).
Every message is validated against the protocol's schema by the suite; the samples below are TaxPro's.
"""

from __future__ import annotations

import jupyter_kernel_test
import pytest

from jupyter_support import TAXPRO


@pytest.fixture(autouse=True, scope="module")
def _kernel_installed(jupyter_environment):
    yield


@pytest.mark.skipif(not TAXPRO, reason="TAXPRO is not set to the taxpro binary")
class TestTaxProKernel(jupyter_kernel_test.KernelTests):
    kernel_name = "taxpro"
    language_name = "taxpro"
    file_extension = ".tax"

    # A `let` says what it defined on standard output, as the REPL does.
    code_hello_world = 'let greeting = "hello, world"'

    code_execute_result = [
        {"code": "0.1 + 0.2", "result": "0.3"},
        {"code": "$1,234.56 * 13%", "result": "$160.49"},
        {"code": "$100 + 15%", "result": "$115.00"},
        {"code": "$10 / 3", "result": "$3.33"},
        {"code": "5.05% + 1%", "result": "6.05%"},
        {"code": '"Ontario"', "result": "Ontario"},
        {"code": "$85,000 > $50,000", "result": "true"},
        {"code": "1 + 1", "mime": "text/html"},
    ]

    code_display_data = [
        {"code": ":plot tax(ON.income_tax, income) over income from $0 to $250,000", "mime": "image/svg+xml"},
        {"code": ":explain tax(ON.income_tax, $85,000)", "mime": "text/html"},
    ]

    code_generate_error = "1200 + $5"

    completion_samples = [
        {"text": "ON.income_t", "matches": {"income_tax"}},
        {"text": ":expl", "matches": {":explain"}},
        {"text": "rrsp_lim", "matches": {"rrsp_limit"}},
        {"text": "federal.credit_r", "matches": {"credit_rate"}},
        {"text": "let my_income = $1\nmy_inc", "matches": {"my_income"}},
    ]

    complete_code_samples = ["1 + 2", "tax(ON.income_tax, $85,000)", ":year 2025", "let x = 1\nx * 2"]
    incomplete_code_samples = ["max($1,", "formula f(x: Money): Money =", "tax(ON.income_tax,\n  $85,000"]
    invalid_code_samples = ["1 +* 2", ":no_such_command", ")"]

    code_inspect_sample = "provincial_tax"
