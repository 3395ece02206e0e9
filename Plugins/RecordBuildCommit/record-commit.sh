#!/bin/sh
# Writes BuildCommit.swift for `taxpro --version`: record-commit.sh PACKAGE_DIR OUTPUT_DIR. Run by the
# RecordBuildCommit build plugin before every build, and by tests/packaging on copies of the repository.
#
# The commit is the first 12 hex digits of HEAD, with -modified when tracked files differ from it; `unknown` when
# PACKAGE_DIR is not the top of a git work tree (a source archive, even one unpacked inside another repository) or
# git cannot answer; TAXPRO_COMMIT when it is set (a build from an archive whose commit is known). The file is
# rewritten only when the answer changes, so an unchanged commit recompiles nothing. Git's optional locks are off: a
# build must never take the index lock from someone committing.
set -u
repo=$1 out=$2
mkdir -p "$out"
commit=${TAXPRO_COMMIT:-}
if [ -z "$commit" ]; then
  export GIT_OPTIONAL_LOCKS=0
  top=$(git -C "$repo" rev-parse --show-toplevel 2>/dev/null) || top=
  if [ -n "$top" ] && [ "$top" -ef "$repo" ] && commit=$(git -C "$repo" rev-parse --short=12 HEAD 2>/dev/null); then
    git -C "$repo" diff --quiet HEAD -- 2>/dev/null || commit="$commit-modified"
  else
    commit=unknown
  fi
fi
case $commit in '' | *[!0-9A-Za-z.+_-]*) commit=unknown ;; esac
file="$out/BuildCommit.swift"
printf '/// Written at build time by Plugins/RecordBuildCommit/record-commit.sh.\nenum BuildCommit {\n  /// The commit built, `unknown` outside git.\n  static let id = "%s"\n}\n' "$commit" >"$file.new"
if cmp -s "$file.new" "$file"; then rm -f "$file.new"; else mv -f "$file.new" "$file"; fi
