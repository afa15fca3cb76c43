// One wording for every error kagent can print: a message starts lower-case and
// has no final period (`error: no profile "x": did you mean "y"? (CODE)`), a hint
// has no final period either, and a hint or message that names a command quotes
// the whole command in backticks (`kagent auth login --profile work`). Read from
// the source: every literal message and hint of src/ and commands/ (the sandbox,
// a separate program, aside). Commander's own wording never reaches the user.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { groups } from '../../src/cli/manifest.js';
import { runCli } from '../helpers/run.js';

const root = new URL('../..', import.meta.url).pathname;
const files = execFileSync('git', ['ls-files', 'src/**/*.ts', 'commands/**/*.ts'], { cwd: root, encoding: 'utf8' })
  .trim()
  .split('\n')
  .filter((file) => !file.startsWith('src/sandbox/'));

const LITERAL = String.raw`(\`(?:[^\`\\]|\\.)*\`|'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")`;
/** The condition of a `? :` before the literal (no quotes in it), so both branches are read. */
const BRANCH = '(?:[^;,\\n\'"`]*?[?:]\\s*)?';
const ERRORS = String.raw`new (?:CliError|UsageError|NetworkError|StillRunningError|InterruptedError)\(\s*`;
/** The message: the first argument of an error's constructor (either branch of a `? :`), when it is a literal. */
const MESSAGE = new RegExp(ERRORS + BRANCH + LITERAL, 'g');
/** The hint: `hint: '…'`, `hint = '…'` (either branch of a `? :`), or the second argument of a UsageError & co. */
const HINT = new RegExp(
  String.raw`(?:\bhint(?::|\s*\?\?=|\s*=(?!=))\s*` +
    BRANCH +
    String.raw`|new (?:UsageError|NetworkError|StillRunningError|InterruptedError)\(\s*${LITERAL}\s*,\s*)${LITERAL}`,
  'g',
);
const COMMAND = new RegExp(String.raw`\bkagent (?:${groups.map((g) => g.name).join('|')})\b`);

interface Found {
  where: string;
  text: string;
}

function literals(pattern: RegExp, group: (m: RegExpMatchArray) => string | undefined): Found[] {
  const found: Found[] = [];
  for (const file of files) {
    const source = readFileSync(`${root}${file}`, 'utf8');
    for (const match of source.matchAll(pattern)) {
      const literal = group(match);
      if (literal === undefined) continue;
      const line = source.slice(0, match.index).split('\n').length;
      found.push({ where: `${file}:${line}`, text: literal.slice(1, -1) });
    }
  }
  return found;
}

const messages = literals(MESSAGE, (m) => m[1]);
const hints = literals(HINT, (m) => m[2]);

/** The parts of a text outside `backtick spans` (escaped backticks in templates count as backticks). */
function outsideBackticks(text: string): string {
  return text
    .replace(/\\`/g, '`')
    .split('`')
    .filter((_, i) => i % 2 === 0)
    .join(' ');
}

describe('the wording of errors and hints', () => {
  it('finds the messages and hints it checks', () => {
    expect(messages.length).toBeGreaterThan(150);
    expect(hints.length).toBeGreaterThan(80);
  });

  it('every message starts lower-case and has no final period', () => {
    const wrong = messages.filter(({ text }) => /^[A-Z][a-z]/.test(text) || /[^.]\.$/.test(text));
    expect(wrong).toEqual([]);
  });

  it('every hint has no final period', () => {
    expect(hints.filter(({ text }) => /[^.]\.$/.test(text))).toEqual([]);
  });

  it('a message or hint that names a command quotes the whole command in backticks', () => {
    const wrong = [...messages, ...hints].filter(({ text }) => COMMAND.test(outsideBackticks(text)));
    expect(wrong).toEqual([]);
    // … and whole: no flag or value of it left after the closing backtick (`kagent auth login` --profile work)
    const cut = [...messages, ...hints].filter(({ text }) =>
      /`kagent [^`]*`(\$\{[^}]*\})?\s?(-{1,2}[a-z]|\$\{)/.test(text.replace(/\\`/g, '`')),
    );
    expect(cut).toEqual([]);
  });
});

describe("commander's wording is replaced by kagent's", () => {
  const env = { KAGENT_API_KEY: undefined, KAGENT_BASE_URL: undefined };
  const cases: Array<[string[], string, string]> = [
    [
      ['config', 'get', 'colour'],
      'error: unknown key "colour" (USAGE)',
      'hint: keys: base-url, lang, space, rate-limit, pager, api-key; see `kagent config get --help`',
    ],
    [
      ['config', 'set', 'lnag', 'zh'],
      'error: unknown key "lnag": did you mean "lang"? (USAGE)',
      'hint: keys: base-url, lang,',
    ],
    [['completion', 'zhs'], 'error: unknown shell "zhs": did you mean "zsh"? (USAGE)', 'hint: shells: bash, zsh, fish'],
    [
      ['space', 'lst'],
      'error: unknown command "lst": did you mean "list" or "ls"? (USAGE)',
      'hint: see `kagent space --help`',
    ],
    [['space', 'list', '--limt', '3'], 'error: unknown option --limt (USAGE)', 'hint: see `kagent space list --help`'],
    [
      ['space', 'list', 'extra'],
      'error: too many arguments for "list": it takes none, got 1 (USAGE)',
      'hint: see `kagent space list --help`',
    ],
    [['config', 'get'], 'error: missing argument <key> (USAGE)', 'hint: see `kagent config get --help`'],
  ];
  it.each(cases)('%j', async (argv, message, hint) => {
    const r = await runCli(argv, { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${message}\n`);
    expect(r.stderr).toContain(hint);
    expect(r.stderr).not.toMatch(/command-argument|Allowed choices|Did you mean|'\w+'|\.\s\(USAGE\)/);
  });
});
