// Briefs on real pseudo-terminals (the built binary in `script`) at 40, 80 and
// 200 columns, with and without hyperlinks: each entry's URL is shown once, on
// its arrow line and never apart from the arrow, shortened to fit (linked to
// the whole address where the terminal shows links); no line is wider than the
// terminal; piped, every URL is whole.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/io/width.js';
import { plain, runInPty } from '../helpers/binary.js';
import { binaryAgainstSandbox, type BinarySandbox } from '../helpers/binary-sandbox.js';
import type { TestSandbox } from '../helpers/sandbox.js';

let s: BinarySandbox;
let t: TestSandbox;
let env: Record<string, string>;
let slug: string;
let entries: Array<{ primaryUrl: string; evidence: Array<{ url: string }> }>;

/** `shown` is `url` whole, or shortened: without scheme and `www.`, its middle left out with `…`. */
function showsUrl(shown: string, url: string): boolean {
  const text = shown.trim();
  if (text === url) return true;
  const bare = url.replace(/^https?:\/\//, '').replace(/^www\./, '');
  const [head = '', tail, more] = text.split('…');
  if (more !== undefined || head === '' || !bare.startsWith(head)) return false;
  return tail === undefined ? text === bare : bare.endsWith(tail);
}

beforeAll(async () => {
  if (spawnSync('script', ['--version']).status !== 0) throw new Error('script is needed (.ci/run installs it)');
  s = await binaryAgainstSandbox('kagent-brief-');
  t = s.t;
  env = { ...s.env, KAGENT_PAGER: 'cat' };
  // What `watch create "Rust releases" --type sources --url https://blog.rust-lang.org/` makes.
  const created = await t.call('POST', '/watches', {
    body: { intent: 'Rust releases', type: 'sources', urls: ['https://blog.rust-lang.org/'], visibility: 'private' },
  });
  slug = created.body.slug;
  await t.advance(61_000);
  entries = [...(await t.call('GET', `/watches/${slug}`)).body.brief.entries].sort(
    (a: { position: number }, b: { position: number }) => a.position - b.position,
  );
}, 60_000);
afterAll(() => s?.close());

describe('a brief on a terminal: one URL per entry, beside its arrow, within the width', () => {
  for (const links of [false, true])
    for (const cols of [40, 80, 200])
      it(`${links ? 'with' : 'without'} hyperlinks, ${cols} columns`, async () => {
        const run = await runInPty(['watch', 'show', slug], {
          env: { ...env, FORCE_HYPERLINK: links ? '1' : '0' },
          cols,
          rows: 50,
        });
        expect(run.code, plain(run.output).slice(0, 400)).toBe(0);
        const lines = plain(run.output).split('\n');
        expect(entries.length).toBeGreaterThan(0);
        // Nothing is wider than the terminal, but for a whole URL on its own line where no link can hold it:
        // shortened, it could be neither followed nor copied (the terminal's own wrap keeps it whole).
        const wide = lines.filter(
          (line) => displayWidth(line) > cols && !(!links && /^ +(?:→\u00a0)?https?:\/\/\S+$/u.test(line)),
        );
        expect(wide, `wider than ${cols}:\n${wide.join('\n')}`).toEqual([]);
        // no arrow alone on its line
        for (const line of lines.filter((l) => l.includes('→'))) expect(line).toMatch(/^ {4}→\u00a0\S/u);
        // in position order, each arrow line shows its entry's URL; no other line shows it again
        const arrows = lines.filter((l) => l.includes('→'));
        expect(arrows).toHaveLength(entries.length);
        entries.forEach((entry, i) => {
          const shown = arrows[i]!.replace(/^ {4}→\u00a0/u, '');
          // whole where it is no link; shortened to fit only where it links to the whole address
          if (links) expect(showsUrl(shown, entry.primaryUrl), arrows[i]).toBe(true);
          else expect(shown, arrows[i]).toBe(entry.primaryUrl);
          const again = lines.filter((line) => !line.includes('→') && showsUrl(line, entry.primaryUrl));
          expect(again, entry.primaryUrl).toEqual([]);
        });
        // where links are shown, the arrow's text links to the whole address
        if (links) for (const entry of entries) expect(run.output).toContain(`\x1b]8;;${entry.primaryUrl}\x1b\\`);
        expect(run.output.includes('\x1b]8;;')).toBe(links);
      }, 30_000);

  it('piped into cat: every entry URL whole, once', async () => {
    const run = await runInPty([], { env, cols: 40, shell: `eval "$KAGENT watch show ${slug}" | cat` });
    expect(run.code).toBe(0);
    const out = plain(run.output);
    for (const entry of entries) expect(out.split(entry.primaryUrl)).toHaveLength(2);
  }, 30_000);
});

describe('watch knowledge on a terminal: report links read once, the timeline within the width', () => {
  for (const links of [false, true])
    for (const cols of [40, 80, 200])
      it(`${links ? 'with' : 'without'} hyperlinks, ${cols} columns`, async () => {
        const run = await runInPty(['watch', 'knowledge', 'ai-chips'], {
          env: { ...env, FORCE_HYPERLINK: links ? '1' : '0' },
          cols,
          rows: 50,
        });
        expect(run.code, plain(run.output).slice(0, 400)).toBe(0);
        const out = plain(run.output);
        const [report = '', timeline = ''] = out.split('\nTimeline');
        expect(report).toMatch(/Most important/);
        // a link whose text is its host: never `host (https://…)`, nor `(host (https://…))`
        expect(report).not.toMatch(/[\w.-]+\.[a-z]{2,}\s+\(https?:\/\//);
        expect(report).not.toMatch(/\(\s*\(/);
        const rawReport = run.output.slice(0, run.output.indexOf('Timeline'));
        // where links are shown, the report's links are links (their text the host), no URL as text
        if (links) expect(rawReport).toMatch(/\x1b\]8;;https?:\/\/[^\x1b]+\x1b\\[\w.-]+\.[a-z]{2,}\x1b\]8;;\x1b\\/);
        if (links) expect(report).not.toMatch(/https?:\/\//);
        else expect(report).toMatch(/\(https?:\/\/\S+\)/); // the URL alone, in the report's own parentheses
        // the timeline fits, but for a whole URL on a line of its own where no link holds it; so does the
        // report where links are shown (a URL as text is never split)
        const lines = (links ? out : timeline).split('\n');
        const wide = lines.filter(
          (line) => displayWidth(line) > cols && !(!links && /^ {14}https?:\/\/\S+$/.test(line)),
        );
        expect(wide, `wider than ${cols}:\n${wide.join('\n')}`).toEqual([]);
        expect(timeline.split('\n').filter((line) => /en_\w+/.test(line)).length).toBeGreaterThan(0);
        // a long headline goes on under itself, the URL and entry id under it: nothing back under the date
        const items = timeline.split('\n').slice(1);
        expect(out).not.toContain('Links are shortened');
        for (const line of items.filter((l) => l.trim() !== ''))
          expect(line, `${cols} columns`).toMatch(/^ {2}\d{4}-\d\d-\d\d {2}|^ {14}/);
      }, 30_000);
});
