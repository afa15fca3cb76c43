// Hints are copyable: an id, name or path that a hint embeds is shell-quoted
// (one helper, kagentCommand / suggest), whatever the service or the user gave.
import { afterEach, describe, expect, it } from 'vitest';
import { commandLine, kagentCommand } from '../../src/io/command-line.js';
import { runCli } from '../helpers/run.js';
import { tinyServer, type TinyServer } from '../helpers/tiny-server.js';

const flags = (more: Record<string, unknown> = {}) =>
  ({
    flags: { json: false, color: false, input: true, yes: false, quiet: false, debug: false, insecure: false, ...more },
  }) as never;

describe('the one helper', () => {
  it('quotes every value and leaves plain words alone', () => {
    expect(kagentCommand(flags(), 'conversation show', 'commodo ut consequat elit', '--follow')).toBe(
      "kagent conversation show 'commodo ut consequat elit' --follow",
    );
    expect(kagentCommand(flags(), 'doc show', "it's; rm -rf ~")).toBe("kagent doc show 'it'\\''s; rm -rf ~'");
    expect(kagentCommand(flags(), 'task show', 'tk_123')).toBe('kagent task show tk_123');
    expect(kagentCommand(flags({ profile: 'my work' }), 'me')).toBe("kagent -p 'my work' me");
    expect(commandLine('doc push', 'notes/my notes.md')).toBe("kagent doc push 'notes/my notes.md'");
  });
});

describe('hints with values the service sent', () => {
  let server: TinyServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const env = () => ({ KAGENT_BASE_URL: server!.baseUrl, KAGENT_API_KEY: 'kak_tinyserverkey0001' });

  it('chat --no-wait: the command that reads the reply quotes a conversation id with spaces', async () => {
    server = await tinyServer(() => ({
      status: 202,
      body: { conversationId: 'commodo ut consequat elit', messageId: 'msg 2', userMessageId: 'msg 1' },
    }));
    // On a terminal, where the footer is shown.
    const r = await runCli(['chat', '--no-wait', 'hello'], { env: env(), tty: true, columns: 200 });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("kagent conversation show 'commodo ut consequat elit' --follow");
  });

  it('doc create: "read it" quotes an id with shell characters', async () => {
    server = await tinyServer(() => ({ status: 201, body: { id: 'doc $(id)', revision: 1 } }));
    const r = await runCli(['doc', 'create', '--title', 'T', '--body', 'x'], { env: env(), tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("kagent doc show 'doc $(id)'");
  });

  it('media start --no-wait: the follow hint quotes the media id', async () => {
    server = await tinyServer((req) =>
      req.url?.endsWith('/media/quote')
        ? {
            status: 200,
            body: {
              url: 'https://www.youtube.com/watch?v=x',
              title: 'T',
              kind: 'video',
              durationSec: 60,
              minutes: 1,
              pricePerMinute: 1,
              credits: 1,
            },
          }
        : { status: 202, body: { mediaId: 'md 1', taskId: 'tk 1', credits: 1 } },
    );
    const r = await runCli(['media', 'start', 'https://www.youtube.com/watch?v=x', '--yes', '--no-wait'], {
      env: env(),
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("kagent media show 'md 1' --follow");
  });
});
