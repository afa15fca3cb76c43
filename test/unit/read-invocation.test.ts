// The command line read without commander (src/read-invocation.ts) against
// commander itself (src/commander-program.ts), over every command of the tree:
// wherever the reader answers, commander must find the same command, options,
// arguments and global flags; wherever commander runs a command, the reader
// must answer too (else it saves nothing). The
// command lines are made from each command's declaration, then mutated at
// random (seeded): flags moved, joined, split with `=`, values that look like
// flags, unknown options, `--`, help, missing and extra operands.
import { Option } from 'commander';
import { Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { readWithCommander } from '../../src/commander-program.js';
import type { CommandSpec, OptionSpec } from '../../src/kit/define.js';
import { flagShape } from '../../src/option-values.js';
import type { RunOptions } from '../../src/program.js';
import { readInvocation, type ReadCommandLine } from '../../src/read-invocation.js';
import { GLOBAL_FLAGS } from '../../src/root-help.js';
import { everyCommand, nameOf, type Leaf } from '../helpers/every-command.js';
import { groups, loadGroup } from '../../src/manifest.js';

const sink = () =>
  Object.assign(
    new Writable({
      write(_chunk, _encoding, done) {
        done();
      },
    }),
    { isTTY: false, columns: 80 },
  );

function runOptions(): RunOptions {
  return { argv: [], env: {}, version: '0.0.0', stdin: process.stdin, stdout: sink(), stderr: sink() } as unknown as RunOptions;
}

type Outcome = { read: ReadCommandLine } | { nothing: true } | { error: string };

async function byCommander(argv: string[], group: CommandSpec): Promise<Outcome> {
  try {
    const read = await readWithCommander(runOptions(), [...argv], group);
    return read ? { read } : { nothing: true };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** A value the option takes without complaint. */
function goodValue(option: OptionSpec): string {
  if (option.choices) return option.choices[0] as string;
  if (option.type === 'integer') return String(Math.max(option.min ?? 1, 1));
  if (option.type === 'number') return String(option.min !== undefined && option.min > 0 ? option.min : 1.5);
  return 'some value';
}

function optionTokens(option: OptionSpec, style: 'long' | 'equals' | 'short'): string[] {
  const shape = flagShape(option.flags);
  const flag = style === 'short' && shape.short ? shape.short : (shape.long ?? shape.short!);
  if (shape.value === 'none') return [flag];
  if (style === 'equals' && shape.long) return [`${shape.long}=${goodValue(option)}`];
  return [flag, goodValue(option)];
}

function operands(spec: CommandSpec): string[] {
  return (spec.arguments ?? []).flatMap((argument, i) => {
    const value = argument.choices ? (argument.choices[0] as string) : `value${i}`;
    return argument.variadic ? [value, `${value}b`] : [value];
  });
}

/** Command lines a user would type: every option, in each of its spellings and places. */
function usualLines(leaf: Leaf): string[][] {
  const path = leaf.path.slice(1);
  const args = operands(leaf.spec);
  // A command's options, but not two that exclude each other's meaning (both are fine for parsing).
  const options = leaf.spec.options ?? [];
  const all = (style: 'long' | 'equals' | 'short') => options.flatMap((option) => optionTokens(option, style));
  return [
    [...path, ...args],
    [...path, ...args, ...all('long')],
    [...path, ...all('equals'), ...args],
    [...path, ...all('short'), ...args],
    ['--json=', '-q', ...path, ...args],
    [...path, ...args, '--debug', '--timeout', '5', '-p', 'work', '--no-color', '--jq', '.id'],
    ['-qy', ...path, ...args, '--lang=en', '--base-url', 'http://127.0.0.1:9/api/v1'],
    [...path, '--', ...args],
  ];
}

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const NOISE = ['--', '-h', '--help', '-V', '--version', '--bogus', '-Z', '-5', '-1.5', '--json', '--json=', '--jq', '-p', '-pwork', '-qy', '-yq', '--no-input', '--timeout', '0', 'x', '', '--timeout=-1', '--lang', 'fr', '--=', '-', '---x'];

/** A usual line, changed at random: tokens dropped, repeated, swapped, or noise put in. */
function mutate(line: string[], random: () => number, extra: string[]): string[] {
  const out = [...line];
  const pool = [...NOISE, ...extra];
  const changes = 1 + Math.floor(random() * 3);
  for (let n = 0; n < changes; n++) {
    const at = Math.floor(random() * (out.length + 1));
    const kind = random();
    if (kind < 0.25 && out.length > 0) out.splice(Math.min(at, out.length - 1), 1);
    else if (kind < 0.45 && out.length > 1) {
      const other = Math.floor(random() * out.length);
      const here = Math.min(at, out.length - 1);
      [out[here], out[other]] = [out[other] as string, out[here] as string];
    } else if (kind < 0.6 && out.length > 0) out.splice(at, 0, out[Math.floor(random() * out.length)] as string);
    else out.splice(at, 0, pool[Math.floor(random() * pool.length)] as string);
  }
  return out;
}

function expectSame(argv: string[], quick: ReadCommandLine, outcome: Outcome): void {
  const context = `kagent ${JSON.stringify(argv)}`;
  expect('read' in outcome, `${context}: commander ${JSON.stringify(outcome)}`).toBe(true);
  const read = (outcome as { read: ReadCommandLine }).read;
  expect(quick.invocation.spec, context).toBe(read.invocation.spec);
  expect(quick.invocation.opts, context).toStrictEqual({ ...read.invocation.opts });
  expect(quick.invocation.args, context).toStrictEqual(read.invocation.args);
  expect(quick.globals, context).toStrictEqual({ ...read.globals });
}

let leaves: Leaf[];
const groupOf = new Map<string, CommandSpec>();

beforeAll(async () => {
  leaves = await everyCommand();
  for (const group of groups) groupOf.set(group.name, await loadGroup(group.name));
});

describe('the command line without commander', () => {
  it('reads every usual command line of every command as commander does', async () => {
    let compared = 0;
    for (const leaf of leaves) {
      const group = groupOf.get(leaf.path[1] as string)!;
      for (const argv of usualLines(leaf)) {
        const quick = readInvocation(argv, group);
        const outcome = await byCommander(argv, group);
        // Commander runs the command: the reader must answer too, the same.
        if ('read' in outcome) {
          expect(quick, `kagent ${JSON.stringify(argv)} (${nameOf(leaf)}) is left to commander`).toBeDefined();
          expectSame(argv, quick!, outcome);
          compared++;
        } else expect(quick, `kagent ${JSON.stringify(argv)}: commander says ${JSON.stringify(outcome)}`).toBeUndefined();
      }
    }
    // Every command, in at least its plainest form.
    expect(compared).toBeGreaterThanOrEqual(leaves.length * 6);
  });

  it('agrees with commander on mutated command lines, or leaves them to it', async () => {
    let answered = 0;
    let left = 0;
    const missed: string[][] = [];
    for (const [n, leaf] of leaves.entries()) {
      const group = groupOf.get(leaf.path[1] as string)!;
      const random = seeded(7_919 * (n + 1));
      const extra = [...leaf.path.slice(1), ...(leaf.spec.options ?? []).flatMap((option) => [...optionTokens(option, 'long'), ...optionTokens(option, 'short')])];
      for (let round = 0; round < 100; round++) {
        const base = usualLines(leaf)[Math.floor(random() * 8)] as string[];
        const argv = mutate(base, random, extra);
        const quick = readInvocation(argv, group);
        const outcome = await byCommander(argv, group);
        if (quick === undefined) {
          if ('read' in outcome) missed.push(argv);
          left++;
          continue;
        }
        expectSame(argv, quick, outcome);
        answered++;
      }
    }
    // Both kinds happen: the mutations reach the reader's refusals and its answers.
    // Wherever commander runs a command, the reader ran it too.
    expect(missed.map((argv) => `kagent ${JSON.stringify(argv)}`)).toStrictEqual([]);
    // Both kinds happen: the mutations reach the reader's refusals and its answers.
    expect(answered).toBeGreaterThan(leaves.length * 10);
    expect(left).toBeGreaterThan(leaves.length * 10);
  });

  it('leaves help, version and mistakes to commander', () => {
    const space = groupOf.get('space')!;
    const lib = groupOf.get('lib')!;
    for (const argv of [
      ['space', 'list', '--help'],
      ['space', 'list', '-h'],
      ['space', '--version'],
      ['space'],
      ['space', 'bogus'],
      ['space', 'list', '--bogus'],
      ['space', 'list', 'extra'],
      ['space', 'create'],
      ['space', 'list', '--timeout', '0'],
      ['space', 'list', '--lang', 'fr'],
      ['space', 'list', '--jq'],
    ]) {
      expect(readInvocation(argv, space), JSON.stringify(argv)).toBeUndefined();
    }
    // A digit flag changes what a negative number is (commander's rule): such a command is left to commander.
    const digits: CommandSpec = { name: 'g', summary: 's', examples: ['x'], options: [{ flags: '-1, --one', description: 'o' }], arguments: [{ name: 'n', description: 'n', optional: true }], run: async () => {} };
    expect(readInvocation(['g', '-5'], digits)).toBeUndefined();
    expect(readInvocation(['g'], digits)).toBeUndefined();
    expect(readInvocation(['lib', 'list', '-L', 'x'], lib)).toBeUndefined();
    expect(readInvocation(['lib', 'list', '-L', '0'], lib)).toBeUndefined();
  });

  it('agrees on what no command uses today: a mandatory option, an option a group shares with its verb', async () => {
    const run = async () => {};
    const group: CommandSpec = {
      name: 'inbox',
      summary: 'a group',
      examples: ['kagent inbox'],
      options: [{ flags: '--filter <kind>', description: 'f' }, { flags: '--no-wait', description: 'w' }],
      arguments: [{ name: 'what', description: 'w', optional: true }],
      run,
      commands: [
        { name: 'list', summary: 's', examples: ['x'], options: [{ flags: '--filter <kind>', description: 'f' }, { flags: '--need <x>', description: 'n', required: true }], run },
        { name: 'show', summary: 's', examples: ['x'], options: [{ flags: '--no-icon', description: 'i' }, { flags: '--icon <emoji>', description: 'i' }], run },
      ],
    };
    const lines = [
      ['inbox', 'list'],
      ['inbox', 'list', '--need', '1'],
      ['inbox', 'list', '--need', '1', '--filter', 'a'],
      ['inbox', '--filter', 'a', 'list', '--need', '1'],
      ['inbox', 'list', '--filter', 'b', '--need=1', '--filter', 'c'],
      ['inbox', '--filter', 'a'],
      ['inbox', '--no-wait', 'thing'],
      ['inbox', 'show'],
      ['inbox', 'show', '--no-icon'],
      ['inbox', 'show', '--icon', 'x'],
    ];
    let answered = 0;
    for (const argv of lines) {
      const quick = readInvocation(argv, group);
      const outcome = await byCommander(argv, group);
      if ('read' in outcome) {
        expect(quick, JSON.stringify(argv)).toBeDefined();
        expectSame(argv, quick!, outcome);
        answered++;
      } else expect(quick, JSON.stringify(argv)).toBeUndefined();
    }
    expect(readInvocation(['inbox', 'list'], group)).toBeUndefined();
    expect(answered).toBe(lines.length - 1);
  });

  it('takes what commander takes: global flags anywhere, values that look like flags, joined short flags', () => {
    const lib = groupOf.get('lib')!;
    const read = readInvocation(['-q', 'lib', 'list', '-L3', '--json=', '-p', '--all'], lib);
    expect(read?.invocation.spec.name).toBe('list');
    expect(read?.invocation.opts).toStrictEqual({ limit: 3 });
    // `-p` takes the next word whatever it is, as commander does.
    expect(read?.globals).toMatchObject({ quiet: true, json: '', profile: '--all', color: true, input: true, pager: true });
  });

  it('reads every declared flag as the Option of commander does', () => {
    const declared = [...GLOBAL_FLAGS.map((flag) => flag.flags), ...leaves.flatMap((leaf) => (leaf.spec.options ?? []).map((option) => option.flags))];
    expect(declared.length).toBeGreaterThan(100);
    for (const flags of declared) {
      const option = new Option(flags);
      const shape = flagShape(flags);
      expect({ short: shape.short, long: shape.long, negate: shape.negate, variadic: shape.variadic, name: shape.name, attribute: shape.attribute }, flags).toStrictEqual({
        short: option.short,
        long: option.long,
        negate: option.negate,
        variadic: option.variadic,
        name: option.name(),
        attribute: option.attributeName(),
      });
      expect(shape.value, flags).toBe(option.required ? 'required' : option.optional ? 'optional' : 'none');
    }
  });
});
