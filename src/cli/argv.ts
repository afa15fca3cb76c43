// What the program must know of a command line before commander reads it:
// which group it names (the one module to load, and where that word stands),
// the operands after it, and `--json FIELDS`, which commander cannot tell from
// an operand. Which global flags take a value comes from global-flags.ts.
import type { CommandSpec } from '../kit/define.js';
import { UsageError } from '../errors.js';
import { FIELD_LIST, parseFields } from '../io/fields.js';
import { SHORT_VALUE_LETTERS, VALUE_FLAGS } from './global-flags.js';

/**
 * `--json FIELDS` / `--json=FIELDS` out of the arguments (commander then sees `--json=`).
 * The word after --json is taken as fields when it is a list (has a comma), or one field name
 * where the command reached takes no further operand; else it stays an operand
 * (`kagent doc show --json doc_8f2k3xq9mz`). `--json=FIELDS` always works.
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
    // `--json ''` where no operand is wanted: an empty field list, not a stray argument.
    if (token === '--json' && next !== undefined && /^[\s,]*$/.test(next))
      if (!wantsOperand(group, [...out, ...argv.slice(i + 2)], next))
        throw new UsageError(
          `--json was given an empty field list (${JSON.stringify(next)})`,
          '`--json` alone gives every field; or name them, e.g. `--json id,name`',
        );
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
  // The words that are operands: not flags, nor the value of a flag that takes one (`--jq .id`, `--space Work`).
  const valueFlags = optionsTakingValues(group);
  const operands: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] as string;
    if (!token.startsWith('-')) operands.push(token);
    else if (takesNextWord(token) || valueFlags.has(token)) i++;
  }
  // `kagent --json space list`: the word is the group's name itself.
  if (!operands.includes(group.name)) return true;
  let spec = group;
  let at = operands.indexOf(group.name) + 1;
  for (; at < operands.length; at++) {
    const sub = spec.commands?.find(
      (command) => command.name === operands[at] || command.aliases?.includes(operands[at] as string),
    );
    if (!sub) break;
    spec = sub;
  }
  if (spec.commands?.some((command) => command.name === word || command.aliases?.includes(word))) return true;
  const declared = spec.arguments ?? [];
  if (declared.some((argument) => argument.variadic)) return true;
  return operands.length - at < declared.length;
}

/** The flags (`--space`, `-o`) of a group's commands, at any depth, that take the next word as their value. */
function optionsTakingValues(spec: CommandSpec, into = new Set<string>()): Set<string> {
  for (const option of spec.options ?? [])
    if (/[<[]/.test(option.flags)) for (const name of option.flags.split(/[ ,|]+/)) if (/^-/.test(name)) into.add(name);
  for (const command of spec.commands ?? []) optionsTakingValues(command, into);
  return into;
}

/** Whether `token` is a global flag (or a cluster of short ones, `-qp`) whose value is the next word. */
function takesNextWord(token: string): boolean {
  if (token.includes('=')) return false;
  if (VALUE_FLAGS.has(token)) return true;
  // A cluster of short flags: "-p NAME", "-qp NAME" take the next word; "-pNAME" does not.
  return /^-[a-zA-Z]+$/.test(token) && SHORT_VALUE_LETTERS.has(token.slice(-1));
}

/** The first operand past the global flags (and their values), and where it stands: the group to load. */
export function groupWordIn(argv: readonly string[]): { name: string; index: number } | undefined {
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] as string;
    if (token === '--') return i + 1 < argv.length ? { name: argv[i + 1] as string, index: i + 1 } : undefined;
    if (takesNextWord(token)) {
      i++;
      continue;
    }
    // `--json id,title` before the group's name
    if (token === '--json' && argv[i + 1]?.includes(',') && FIELD_LIST.test(argv[i + 1] as string)) {
      i++;
      continue;
    }
    if (token.startsWith('-') && token.length > 1) continue;
    return { name: token, index: i };
  }
  return undefined;
}

/** The group's name alone (completion and tests). */
export function groupNameIn(argv: readonly string[]): string | undefined {
  return groupWordIn(argv)?.name;
}

/** The operands after position `at` (global flags and their values skipped). */
export function operandsAfter(argv: readonly string[], at: number): string[] {
  const operands: string[] = [];
  for (let i = at + 1; i < argv.length; i++) {
    const token = argv[i] as string;
    if (token.startsWith('-')) {
      if (takesNextWord(token)) i++;
      continue;
    }
    operands.push(token);
  }
  return operands;
}
