# fish completion for kagent.
# Loads the script the installed kagent generates from its own command tree
# (`kagent completion fish`), so it always matches that version's commands,
# flags and choices. Install: copy this file to ~/.config/fish/completions/ (or
# a vendor completions directory); fish loads it the first time you press Tab
# after `kagent`.
if command -q kagent
    kagent completion fish 2>/dev/null | source
end
