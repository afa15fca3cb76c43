// `kagent completion bash|zsh|fish`: the scripts are valid for their shell and
// complete what the command tree holds — groups, subcommands and aliases, every
// flag, choices of flags and arguments, file names where a path is expected —
// checked by running each shell's completion function on typed command lines.
// The loaders in completions/ are checked against the built binary. bash, zsh
// and fish are all required (.ci/run installs them): a missing shell fails here.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CommandSpec } from '../../src/kit/define.js';
import { loadAllGroups } from '../../src/cli/groups.js';
import { groups } from '../../src/cli/manifest.js';
import { testNode } from '../helpers/binary.js';
import { runCli, tempDir } from '../helpers/run.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = tempDir('kagent-completion-');

const scripts: Record<string, string> = {};
let specs: CommandSpec[];

beforeAll(async () => {
  for (const shell of ['bash', 'zsh', 'fish'])
    expect(spawnSync(shell, ['-c', 'exit 0']).status, `${shell} must be installed (.ci/run installs it)`).toBe(0);
  for (const shell of ['bash', 'zsh', 'fish']) {
    const r = await runCli(['completion', shell]);
    expect(r.code, r.stderr).toBe(0);
    scripts[shell] = r.stdout;
    writeFileSync(join(dir, `kagent.${shell}`), r.stdout);
  }
  specs = await loadAllGroups();
});

