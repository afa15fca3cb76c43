// Reading the command line before commander does: which group it names (the
// one module to load), the operands after a word, and `--json FIELDS`.
import type { CommandSpec } from './kit/define.js';
import { FIELD_LIST, parseFields } from './io/fields.js';

/** Global flags that take a value: the group-name scan must skip their values. */
const VALUE_FLAGS = new Set(['--jq', '-p', '--profile', '--base-url', '--lang', '--timeout']);

/**
 * `--json FIELDS` / `--json=FIELDS` out of the arguments (commander then sees `--json=`).
 * The word after --json is taken as fields when it is a list (has a comma), or one field name
 * where the command reached takes no further operand; else it stays an operand
 * (`kagent doc show --json doc_1`). `--json=FIELDS` always works.
 */
export function extractJsonFields(argv: string[], group: CommandSpec): { argv: string[]; fields?: string[] } {
  const out: string[] = [];
  let fields: string[] | undefined;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] as string;
    if (token === '--') {
      out.push(...argv.slice(i));
      break;
    }
    if (token.startsWith('--json=')) {
      fields = parseFields(token.slice('--json='.length));
      out.push('--json=');
      continue;
    }
    // `--json=` (no value): commander must not take the next word as one.
    out.push(token === '--json' ? '--json=' : token);
    const next = argv[i + 1];
    if (token !== '--json' || next === undefined || !FIELD_LIST.test(next)) continue;
    if (next.includes(',') || !wantsOperand(group, [...out, ...argv.slice(i + 2)], next)) {
      fields = parseFields(next);
      i++;
    }
  }
  return fields ? { argv: out, fields } : { argv: out };
}

/** Whether the command these arguments reach would take `word` as an operand (or as a subcommand). */
function wantsOperand(group: CommandSpec, argv: string[], word: string): boolean {
  const operands = argv.filter((token) => !token.startsWith('-'));
  // `kagent --json space list`: the word is the group's name itself.
  if (!operands.includes(group.name)) return true;
  let spec = group;
  let at = operands.indexOf(group.name) + 1;
  for (; at < operands.length; at++) {
    const sub = spec.commands?.find((command) => command.name === operands[at] || command.aliases?.includes(operands[at] as string));
    if (!sub) break;
    spec = sub;
  }
  if (spec.commands?.some((command) => command.name === word || command.aliases?.includes(word))) return true;
  const declared = spec.arguments ?? [];
  if (declared.some((argument) => argument.variadic)) return true;
  return operands.length - at < declared.length;
}

/** The first operand past the global flags (and their values): the group to load. */
export function groupNameIn(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] as string;
    if (token === '--') return argv[i + 1];
    if (token.startsWith('--')) {
      if (!token.includes('=') && VALUE_FLAGS.has(token)) i++;
      // `--json id,title` before the group's name
      else if (token === '--json' && argv[i + 1]?.includes(',') && FIELD_LIST.test(argv[i + 1] as string)) i++;
      continue;
    }
    if (token.startsWith('-') && token.length > 1) {
      // A cluster of short flags: "-p NAME", "-qp NAME" take the next token; "-pNAME" does not.
      if (token.endsWith('p')) i++;
      continue;
    }
    return token;
  }
  return undefined;
}

export function operandsAfter(argv: string[], word: string): string[] {
  const rest = argv.slice(argv.indexOf(word) + 1);
  const operands: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const token = rest[i] as string;
    if (token.startsWith('-')) {
      if (VALUE_FLAGS.has(token) || (/^-[a-z]+$/.test(token) && token.endsWith('p'))) i++;
      continue;
    }
    operands.push(token);
  }
  return operands;
}
