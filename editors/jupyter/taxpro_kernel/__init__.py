"""A Jupyter kernel for TaxPro: notebooks of exact money arithmetic, tax formulas and their explanations.

The kernel speaks to one `taxpro repl --json` process (docs/REPL_JSON.md in the TaxPro repository); `taxpro` must be
on PATH. Install the kernel spec with `python -m taxpro_kernel install --user`.
"""

__version__ = "0.1.0"