function run(shell: string, args: string[], input?: string, env: Record<string, string> = {}) {
  const r = spawnSync(shell, args, { input, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: dir, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every command path of the tree, with its options: ['space/list', spec]. */
function paths(): Array<[string, CommandSpec]> {
  const out: Array<[string, CommandSpec]> = [];
  const walk = (spec: CommandSpec, path: string) => {
    out.push([path, spec]);
    // Hidden commands (`completion __complete`, what the scripts call) are not offered.
    for (const sub of spec.commands ?? []) if (!sub.hidden) walk(sub, `${path}/${sub.name}`);
  };
  for (const spec of specs) walk(spec, spec.name);
  return out;
}

/** Completion candidates bash offers for a command line (the last word is the one being completed). */
const BASH_CASES: Array<[string[], string]> = [
  [['kagent', ''], [...groups.map((g) => g.name), 'status'].join(' ')],
  [['kagent', 'stat'], 'status'],
  [['kagent', 'status', '--j'], '--json --jq'],
  [['kagent', 'd'], 'doc doctor'],
  [['kagent', 'doc', ''], 'list search show create update edit delete pull push status'],
  [['kagent', 'doc', 'rm', '--y'], '--yes'],
  [['kagent', 'doc', 'edit', 'dc_1', '--r'], '--replace --revision'],
  [['kagent', '-p', 'work', 'doc', 'cr'], 'create'],
  [['kagent', '--lang', ''], 'zh en'],
  [['kagent', 'doc', 'list', '--space', 'Work', '--l'], '--limit --lang'],
  [['kagent', 'lib', 'list', '--kind', ''], 'entry link file media'],
  [['kagent', 'completion', ''], 'bash zsh fish'],
  [['kagent', 'api', 'GET', '/med'], '/media /media/quote'],
  [['kagent', 'media', 'start', 'URL', '--no'], '--no-wait --no-color --no-input --no-pager'],
  [['kagent', 'doc', 'create', '--file', join(dir, 'kagent.b')], join(dir, 'kagent.bash')],
  [['kagent', 'help', 'exit'], 'exit-codes'],
];

describe('bash', () => {
  it('passes shellcheck -S warning (no word splitting of candidates: SC2207 and the like)', () => {
    const version = spawnSync('shellcheck', ['--version']);
    expect(version.status, 'shellcheck must be installed (.ci/run installs it)').toBe(0);
    const r = run('shellcheck', ['-S', 'warning', '-s', 'bash', '-'], scripts.bash);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('file names with spaces and quotes complete as one word each, from a word typed escaped or quoted', () => {
    const files = join(dir, 'spaced');
    mkdirSync(files, { recursive: true });
    for (const name of ['my notes.md', 'my report.pdf', "it's.txt"]) writeFileSync(join(files, name), 'x');
    const harness = [
      `source ${JSON.stringify(join(dir, 'kagent.bash'))}`,
      `cd ${JSON.stringify(files)}`,
      'comp() { COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=(); _kagent; local IFS="|"; echo "${COMPREPLY[*]}"; }',
      'comp kagent lib upload my',
      "comp kagent lib upload 'my\\ r'",
      `comp kagent lib upload '"my r'`,
      `comp kagent lib upload "'my n"`,
      "comp kagent doc create --file 'it\\'\\''s'",
      // a word holding a command substitution is text, never run
      "comp kagent lib upload '$(touch ran)'",
      'test -e ran && echo RAN || echo safe',
    ].join('\n');
    const r = run('bash', ['-c', harness]);
    expect(r.stderr).toBe('');
    const [both, escaped, doubleQuoted, singleQuoted, apostrophe, substitution, ran] = r.stdout.split('\n');
    expect(both!.split('|').sort()).toEqual(['my notes.md', 'my report.pdf']);
    expect(escaped).toBe('my report.pdf');
    expect(doubleQuoted).toBe('my report.pdf');
    expect(singleQuoted).toBe('my notes.md');
    expect(apostrophe).toBe("it's.txt");
    expect(substitution).toBe('');
    expect(ran).toBe('safe');
  });

  it('in an interactive bash, `my\\ r`+Tab becomes `my\\ report.pdf` (readline quotes what it inserts)', async () => {
    expect(spawnSync('tmux', ['-V']).status, 'tmux must be installed (.ci/run installs it)').toBe(0);
    const files = join(dir, 'typed');
    mkdirSync(files, { recursive: true });
    for (const name of ['my notes.md', 'my report.pdf']) writeFileSync(join(files, name), 'x');
    writeFileSync(join(files, '.bashrc'), `PS1='$ '\nsource ${JSON.stringify(join(dir, 'kagent.bash'))}\n`);
    const server = `kagent-bash-${process.pid}`;
    const tmux = (...words: string[]) => spawnSync('tmux', ['-L', server, ...words], { encoding: 'utf8' });
    const shell = `env -i PATH=${JSON.stringify(process.env.PATH ?? '')} HOME=${JSON.stringify(files)} TERM=xterm-256color bash --rcfile ${JSON.stringify(join(files, '.bashrc'))} -i`;
    expect(tmux('-f', '/dev/null', 'new-session', '-d', '-x', '120', '-y', '10', '-c', files, shell).status).toBe(0);
    try {
      const screen = () => tmux('capture-pane', '-p').stdout;
      const until = async (pattern: RegExp) => {
        for (let i = 0; i < 100 && !pattern.test(screen()); i++) await new Promise((r) => setTimeout(r, 50));
        return screen();
      };
      await until(/^\$ /m);
      tmux('send-keys', 'kagent lib upload my\\ r', 'Tab');
      expect(await until(/report/)).toMatch(/^\$ kagent lib upload my\\ report\.pdf *$/m);
    } finally {
      tmux('kill-server');
    }
  });

  it('is valid bash (bash -n)', () => {
    expect(scripts.bash).toMatch(/^# bash completion for kagent \d+\.\d+\.\d+, generated from its command tree/);
    const r = run('bash', ['-n'], scripts.bash);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('completes groups, subcommands, flags, choices and files on typed command lines', () => {
    const harness = [
      `source ${JSON.stringify(join(dir, 'kagent.bash'))}`,
      'comp() { COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=(); _kagent; echo "${COMPREPLY[*]}"; }',
      ...BASH_CASES.map(([words]) => `comp ${words.map((w) => `'${w}'`).join(' ')}`),
    ].join('\n');
    const r = run('bash', ['-c', harness]);
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n').slice(0, BASH_CASES.length)).toEqual(BASH_CASES.map(([, expected]) => expected));
  });

  it('registers for kagent', () => {
    const r = run('bash', ['-c', `source ${JSON.stringify(join(dir, 'kagent.bash'))}; complete -p kagent`]);
    expect(r.stdout.trim()).toBe('complete -F _kagent kagent');
  });

  it('covers every command of every group module and each of its flags', () => {
    const words = new Map<string, string>();
    for (const match of scripts.bash!.matchAll(/^ {4}'([^']*)'\) REPLY='([^']*)'; REPLY2='([^']*)' ;;$/gm))
      words.set(match[1]!, `${match[2]} | ${match[3]}`);
    // one per group of the root help, in its order (a group whose module is missing is still completed by name)
    expect(specs.map((spec) => spec.name)).toEqual(groups.map((group) => group.name));
    expect(specs.find((spec) => spec.name === 'doc')?.commands?.length).toBe(10);
    for (const [path, spec] of paths()) {
      const entry = words.get(path);
      expect(entry, path).toBeDefined();
      const [subs, flags] = entry!.split(' | ') as [string, string];
      for (const sub of (spec.commands ?? []).filter((command) => !command.hidden))
        expect(subs.split(' '), path).toContain(sub.name);
      for (const option of spec.options ?? []) {
        const long = /--[\w-]+/.exec(option.flags)?.[0];
        if (long && !option.hidden) expect(flags.split(' '), `${path} ${long}`).toContain(long);
      }
      for (const alias of spec.aliases ?? [])
        expect(scripts.bash).toContain(`'${path.split('/').slice(0, -1).join('/')}/${alias}') REPLY='${path}'`);
    }
  });
});

describe('zsh', () => {
  it('is valid zsh (zsh -n)', () => {
    expect(scripts.zsh!.startsWith('#compdef kagent\n')).toBe(true);
    const r = run('zsh', ['-n', join(dir, 'kagent.zsh')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('offers subcommands and flags with descriptions, choices and files', () => {
    const harness = [
      'compdef() { :; }',
      `source ${JSON.stringify(join(dir, 'kagent.zsh'))}`,
      '_describe() { local -a items; items=("${(@P)4}"); print -r -- "describe ${(j:|:)items}"; }',
      'compadd() { shift; print -r -- "compadd $*"; }',
      '_files() { print -r -- "files"; }',
      't() { words=("$@"); CURRENT=${#words}; _kagent; }',
      "t kagent ''",
      "t kagent doc ''",
      't kagent doc edit dc_1 --rep',
      "t kagent --lang ''",
      "t kagent completion ''",
      't kagent doc create --file x',
      "t kagent lib upload ''",
    ].join('\n');
    const r = run('zsh', ['-c', harness]);
    expect(r.stderr).toBe('');
    const [groupsLine, docLine, flagsLine, lang, shells, file, upload] = r.stdout.trimEnd().split('\n');
    expect(groupsLine).toContain('describe auth:Log in with an API key');
    expect(groupsLine).toContain('|doc:Documents: list, show, write, edit, pull and push|');
    expect(docLine).toContain('|ls:alias of list|');
    expect(docLine).toContain('|edit:Change a document with exact-match edits, or in $EDITOR|');
    expect(flagsLine).toContain('--replace:text to replace, matching exactly once');
    expect(flagsLine).toContain('|--json:');
    expect(lang).toBe('compadd zh en');
    expect(shells).toBe('compadd bash zsh fish');
    expect(file).toBe('files');
    expect(upload).toBe('files');
  });
});

describe('fish', () => {
  it('is valid fish (fish -n)', () => {
    const r = run('fish', ['-n', join(dir, 'kagent.fish')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('completes with descriptions, choices and files', () => {
    const lines = [
      'kagent ',
      'kagent doc ',
      'kagent doc edit dc_1 --rep',
      'kagent --lang ',
      'kagent -p work doc cr',
      'kagent completion ',
      'kagent api GET /media/',
      `kagent doc create --file ${join(dir, 'kagent.b')}`,
    ];
    const harness = [
      `source ${JSON.stringify(join(dir, 'kagent.fish'))}`,
      ...lines.map((line) => `complete -C ${JSON.stringify(line)} | string join '|'`),
    ].join('\n');
    const r = run('fish', ['-c', harness]);
    expect(r.stderr).toBe('');
    const [all, doc, flags, lang, create, shells, api, file] = r.stdout.trimEnd().split('\n');
    expect(all).toContain('doc\tDocuments: list, show, write, edit, pull and push');
    expect(all).toContain('media\tTranscribe videos and podcasts and read the transcripts');
    expect(doc).toContain('edit\tChange a document with exact-match edits, or in $EDITOR');
    expect(flags).toBe('--replace\ttext to replace, matching exactly once (repeatable; pair each with --with)');
    expect(
      lang!
        .split('|')
        .map((item) => item.split('\t')[0])
        .sort(),
    ).toEqual(['en', 'zh']);
    expect(create).toContain('create\t');
    expect(shells!.split('|').sort()).toEqual(['bash', 'fish', 'zsh']);
    expect(api).toBe('/media/quote');
    expect(file).toBe(join(dir, 'kagent.bash'));
  });
});

describe('kagent completion', () => {
  it('needs no login or network, and refuses an unknown shell (exit 2)', async () => {
    const r = await runCli(['completion', 'bash'], { env: { KAGENT_BASE_URL: undefined, KAGENT_API_KEY: undefined } });
    expect(r.code).toBe(0);
    const bad = await runCli(['completion', 'powershell']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('error: unknown shell "powershell" (USAGE)\nhint: shells: bash, zsh, fish');
    expect((await runCli(['completion'])).code).toBe(2);
  });

  it('--help says how to install each script', async () => {
    const r = await runCli(['completion', '--help']);
    expect(r.stdout).toContain('eval "$(kagent completion bash)"');
    expect(r.stdout).toContain('kagent completion fish > ~/.config/fish/completions/kagent.fish');
  });
});

// ---------------------------------------------------------------- completions/ (the packaged loaders)

describe('completions/ loaders, with the built binary as `kagent` on PATH', () => {
  const bin = join(dir, 'bin');
  beforeAll(() => {
    if (!existsSync(join(root, 'dist', 'cli.js')))
      spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
    mkdirSync(bin, { recursive: true });
    writeFileSync(
      join(bin, 'kagent'),
      `#!/bin/sh\nexec ${JSON.stringify(testNode)} ${JSON.stringify(join(root, 'bin', 'kagent.js'))} "$@"\n`,
    );
    chmodSync(join(bin, 'kagent'), 0o755);
  }, 60_000);
  const env = () => ({ PATH: `${bin}:${process.env.PATH}`, KAGENT_CONFIG_DIR: join(dir, 'config') });

  it('kagent.bash loads the generated script and completes', () => {
    expect(run('bash', ['-n', join(root, 'completions', 'kagent.bash')]).code).toBe(0);
    const harness = `source ${JSON.stringify(join(root, 'completions', 'kagent.bash'))}; COMP_WORDS=(kagent media ''); COMP_CWORD=2; _kagent; echo "\${COMPREPLY[*]}"`;
    const r = run('bash', ['-c', harness], undefined, env());
    expect(r.stdout.trim()).toBe('quote start list show transcript');
  });

  it('_kagent (zsh, autoloaded from $fpath) replaces itself with the generated function and runs it', () => {
    expect(run('zsh', ['-n', join(root, 'completions', '_kagent')]).code).toBe(0);
    const harness = [
      `fpath=(${JSON.stringify(join(root, 'completions'))} $fpath)`,
      'autoload -U _kagent',
      '_describe() { local -a items; items=("${(@P)4}"); print -r -- "${(j: :)${items[@]%%:*}}"; }',
      "words=(kagent media ''); CURRENT=3",
      '_kagent',
    ].join('\n');
    const r = run('zsh', ['-c', harness], undefined, env());
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('quote start list ls show view transcript');
  });

  it('kagent.fish loads the generated script and completes', () => {
    expect(run('fish', ['-n', join(root, 'completions', 'kagent.fish')]).code).toBe(0);
    const r = run(
      'fish',
      [
        '-c',
        `source ${JSON.stringify(join(root, 'completions', 'kagent.fish'))}; complete -C 'kagent media ' | string split -f1 \\t | string join ' '`,
      ],
      undefined,
      env(),
    );
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split(' ').sort()).toEqual(['list', 'ls', 'quote', 'show', 'start', 'transcript', 'view']);
  });
});
