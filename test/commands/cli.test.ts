// The program itself: help, version, parse errors, error output, exit codes,
// lazy group loading. In-process, with fake streams.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import type { CommandSpec } from '../../src/kit/define.js';
import type { RunOptions } from '../../src/cli/program.js';
import { exitCodeTable } from '../../src/errors.js';
import { loadGroup } from '../../src/cli/groups.js';
import { groups } from '../../src/cli/manifest.js';
import { groupNameIn } from '../../src/cli/argv.js';
import {
  GLOBAL_ATTRIBUTES,
  GLOBAL_FLAGS,
  SHORT_VALUE_LETTERS,
  shapeOf,
  VALUE_FLAGS,
} from '../../src/cli/global-flags.js';
import { writeProfile } from '../../src/config/store.js';
import { runCli, tempDir } from '../helpers/run.js';
import { importEdges, sourceFiles } from '../helpers/imports.js';

describe('version and help', () => {
  it('--version and -V print the version, exit 0', async () => {
    for (const flag of ['--version', '-V']) {
      const r = await runCli([flag]);
      expect(r).toMatchObject({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    }
  });

  it('`kagent version` prints what --version does; --json an object; --verbose adds the Node.js', async () => {
    const r = await runCli(['version']);
    expect(r).toMatchObject({ code: 0, stdout: `kagent version ${pkg.version}\n`, stderr: '' });
    const json = JSON.parse((await runCli(['version', '--json'])).stdout);
    expect(json).toEqual({
      version: pkg.version,
      buildDate: null,
      node: process.version,
      platform: process.platform,
      arch: process.arch,
    });
    expect((await runCli(['version', '--verbose'])).stdout).toContain(`Node.js ${process.version} on `);
  });

  it('`kagent version --json` gives the platform of the context, not of the process', async () => {
    const other = process.platform === 'win32' ? 'linux' : 'win32';
    const json = JSON.parse((await runCli(['version', '--json'], { platform: other })).stdout);
    expect(json.platform).toBe(other);
  });

  it('--help lists every command group with its summary, the global flags and examples', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const group of groups)
      expect(r.stdout).toMatch(new RegExp(`\\n  ${group.name}\\s+${group.summary.slice(0, 20).replace(/[()]/g, '.')}`));
    for (const flag of [
      '--json',
      '--jq <expr>',
      '-p, --profile',
      '--base-url',
      '--lang',
      '--no-color',
      '--no-input',
      '-y, --yes',
      '-q, --quiet',
      '--debug',
      '--timeout',
      '--insecure',
    ]) {
      expect(r.stdout).toContain(flag);
    }
    expect(r.stdout).toContain('Examples:\n  $ kagent');
    expect(r.stdout).toContain('kagent help exit-codes');
  });

  it('no arguments and `kagent help` print the same help, exit 0', async () => {
    const bare = await runCli([]);
    const help = await runCli(['help']);
    const flag = await runCli(['--help']);
    expect(bare.code).toBe(0);
    expect(help.code).toBe(0);
    expect(bare.stdout).toBe(flag.stdout);
    expect(help.stdout).toBe(flag.stdout);
  });

  it('`kagent help space create` is `kagent space create --help`', async () => {
    const a = await runCli(['help', 'space', 'create']);
    const b = await runCli(['space', 'create', '--help']);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).toContain('Usage: kagent space create [options] <name>');
  });

  it('a group without a list, named without its subcommand, shows the group help on stdout, exit 0 (bare-groups.test.ts)', async () => {
    const r = await runCli(['auth']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Commands:');
    expect(r.stderr).toBe('');
  });

  it('every command of every group has an example in its --help, and its summary matches the manifest', async () => {
    for (const group of groups) {
      const spec = await loadGroup(group.name);
      expect(spec.summary, `${group.name} summary`).toBe(group.summary);
      const paths: string[][] = [];
      const walk = (command: CommandSpec, path: string[]) => {
        paths.push(path);
        for (const sub of command.commands ?? []) walk(sub, [...path, sub.name]);
      };
      walk(spec, [group.name]);
      for (const path of paths) {
        const r = await runCli([...path, '--help']);
        expect(r.code, `${path.join(' ')} --help`).toBe(0);
        expect(r.stdout, `${path.join(' ')} --help`).toMatch(/Examples:\n {2}(\$ |#)\S/);
        // `kagent help --help` is the root help (help on help); every other command's: usage and flags lead,
        // the description follows them, and the manual page named is one the package installs.
        const help = r.stdout;
        if (path.join(' ') === 'help') {
          expect(help).toBe((await runCli(['--help'])).stdout);
          continue;
        }
        expect(help.indexOf('Options:'), `${path.join(' ')} --help`).toBeLessThan(help.indexOf('Examples:'));
        const first = (await findSpec(path))?.description?.split('\n\n')[0];
        if (first) expect(help.indexOf(first.slice(0, 30)), path.join(' ')).toBeGreaterThan(help.indexOf('Options:'));
        expect(help, path.join(' ')).toMatch(new RegExp(`\`man kagent-${group.name}\`\n`));
        expect(pkg.man).toContain(`./dist/man/kagent-${group.name}.1`);
      }
    }
  });

  it('lib upload --help: usage and flags on the first screen, a short description, examples, then the manual for the rest', async () => {
    const r = await runCli(['lib', 'upload', '--help'], { columns: 80 });
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('Usage: kagent lib upload [options] <paths...>');
    expect(lines.indexOf('Options:')).toBeLessThan(10);
    expect(r.stdout).toContain('so running it again never adds a file twice');
    // The long prose (output formats, dry run, CI, exit statuses) is in the manual, not in --help.
    expect(r.stdout).not.toContain('Exit status: 0 when every file');
    expect(r.stdout).toContain('The rest of the description: `man kagent-lib`');
    const { manPages } = await import('../../src/cli/manpages.js');
    const pages = await manPages({ version: pkg.version, date: '2026-01-01' });
    expect(pages.find((page) => page.file === 'kagent-lib.1')?.text).toContain('Exit status: 0 when every file');
    expect(lines.length).toBeLessThan(45);
  });
});

/** The spec of a command path (group first). */
async function findSpec(path: string[]): Promise<CommandSpec | undefined> {
  let spec: CommandSpec | undefined = await loadGroup(path[0] as Parameters<typeof loadGroup>[0]);
  for (const name of path.slice(1)) spec = spec?.commands?.find((sub) => sub.name === name);
  return spec;
}

describe('help topics', () => {
  it('exit-codes lists every documented code', async () => {
    const r = await runCli(['help', 'exit-codes']);
    expect(r.code).toBe(0);
    for (const [code, meaning] of exitCodeTable) expect(r.stdout).toContain(`${code}`.padEnd(3) + `   ${meaning}`);
  });
  it('exit-codes and the table of docs/exit-codes.md have the same codes', async () => {
    const page = readFileSync(new URL('../../docs/exit-codes.md', import.meta.url), 'utf8');
    const documented = [...page.matchAll(/^\| (\d+) \|/gm)].map((m) => Number(m[1]));
    const listed = (JSON.parse((await runCli(['help', 'exit-codes', '--json'])).stdout) as Array<{ code: number }>).map(
      (row) => row.code,
    );
    expect(documented.length).toBeGreaterThan(10);
    expect(documented).toEqual(listed);
    expect(listed).toEqual(exitCodeTable.map(([code]) => code));
  });
  it('environment lists the variables', async () => {
    const r = await runCli(['help', 'environment']);
    expect(r.code).toBe(0);
    for (const name of [
      'KAGENT_API_KEY',
      'KAGENT_BASE_URL',
      'KAGENT_PROFILE',
      'KAGENT_LANG',
      'KAGENT_CONFIG_DIR',
      'KAGENT_PAGER',
      'PAGER',
      'NO_COLOR',
      'FORCE_COLOR',
      'CI',
      'GITHUB_ACTIONS',
      'GITHUB_STEP_SUMMARY',
    ])
      expect(r.stdout).toContain(name);
  });
  it('environment names every command that writes the step summary (each command whose code reads GITHUB_STEP_SUMMARY)', async () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const files = sourceFiles(root, ['src', 'commands']);
    const edges = importEdges(root, files).filter((edge) => !edge.typeOnly);
    // The files that read the variable, then everything that imports them, up to the command files.
    const writers = new Set(
      files.filter(
        (file) =>
          file !== 'src/cli/environment.ts' && readFileSync(join(root, file), 'utf8').includes('GITHUB_STEP_SUMMARY'),
      ),
    );
    for (let grew = true; grew;) {
      grew = false;
      for (const edge of edges)
        if (writers.has(edge.to) && !writers.has(edge.from)) grew = Boolean(writers.add(edge.from));
    }
    const commands = [...writers]
      .map((file) => /^commands\/(\w+)\/(\w+)\.ts$/.exec(file))
      .filter((match) => match && match[2] !== 'index' && match[2] !== 'shared')
      .map((match) => `${match![1]} ${match![2]}`);
    expect(commands).toEqual(expect.arrayContaining(['lib upload', 'lib sync']));
    const rows = JSON.parse((await runCli(['help', 'environment', '--json'])).stdout) as Array<{
      name: string;
      meaning: string;
    }>;
    for (const name of ['GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY']) {
      const meaning = rows.find((row) => row.name === name)?.meaning ?? '';
      for (const command of commands) expect(meaning, `${name}: ${command}`).toContain(command);
    }
  });
  it('environment lists every variable of the table in docs/configuration.md', async () => {
    const configuration = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
    const section = configuration.split('\n## Environment variables\n')[1]!.split('\n## ')[0]!;
    const documented = [...section.matchAll(/^\| (`[A-Z_]+`(?:, `[A-Z_]+`)*) \|/gm)].flatMap((m) =>
      [...m[1]!.matchAll(/`([A-Z_]+)`/g)].map((n) => n[1]!),
    );
    expect(documented.length).toBeGreaterThan(10);
    expect(documented).toContain('KAGENT_CACHE_DIR');
    const r = await runCli(['help', 'environment', '--json']);
    const listed = (JSON.parse(r.stdout) as Array<{ name: string }>).flatMap((row) => row.name.split(', '));
    for (const name of documented) expect(listed, name).toContain(name);
  });
  it('--json gives arrays', async () => {
    const codes = JSON.parse((await runCli(['help', 'exit-codes', '--json'])).stdout);
    expect(codes).toContainEqual({ code: 130, meaning: expect.stringContaining('interrupted') });
    const env = JSON.parse((await runCli(['help', 'environment', '--json'])).stdout);
    expect(env.map((row: { name: string }) => row.name)).toContain('KAGENT_API_KEY');
  });
  it("an unknown topic is a usage error, the names of an object's own machinery included", async () => {
    for (const topic of ['nonsense', 'constructor', '__proto__', 'toString']) {
      const r = await runCli(['help', topic]);
      expect(r.code, topic).toBe(2);
      expect(r.stderr).toContain(`no help topic "${topic}"`);
      expect(r.stderr).toContain('topics: exit-codes, environment;');
    }
  });
});

describe('descriptions are paragraphs that help wraps to the terminal', () => {
  it('no line break inside a sentence: a break only starts a list line (indented, "-", "#" or "label:")', async () => {
    const walk = (spec: CommandSpec, path: string[]) => {
      const lines = (spec.description ?? '').split('\n');
      for (let i = 1; i < lines.length; i++)
        if (lines[i - 1] !== '' && lines[i] !== '')
          expect(lines[i], `${path.join(' ')}: a hard break before "${lines[i]}"`).toMatch(/^(\s|[-#*•]|[\w-]+:\s)/);
      for (const sub of spec.commands ?? []) walk(sub, [...path, sub.name]);
    };
    for (const group of groups) walk(await loadGroup(group.name), [group.name]);
  });

  it('sandbox --help: a wide terminal gets the first paragraph in full lines (wrapped at the width, nowhere else)', async () => {
    const r = await runCli(['sandbox', '--help'], { tty: true, columns: 200 });
    const paragraph = /\n(A stateful, faithful double [\s\S]*?inject faults\.)\n/.exec(r.stdout)?.[1] ?? '';
    const lines = paragraph.split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines.slice(0, -1)) expect(line.length, line).toBeGreaterThan(180);
  });
});

describe('parse errors are usage errors: exit 2, one error line, a hint', () => {
  it.each([
    [['--frobnicate'], 'unknown option --frobnicate'],
    [['frobnicate'], 'unknown command "frobnicate"'],
    [['space', 'frob'], 'unknown command "frob"'],
    [['space', 'create'], 'missing argument <name>'],
    [['space', 'list', 'extra'], 'too many arguments for "list": it takes none, got 1'],
    [['--lang', 'fr', 'me'], '--lang "fr": must be one of: zh, en'],
    [['--timeout', 'soon', 'me'], '--timeout "soon": must be a number greater than 0'],
    [['space', 'edit', 'x', '--position', '-1'], '--position "-1": must be an integer of at least 0'],
    [['config', 'get', 'colour'], 'unknown key "colour"'],
  ])('kagent %j', async (argv, message) => {
    const r = await runCli(argv as string[]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(message);
    expect(r.stderr).toMatch(/^error: .* \(USAGE\)\nhint: (.*; )?see `kagent.*--help`\n$/);
  });

  it('suggests the command meant', async () => {
    const r = await runCli(['spcae']);
    expect(r.stderr).toContain('error: unknown command "spcae": did you mean "space"? (USAGE)');
  });

  it('with --json the error is a JSON envelope on stderr', async () => {
    const r = await runCli(['space', 'create', '--json']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr)).toMatchObject({
      error: { code: 'USAGE', message: 'missing argument <name>' },
    });
  });
});

describe('group loading', () => {
  it('finds the group name past global flags and their values', () => {
    expect(groupNameIn(['--json', 'space', 'list'])).toBe('space');
    expect(groupNameIn(['-p', 'work', '--jq', '.[]', 'me'])).toBe('me');
    expect(groupNameIn(['--profile=work', '--base-url', 'http://x', 'auth', 'status'])).toBe('auth');
    expect(groupNameIn(['-qp', 'work', 'space'])).toBe('space');
    expect(groupNameIn(['-pwork', 'space'])).toBe('space');
    expect(groupNameIn(['--', 'me'])).toBe('me');
    expect(groupNameIn(['--json'])).toBeUndefined();
  });

  it('which global flags take a value comes from the one table of global flags', () => {
    expect([...VALUE_FLAGS].sort()).toEqual(['--base-url', '--jq', '--lang', '--profile', '--timeout', '-p']);
    expect([...SHORT_VALUE_LETTERS]).toEqual(['p']);
    // A flag added to the table is known to the scan with no other change.
    const shape = shapeOf({ flags: '-r, --region <name>', description: 'x' });
    expect(shape).toEqual({ short: '-r', long: '--region', attribute: 'region', value: 'required', negate: false });
    expect(shapeOf({ flags: '--no-pager', description: 'x' })).toMatchObject({
      attribute: 'pager',
      negate: true,
      value: 'none',
    });
    expect(shapeOf({ flags: '--json [fields]', description: 'x' })).toMatchObject({
      attribute: 'json',
      value: 'optional',
    });
    for (const flag of GLOBAL_FLAGS) {
      const { attribute } = shapeOf(flag);
      expect(GLOBAL_ATTRIBUTES.has(attribute), flag.flags).toBe(true);
    }
  });

  it('a command declaring a global flag of its own is refused when registered', async () => {
    const { readCommandLine } = await import('../../src/cli/commander.js');
    const options = {
      argv: ['me'],
      env: {},
      version: '0',
      stdout: new PassThrough(),
      stderr: new PassThrough(),
      stdin: new PassThrough(),
    } as unknown as RunOptions;
    for (const flags of ['--timeout <s>', '-p, --page <n>', '--debug', '--lang <x>']) {
      const group: CommandSpec = {
        name: 'me',
        summary: 'x',
        options: [{ flags, description: 'x' }],
        examples: ['kagent me'],
        run: async () => {},
      };
      await expect(readCommandLine(options, ['me'], group), flags).rejects.toThrow('clashes with a global flag');
    }
    // A command's own --input <file> is not the global --no-input.
    const api: CommandSpec = {
      name: 'me',
      summary: 'x',
      options: [{ flags: '--input <file>', description: 'x' }],
      examples: ['kagent me'],
      run: async () => {},
    };
    await expect(readCommandLine(options, ['me', '--input', 'f'], api)).resolves.toMatchObject({
      invocation: { opts: { input: 'f' } },
    });
  });

  it('global flags work after the subcommand too', async () => {
    const r = await runCli(['help', 'exit-codes', '--jq', '.[0].code']);
    expect(r).toMatchObject({ code: 0, stdout: '0\n' });
  });

  it('every group of the manifest loads a module declaring that very group', async () => {
    for (const group of groups) expect((await loadGroup(group.name)).name, group.name).toBe(group.name);
    await expect(loadGroup('no-such-group')).rejects.toThrow('no command group "no-such-group"');
  });
});

describe('the commander-free root help', () => {
  it('is exactly what commander prints, at any width', async () => {
    const { renderRootHelp } = await import('../../src/cli/root-help.js');
    for (const columns of [60, 80, 100, 132]) {
      const r = await runCli(['--help'], { columns });
      expect(renderRootHelp(columns), `width ${columns}`).toBe(r.stdout);
    }
  });
});

describe('--json FIELDS (the gh habit)', () => {
  const env = { KAGENT_API_KEY: undefined, KAGENT_BASE_URL: undefined };
  it('keeps those fields, in that order, as --json id,title, --json=FIELDS and after a command without operands', async () => {
    for (const argv of [
      ['help', 'exit-codes', '--json', 'meaning,code'],
      ['help', 'exit-codes', '--json=meaning,code'],
      ['--json', 'meaning,code', 'help', 'exit-codes'],
    ]) {
      const r = await runCli(argv, { env });
      expect(r.code, argv.join(' ')).toBe(0);
      const rows = JSON.parse(r.stdout);
      expect(rows[0]).toEqual({ meaning: expect.any(String), code: 0 });
      expect(Object.keys(rows[0])).toEqual(['meaning', 'code']);
    }
    const one = JSON.parse((await runCli(['help', 'environment', '--json', 'name'], { env })).stdout);
    expect(one[0]).toEqual({ name: 'KAGENT_API_KEY' });
    // --jq sees the fields picked
    expect(
      (await runCli(['help', 'exit-codes', '--json', 'code', '--jq', '.[0] | keys | join(",")'], { env })).stdout,
    ).toBe('code\n');
  });

  it('an unknown field is exit 2 and lists the known ones; stdout stays empty', async () => {
    const r = await runCli(['help', 'exit-codes', '--json', 'code,nope'], { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    // --json asked: the error is the JSON envelope on stderr
    expect(JSON.parse(r.stderr).error).toEqual({
      code: 'USAGE',
      message: 'unknown field for --json: nope',
      hint: 'known fields: code, meaning',
    });
  });

  it('an empty field list (`--json \'\'`, `--json ,`) is exit 2 naming --json, not "too many arguments"; nothing is sent', async () => {
    for (const empty of ['', ' ', ',']) {
      const r = await runCli(['space', 'list', '--json', empty], { env });
      expect(r.code, JSON.stringify(empty)).toBe(2);
      expect(r.stdout).toBe('');
      expect(JSON.parse(r.stderr).error).toEqual({
        code: 'USAGE',
        message: `--json was given an empty field list (${JSON.stringify(empty)})`,
        hint: '`--json` alone gives every field; or name them, e.g. `--json id,name`',
      });
    }
    // Where an operand is wanted, an empty word is that operand (the command judges it).
    const topic = await runCli(['help', '--json', ''], { env });
    expect(topic.stderr).not.toContain('field list');
  });

  it('the word after --json stays an operand where the command expects one', async () => {
    // `help` takes a topic: "exit-codes" is the topic, not a field
    const r = await runCli(['help', '--json', 'exit-codes'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)[0]).toEqual({ code: 0, meaning: expect.any(String) });
    // the value of a later flag (`--jq .[0].code`) is no operand: the word is still the topic
    const jq = await runCli(['help', '--json', 'exit-codes', '--jq', '.[0].code'], { env });
    expect(jq.stderr).toBe('');
    expect(jq.stdout).toBe('0\n');
  });
});

describe('-p with a profile that does not exist', () => {
  it('says so and names the closest saved profile (exit 2, an invalid input, never 4), not NO_BASE_URL', async () => {
    const configDir = tempDir('kagent-profiles-');
    await writeProfile(configDir, 'sandbox', { baseUrl: 'http://127.0.0.1:9/api/v1', apiKey: 'kak_x' });
    await writeProfile(configDir, 'work', { baseUrl: 'http://127.0.0.1:9/api/v1', apiKey: 'kak_y' });
    const env = { KAGENT_API_KEY: undefined, KAGENT_BASE_URL: undefined };
    const r = await runCli(['-p', 'sandbx', 'me'], { configDir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: no profile "sandbx": did you mean "sandbox"? (PROFILE_NOT_FOUND)');
    expect(r.stderr).toContain('hint: saved profiles: sandbox, work');
    expect(r.stderr).not.toContain('NO_BASE_URL');
    const fromEnv = await runCli(['me'], { configDir, env: { ...env, KAGENT_PROFILE: 'wrok' } });
    expect(fromEnv.stderr).toContain('no profile "wrok" (from KAGENT_PROFILE): did you mean "work"?');
    const far = await runCli(['-p', 'elsewhere', 'me'], { configDir, env });
    expect(far.code).toBe(2);
    expect(far.stderr).toContain('error: no profile "elsewhere" (PROFILE_NOT_FOUND)');
    // a profile that does not exist yet is fine where it is being made
    const login = await runCli(
      ['auth', 'login', '-p', 'fresh', '--base-url', 'http://127.0.0.1:9/api/v1', '--with-key'],
      { configDir, env, stdin: 'kak_z\n' },
    );
    expect(login.stderr).not.toContain('PROFILE_NOT_FOUND');
  });

  it('every command that reads or changes the profile says PROFILE_NOT_FOUND (exit 2), the real one untouched', async () => {
    const configDir = tempDir('kagent-profiles-');
    await writeProfile(configDir, 'sandbox', { baseUrl: 'http://127.0.0.1:9/api/v1', apiKey: 'kak_x' });
    const env = { KAGENT_API_KEY: undefined, KAGENT_BASE_URL: undefined };
    for (const argv of [
      ['doc', 'show', 'doc_x'],
      ['auth', 'token'],
      ['auth', 'status'],
      ['auth', 'logout'],
      ['config', 'get', 'base-url'],
      ['config', 'get', 'lang'],
      ['config', 'list'],
    ]) {
      const flag = await runCli(['-p', 'sandbx', ...argv], { configDir, env });
      expect(flag.code, argv.join(' ')).toBe(2);
      expect(flag.stderr, argv.join(' ')).toContain(
        'error: no profile "sandbx": did you mean "sandbox"? (PROFILE_NOT_FOUND)',
      );
      // the hint keeps -p: the command that would create the profile named
      expect(flag.stderr, argv.join(' ')).toContain('`kagent auth login -p sandbx`');
      const fromEnv = await runCli(argv, { configDir, env: { ...env, KAGENT_PROFILE: 'nosuch' } });
      expect(fromEnv.code, argv.join(' ')).toBe(2);
      expect(fromEnv.stderr, argv.join(' ')).toContain('no profile "nosuch" (from KAGENT_PROFILE) (PROFILE_NOT_FOUND)');
      const json = await runCli(['-p', 'sandbx', ...argv, '--json'], { configDir, env });
      expect(JSON.parse(json.stderr).error.code, argv.join(' ')).toBe('PROFILE_NOT_FOUND');
    }
    expect(readFileSync(join(configDir, 'config.json'), 'utf8')).toContain('kak_x');
  });
});

describe('no current profile, but saved ones', () => {
  const env = { KAGENT_API_KEY: undefined, KAGENT_BASE_URL: undefined, KAGENT_PROFILE: undefined };

  it('names the one saved profile and the exact commands that use it, without using it', async () => {
    const configDir = tempDir('kagent-profiles-');
    // what `kagent sandbox` leaves: a `sandbox` profile, no current one
    await writeProfile(configDir, 'sandbox', { baseUrl: 'http://127.0.0.1:9/api/v1', apiKey: 'kak_x' });
    const r = await runCli(['me'], { configDir, env });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('error: no API base URL configured (NO_BASE_URL)');
    expect(r.stderr).toContain(
      'hint: no current profile; the one saved profile is "sandbox": make it current with `kagent config use sandbox`, or add `-p sandbox` to the command',
    );
    const withUrl = await runCli(['me'], { configDir, env: { ...env, KAGENT_BASE_URL: 'http://127.0.0.1:9/api/v1' } });
    expect(withUrl.code).toBe(3);
    expect(withUrl.stderr).toContain('`kagent config use sandbox`');
  });

  it('lists several saved profiles; with a saved current profile the usual hint stays', async () => {
    const configDir = tempDir('kagent-profiles-');
    await writeProfile(configDir, 'sandbox', { baseUrl: 'http://127.0.0.1:9/api/v1' });
    await writeProfile(configDir, 'work', { baseUrl: 'http://127.0.0.1:9/api/v1' });
    const r = await runCli(['me'], { configDir, env });
    expect(r.stderr).toContain('hint: no current profile; saved profiles: sandbox, work');
    await writeProfile(configDir, 'work', {}, { makeCurrent: true });
    const current = await runCli(['me'], { configDir, env });
    expect(current.stderr).toContain('hint: run `kagent auth login --profile work`, or set KAGENT_API_KEY');
  });
});

describe('mistakes with --json / --jq', () => {
  const env = { KAGENT_API_KEY: undefined, KAGENT_BASE_URL: undefined };

  it('an unknown field close to a known one: did you mean (exit 2), the known fields listed', async () => {
    const r = await runCli(['help', 'exit-codes', '--json', 'cdoe'], { env });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr).error).toEqual({
      code: 'USAGE',
      message: 'unknown field for --json: cdoe (did you mean "code"?)',
      hint: 'known fields: code, meaning',
    });
  });

  it('at a terminal the error is text even with --json or --jq; piped stderr keeps the JSON envelope', async () => {
    const field = await runCli(['help', 'exit-codes', '--json', 'menaing'], {
      env: { ...env, NO_COLOR: '1' },
      tty: true,
    });
    expect(field.code).toBe(2);
    expect(field.stderr).toBe(
      'error: unknown field for --json: menaing (did you mean "meaning"?) (USAGE)\nhint: known fields: code, meaning\n',
    );
    const jq = await runCli(['help', 'exit-codes', '--jq', '.bad syntax'], {
      env: { ...env, NO_COLOR: '1' },
      tty: true,
    });
    expect(jq.code).toBe(2);
    expect(jq.stderr).toMatch(/^error: .*\n/);
    expect(jq.stderr).not.toContain('{"error"');
    const piped = await runCli(['help', 'exit-codes', '--jq', '.bad syntax'], { env });
    expect(piped.code).toBe(2);
    expect(JSON.parse(piped.stderr).error.code).toBe(jq.stderr.match(/\((\w+)\)\n/)?.[1]);
  });
});
