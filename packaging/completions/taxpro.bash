# bash completion for taxpro(1)                                                  -*- shell-script -*-
#
# The work is taxpro's own: `taxpro complete` reads the command line against the program's command table (its
# commands, options and the kind of each value) and prints a first line saying what the candidates are — commands,
# options, values, code (a name at the end of an expression: no space after it), or files followed by the
# extensions of the files to offer beside them — then one candidate a line, its description after a tab.
# Installed as /usr/share/bash-completion/completions/taxpro, or source this file from ~/.bashrc.

_taxpro() {
  local cur=$2 program=$1 line kind
  local -a lines extensions
  local IFS=$'\n'
  # The line up to the cursor, for taxpro to split as the shell does; `$2` is what readline replaces (after a
  # word-break character such as `=` or `(`), so candidates come back relative to it.
  lines=($("$program" complete --line="${COMP_LINE:0:COMP_POINT}" --replacing="$cur" 2>/dev/null)) || return 0
  [ "${#lines[@]}" -gt 0 ] || return 0
  COMPREPLY=()
  for line in "${lines[@]:1}"; do
    COMPREPLY+=("${line%%$'\t'*}")
  done
  IFS=' ' read -r -a extensions <<<"${lines[0]}"
  kind=${extensions[0]}
  extensions=("${extensions[@]:1}")
  case $kind in
    code)
      compopt -o nospace 2>/dev/null
      ;;
    files)
      compopt -o filenames 2>/dev/null
      if [ "${#extensions[@]}" -eq 0 ]; then
        COMPREPLY+=($(compgen -f -- "$cur"))
      else
        COMPREPLY+=($(compgen -d -- "$cur"))
        local extension
        for extension in "${extensions[@]}"; do
          COMPREPLY+=($(compgen -f -X "!*.$extension" -- "$cur"))
        done
      fi
      ;;
  esac
  return 0
}
complete -F _taxpro taxpro
