# fish completion for taxpro(1).
#
# The work is taxpro's own: `taxpro complete` reads the words against the program's command table (its commands,
# options and the kind of each value) and prints a first line saying what the candidates are — commands, options,
# values, code (a name at the end of an expression), or files followed by the extensions of the files to offer
# beside them — then one candidate a line, its description after a tab, as fish shows it. Installed as
# /usr/share/fish/vendor_completions.d/taxpro.fish.

function __taxpro_complete
    set -l tokens (commandline -opc)
    # The current token up to the cursor, unquoted the way fish reads it (an open quote is closed for the purpose).
    set -l current (commandline -ct)
    set -l unquoted (string unescape -- $current 2>/dev/null; or string unescape -- "$current'" 2>/dev/null; or string unescape -- "$current\"" 2>/dev/null; or echo $current)
    set -l lines ($tokens[1] complete -- $tokens[2..-1] "$unquoted[1]" 2>/dev/null)
    or return
    set -l first (string split ' ' -- $lines[1])
    for line in $lines[2..-1]
        echo $line
    end
    if test "$first[1]" = files
        # Directories, and the files with the extensions asked for (any file when none are).
        set -l pattern
        if test (count $first) -gt 1
            set pattern '(/|\\.('(string join '|' -- (string escape --style=regex -- $first[2..-1]))'))$'
        else
            set pattern '.'
        end
        for path in (__fish_complete_path $current)
            set -l name (string split -m 1 \t -- $path)[1]
            string match -qr -- $pattern $name; and echo $name
        end
    end
end

complete -c taxpro -f -a '(__taxpro_complete)'
