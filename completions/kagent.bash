# bash completion for kagent.
# Loads the script the installed kagent generates from its own command tree
# (`kagent completion bash`), so it always matches that version's commands,
# flags and choices. Install: copy this file to
# /usr/share/bash-completion/completions/kagent (system-wide) or
# ~/.local/share/bash-completion/completions/kagent (for you); bash-completion
# loads it the first time you press Tab after `kagent`.
if command -v kagent >/dev/null 2>&1; then
  eval "$(kagent completion bash 2>/dev/null)"
fi
