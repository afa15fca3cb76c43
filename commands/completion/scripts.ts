// The completion script of a shell, generated from the command tree.
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import type { Node, Shell } from './tree.js';
import { zshScript } from './zsh.js';

export function scriptFor(shell: Shell, root: Node, version: string): string {
  const scripts = { bash: bashScript, zsh: zshScript, fish: fishScript };
  return scripts[shell](root, version);
}
