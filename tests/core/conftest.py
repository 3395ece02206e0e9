import os
import subprocess

import pytest


@pytest.fixture(scope="session")
def taxpro():
    binary = os.environ.get("TAXPRO")
    if not binary:
        pytest.fail("set TAXPRO to the taxpro binary (scripts/test does)")
    return binary


@pytest.fixture
def run(taxpro):
    """Runs taxpro with arguments (and optional standard input); returns the completed process."""

    def run(*arguments, stdin=None, env=None):
        environment = dict(os.environ)
        environment.pop("NO_COLOR", None)
        if env:
            environment.update(env)
        return subprocess.run([taxpro, *arguments], input=stdin, capture_output=True, text=True, timeout=120,
                              env=environment)

    return run
