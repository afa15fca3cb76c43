// A create the service answers without an id a script can use — none, empty, not
// text, or split over two lines. Piped, `id=$(kagent space create Travel)` must not
// get an empty or two-line id with exit 0: the run fails (exit 1, nothing on
// stdout) and says the create took effect. --json prints the answer as it came.
import { afterEach, describe, expect, it } from 'vitest';
import { hostileServer, type HostileServer } from '../helpers/hostile-server.js';
import { runCli } from '../helpers/run.js';

let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const kagent = (argv: string[]) =>
  runCli(argv, { env: { KAGENT_BASE_URL: server?.baseUrl, KAGENT_API_KEY: 'k_test', NO_COLOR: '1' } });

async function answering(body: unknown): Promise<void> {
  server = await hostileServer(() => ({ kind: 'answer', status: 201, body }));
}

describe('a create answered without a usable id', () => {
  it.each([
    ['no id', { name: 'Travel' }, 'none'],
    ['an empty id', { id: '', name: 'Travel' }, '""'],
    ['an id that is a number', { id: 7, name: 'Travel' }, '7'],
    ['an id of two lines', { id: 'sp_1\nsp_2', name: 'Travel' }, '"sp_1\\nsp_2"'],
  ])('space create, %s: exit 1, stdout empty, the create said to have happened', async (_name, body, shown) => {
    await answering(body);
    const r = await kagent(['space', 'create', 'Travel', '--allow-duplicate', '--quiet']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: the service created the space, but its answer has no id kagent can print (${shown}) (UNEXPECTED_ANSWER)\n` +
        'hint: `kagent space list` shows what was created; --json prints the answer as it came\n',
    );
  });

  it('--json prints the answer as it came, exit 0', async () => {
    await answering({ name: 'Travel' });
    const r = await kagent(['space', 'create', 'Travel', '--allow-duplicate', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ name: 'Travel' });
  });

  it('doc create and media start are held to the same', async () => {
    await answering({ revision: 1 });
    const doc = await kagent(['doc', 'create', '--title', 'x', '--body', 'hi', '--quiet']);
    expect(doc.code).toBe(1);
    expect(doc.stdout).toBe('');
    expect(doc.stderr).toMatch(
      /^error: the service created the doc, but its answer has no id kagent can print \(none\)/,
    );
    await server!.close();
    await answering({ mediaId: 'md_1', credits: 3 });
    const media = await kagent(['media', 'start', 'https://v.example/1', '--no-wait', '--yes', '--quiet']);
    expect(media.code).toBe(1);
    expect(media.stdout).toBe('');
    expect(media.stderr).toMatch(/^error: the service created the transcription, but its answer has no taskId/m);
  });
});
