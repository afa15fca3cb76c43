// The completion script of a shell, generated from the command tree.
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import type { Node, Shell } from './tree.js';
import { zshScript } from './zsh.js';

export function scriptFor(shell: Shell, root: Node, version: string): string {
  return shell === 'bash'
    ? bashScript(root, version)
    : shell === 'zsh'
      ? zshScript(root, version)
      : fishScript(root, version);
}
