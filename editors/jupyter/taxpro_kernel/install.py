"""`python -m taxpro_kernel install`: writes the kernel spec where Jupyter looks for kernels."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

__all__ = ["install", "kernel_spec", "main"]


def kernel_spec(python: str = sys.executable) -> dict:
    """The spec: this Python runs the kernel; Jupyter interrupts it with SIGINT, which reaches its `taxpro` too."""
    return {
        "argv": [python, "-m", "taxpro_kernel", "-f", "{connection_file}"],
        "display_name": "TaxPro",
        "language": "taxpro",
        "interrupt_mode": "signal",
        "metadata": {"debugger": False},
    }


def install(user: bool = False, prefix: str | None = None, name: str = "taxpro") -> str:
    """Installs the spec (for this user, under `prefix`, or system-wide); returns the folder it went to."""
    from jupyter_client.kernelspec import KernelSpecManager

    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "kernel.json").write_text(json.dumps(kernel_spec(), indent=2) + "\n", encoding="utf-8")
        return KernelSpecManager().install_kernel_spec(folder, name, user=user, prefix=prefix)


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m taxpro_kernel install", description=__doc__)
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--user", action="store_true", help="for this user only (~/.local/share/jupyter)")
    where.add_argument("--sys-prefix", action="store_true", help=f"into this Python's prefix ({sys.prefix})")
    where.add_argument("--prefix", help="under PREFIX/share/jupyter/kernels")
    parser.add_argument("--name", default="taxpro", help="the kernel's name (default: taxpro)")
    options = parser.parse_args(arguments)
    prefix = sys.prefix if options.sys_prefix else options.prefix
    folder = install(user=options.user, prefix=prefix, name=options.name)
    print(f"Installed the TaxPro kernel spec in {folder}")
    return 0
