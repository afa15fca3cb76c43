// The built binary on real pseudo-terminals (`script` for widths, tmux for the
// pager): at 40, 60, 80 and 120 columns, with long titles, CJK and emoji, no
// line is wider than the terminal (tables, rendered Markdown, briefs); the
// pager is started on a terminal and not when piped; with `less -FRX`, quitting
// early ends kagent with exit 0 and Ctrl-C leaves the terminal as it was.
// `script`, tmux and less are installed by .ci/run; a missing one fails here.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/io/width.js';
import { kagentCommandLine, plain, root, runInPty } from '../helpers/binary.js';
import { inCleanEnvironment } from '../helpers/tmux.js';
import { binaryAgainstSandbox, type BinarySandbox } from '../helpers/binary-sandbox.js';
import type { TestSandbox } from '../helpers/sandbox.js';

const WIDTHS = [40, 60, 80, 120];
const TMUX = `kagent-test-${process.pid}`;

let s: BinarySandbox;
let t: TestSandbox;
let home: string;
let longDoc: string;
let env: Record<string, string>;

const longTitle =
  '🚀 Launch plan ✅ ready ⚠️ 研究项目：人工智能与知识管理的长期研究计划 and a rather long English tail';
const markdown = [
  '# 研究笔记 Research notes 📚',
  '',
  'A paragraph long enough to wrap at every width we test, with **bold words**, `code spans` and a link to [the plan](https://example.com/plans/2026/research-notes) in the middle of it.',
  '',
  '中文段落：这是一个很长的中文段落，用来测试换行是否正确处理宽字符，不会超出终端宽度。我们继续写更多的文字来确保它会换行，并且包含emoji 🚀✅⚠️。',
  '',
  '- a list item with enough words to wrap at forty columns and at sixty columns too',
  '  - a nested item that also goes on for quite a while before it ends',
  '1. numbered item: 列表项也需要正确换行，不能超出终端的宽度，也不能在英文单词中间断开',
  '',
  '> A quotation that runs over more than one line on a narrow terminal, as quotations do.',
  '',
  'See https://example.com/short for the details.',
].join('\n');

function tool(name: string, args: string[]): void {
  const found = spawnSync(name, args).status === 0;
  if (!found) throw new Error(`${name} is needed by these tests (.ci/run installs it)`);
}

beforeAll(async () => {
  tool('script', ['--version']);
  tool('tmux', ['-V']);
  tool('less', ['--version']);
  s = await binaryAgainstSandbox('kagent-tty-');
  ({ t, home, env } = s);
  for (const name of [
    longTitle.slice(0, 70),
    '研究项目 🚀 长名字的空间用于测试表格宽度',
    'Émigré café naïve façade ✅',
  ]) {
    await t.call('POST', '/spaces', {
      body: { name, description: `${name} — a description that goes on and on 中文描述` },
    });
  }
  longDoc = (
    await t.call('POST', '/docs', {
      body: { title: longTitle, markdown: Array.from({ length: 6 }, () => markdown).join('\n\n') },
    })
  ).body.id;
  await t.call('POST', '/docs', { body: { title: '短标题 ✅', markdown: 'x' } });
  for (const slug of ['china-ev', 'ai-chips'])
    expect((await t.call('PUT', `/watches/${slug}/follow`, { body: {} })).status).toBeLessThan(300);
}, 60_000);
afterAll(async () => {
  spawnSync('tmux', ['-L', TMUX, 'kill-server']);
  await s?.close();
});

/**
 * Lines of what the terminal showed that are wider than `width` (escape sequences
 * removed). A URL longer than the line is the one thing allowed to be: it is never split.
 */
