// What `kagent --version --verbose` adds for bug reports: the Node.js running
// kagent and the system under it. Loaded only with --verbose.
import { release, type } from 'node:os';

export function platformText(): string {
  return `Node.js ${process.version} on ${process.platform}-${process.arch} (${type()} ${release()})\n`;
}
