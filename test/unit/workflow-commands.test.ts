// The output boundary under GitHub Actions: whatever way a line is cut into
// writes, the runner never takes service text for a workflow command, and
// kagent's own annotations pass as they are.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { guardWorkflowCommands, ownWorkflowCommand } from '../../src/io/workflow-commands.js';
import { commandsRun, withoutFrames } from '../helpers/actions-runner.js';

function capture(env: Record<string, string>): Writable & { text: string } {
  const out = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      out.text += chunk.toString('latin1');
      callback();
    },
  }) as Writable & { text: string };
  out.text = '';
  guardWorkflowCommands(out, env);
  return out;
}

const ACTIONS = { GITHUB_ACTIONS: 'true' };

describe('guardWorkflowCommands', () => {
  it('frames a command line in one write, and keeps the text', () => {
    const out = capture(ACTIONS);
    out.write('intro\n::add-mask::hunter2\nend\n');
    expect(commandsRun(out.text)).toEqual([]);
    expect(withoutFrames(out.text)).toBe('intro\n::add-mask::hunter2\nend\n');
  });

  it('a command cut across writes (blanks, one colon, then the rest) is framed too', () => {
    const out = capture(ACTIONS);
    for (const piece of ['x\n', '  ', ':', ':set-output name=a::b', '\n', ':', ':add-mask::c\n']) out.write(piece);
    expect(commandsRun(out.text)).toEqual([]);
    expect(out.text).toContain('set-output name=a::b');
    expect(out.text).toContain('add-mask::c');
  });

  it('bytes too', () => {
    const out = capture(ACTIONS);
    out.write(Buffer.from('::stop-commands::x\n::error::forged\n'));
    expect(commandsRun(out.text)).toEqual([]);
  });

  it("kagent's own annotation passes as it is; a service line equal to none does not", () => {
    const out = capture(ACTIONS);
    out.write(ownWorkflowCommand('::error file=a.md,title=upload failed::a.md: refused\n'));
    out.write('::error::forged\n');
    expect(commandsRun(out.text)).toEqual(['::error file=a.md,title=upload failed::a.md: refused']);
  });

  it('text without a command, and any text outside Actions, is written unchanged', () => {
    const inside = capture(ACTIONS);
    inside.write('a :: b\n  not::a command\n');
    expect(inside.text).toBe('a :: b\n  not::a command\n');
    const outside = capture({ GITHUB_ACTIONS: 'false' });
    outside.write('::add-mask::x\n');
    expect(outside.text).toBe('::add-mask::x\n');
  });
});