function tooWide(output: string, width: number): string[] {
  return plain(output)
    .split('\n')
    .filter((line) => displayWidth(line) > width && !/^\s*(→\s*)?\(?https?:\/\/\S+$/.test(line.trim()));
}

describe('nothing wider than the terminal', () => {
  const commands: Array<[string, string[], RegExp]> = [
    ['space list', ['space', 'list'], /研究项目/],
    ['doc list', ['doc', 'list'], /短标题/],
    ['doc show (Markdown: paragraphs, CJK, lists, quotes, links)', [], /numbered item/],
    ['watch list', ['watch', 'list'], /china-ev/],
    ['watch show (a brief in Chinese)', ['watch', 'show', 'china-ev'], /china-ev|中国|新能源/],
    ['watch show (a brief in English)', ['watch', 'show', 'ai-chips'], /Evidence|ai-chips/],
    ['doctor (each check wrapped under its summary)', ['doctor'], /No problems found/],
  ];
  for (const width of WIDTHS) {
    it(`at ${width} columns`, async () => {
      for (const [name, args, expected] of commands) {
        const run = await runInPty(args.length ? args : ['doc', 'show', longDoc], {
          env: { ...env, KAGENT_PAGER: 'cat' },
          cols: width,
          rows: 50,
        });
        expect(run.code, `${name}: ${plain(run.output).slice(0, 400)}`).toBe(0);
        expect(plain(run.output), name).toMatch(expected);
        const wide = tooWide(run.output, width);
        expect(wide, `${name} at ${width} columns:\n${wide.join('\n')}`).toEqual([]);
      }
    }, 60_000);
  }

  it('`watch list` keeps its header on one line at 80 columns, and ids whole at 40', async () => {
    const at80 = plain((await runInPty(['watch', 'list'], { env, cols: 80 })).output).split('\n');
    expect(at80[0]).toMatch(/^SLUG +TITLE/);
    expect(at80.filter((line) => /^china-ev\b/.test(line))).toHaveLength(1);
    const at40 = plain((await runInPty(['space', 'list'], { env, cols: 40 })).output);
    const ids = (await t.call('GET', '/spaces')).body.items.map((space: { id: string }) => space.id);
    for (const id of ids) expect(at40).toContain(id);
  });

  it('Markdown words are never split across lines (Latin), URLs stay whole', async () => {
    const run = await runInPty(['doc', 'show', longDoc], { env: { ...env, KAGENT_PAGER: 'cat' }, cols: 60, rows: 50 });
    const text = plain(run.output);
    expect(text).toContain('https://example.com/plans/2026/research-notes');
    const words = new Set(markdown.match(/[A-Za-z]+/g));
    // The body: from the rendered first heading on.
    const body = text.split('\n').slice(text.split('\n').findIndex((line) => line.includes('研究笔记')));
    expect(body.length).toBeGreaterThan(20);
    for (const line of body) {
      // The first and last words on every line are whole words of the source.
      for (const edge of [
        line.match(/^\s*(?:[*>\d.]+\s+)?([A-Za-z]+)/)?.[1],
        line.match(/([A-Za-z]+)[^A-Za-z\s]*$/)?.[1],
      ]) {
        if (edge) expect(words, `"${edge}" at the edge of: ${line}`).toContain(edge);
      }
    }
  });
});

describe('Markdown in the built binary', () => {
  it('turns :rocket: into 🚀 (the shortcode table loads on demand) and prints code blocks without a highlighter', async () => {
    const doc = (
      await t.call('POST', '/docs', {
        body: { title: 'Launch', markdown: ':rocket: launch day\n\n```js\nconst answer = 42;\n```\n' },
      })
    ).body.id;
    const run = await runInPty(['doc', 'show', doc], { env: { ...env, KAGENT_PAGER: 'cat' }, cols: 80 });
    expect(run.code).toBe(0);
    expect(plain(run.output)).toMatch(/🚀 +launch day/);
    expect(run.output).toContain('\x1b[33mconst answer = 42;\x1b[39m');
    // Neither highlight.js nor the emoji table is in the chunks every rendering loads.
    const chunks = spawnSync('grep', ['-l', 'hljs', '-r', join(root, 'dist')]).stdout.toString();
    expect(chunks).toBe('');
  });
});

describe('the pager on a real terminal', () => {
  let recorder: string;
  let log: string;
  beforeAll(() => {
    recorder = join(home, 'recorder.sh');
    log = join(home, 'pager.log');
    writeFileSync(
      recorder,
      `#!/bin/sh\n[ -t 1 ] && echo "start tty" >> "$PAGER_LOG" || echo "start notty" >> "$PAGER_LOG"\ncat\n`,
    );
    chmodSync(recorder, 0o755);
  });

  it('is started for long output on a terminal, writing to the terminal itself', async () => {
    rmSync(log, { force: true });
    const run = await runInPty(['doc', 'show', longDoc], {
      env: { ...env, KAGENT_PAGER: recorder, PAGER_LOG: log },
      cols: 80,
      rows: 24,
    });
    expect(run.code).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('start tty\n');
    expect(plain(run.output)).toContain('numbered item');
  });

  it('is not started when stdout is piped, even on a terminal', async () => {
    rmSync(log, { force: true });
    const run = await runInPty([], {
      env: { ...env, KAGENT_PAGER: recorder, PAGER_LOG: log },
      cols: 80,
      rows: 24,
      shell: `eval "$KAGENT doc show ${longDoc}" | cat`,
    });
    expect(run.code).toBe(0);
    expect(plain(run.output)).toContain('numbered item');
    expect(existsSync(log)).toBe(false);
  });

  /** Runs kagent in a tmux window of 80 × 24 with `less -FRX`; `keys` are sent once less shows; resolves with kagent's exit code and `stty -a` after it. */
  async function inTmux(args: string[], keys: string[][]): Promise<{ code: string; stty: string; screen: string }> {
    const out = join(home, `tmux-${Date.now()}`);
    // The shell around kagent outlives a Ctrl-C (a handler, not an ignore, so kagent and less still get it).
    // \$?: kagent's status, read by the inner shell (the outer one would expand a bare $? to its own).
    const line = `trap true INT; ${kagentCommandLine(args)}; echo \\$? > ${out}.code; stty -a > ${out}.stty; sleep 60`;
    const started = spawnSync('tmux', [
      '-L',
      TMUX,
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-x',
      '80',
      '-y',
      '24',
      '-c',
      root,
      inCleanEnvironment({ ...env, KAGENT_PAGER: 'less -FRX' }, line),
    ]);
    expect(started.status, String(started.stderr)).toBe(0);
    const screen = () => String(spawnSync('tmux', ['-L', TMUX, 'capture-pane', '-p']).stdout);
    const until = async (done: () => boolean, what: string) => {
      for (let i = 0; i < 150 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      if (!done()) throw new Error(`timed out waiting for ${what}; screen:\n${screen()}`);
    };
    // less shows the first screenful and waits, its prompt (":") on the last line.
    await until(() => /^:\s*$/m.test(screen().trimEnd().split('\n').pop() ?? ''), 'less');
    const shown = screen();
    for (const key of keys) {
      spawnSync('tmux', ['-L', TMUX, 'send-keys', ...key]);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    await until(() => existsSync(`${out}.stty`) && readFileSync(`${out}.stty`, 'utf8').length > 0, 'kagent to end');
    const result = {
      code: readFileSync(`${out}.code`, 'utf8').trim(),
      stty: readFileSync(`${out}.stty`, 'utf8'),
      screen: shown,
    };
    spawnSync('tmux', ['-L', TMUX, 'kill-server']);
    return result;
  }

  it('with less -FRX in tmux: quitting early (q) ends kagent with exit 0 and the terminal sane', async () => {
    const run = await inTmux(['doc', 'show', longDoc], [['q']]);
    expect(run.screen).toContain('研究笔记');
    expect(run.code).toBe('0');
    expect(run.stty).toMatch(/(^|\s)icanon(\s|$)/m);
    expect(run.stty).toMatch(/(^|\s)echo(\s|$)/m);
  }, 30_000);

  it('with less -FRX in tmux: Ctrl-C (twice) leaves the pager in charge; q then ends kagent with exit 0, the terminal sane', async () => {
    const run = await inTmux(['doc', 'show', longDoc], [['C-c'], ['C-c'], ['q']]);
    expect(run.code).toBe('0');
    expect(run.stty).toMatch(/(^|\s)icanon(\s|$)/m);
    expect(run.stty).toMatch(/(^|\s)echo(\s|$)/m);
  }, 30_000);
});
