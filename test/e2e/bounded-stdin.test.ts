// 600 MB piped into the built binary: each input that reads stdin is refused
// once its bound is passed (exit 2, the bound named), and the kagent process
// stays small — its peak RSS, reported by the process itself at exit, is a
// fraction of what reading everything took (1.24 GB before).
import { spawn } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { bin, ensureBuilt, root } from '../helpers/binary.js';
import { tempDir } from '../helpers/run.js';

// Loaded into the kagent process with --import: says its peak RSS on stderr as it exits.
const REPORT_RSS = `data:text/javascript,${encodeURIComponent('import { writeSync } from "node:fs"; process.on("exit", () => writeSync(2, "\\nmaxrss-kb=" + process.resourceUsage().maxRSS + "\\n"));')}`;
// Writes 600 MB of text to stdout in 1 MiB chunks, as fast as the reader takes it.
const GENERATOR =
  'const c = Buffer.alloc(1 << 20, 97); let n = 0; const go = () => { while (n < 600) { n++; if (!process.stdout.write(c)) return process.stdout.once("drain", go); } }; process.stdout.on("error", () => process.exit(0)); go();';

async function pipe600MB(args: string[]): Promise<{ code: number | null; stderr: string; maxRssMb: number }> {
  const generator = spawn(process.execPath, ['-e', GENERATOR], { stdio: ['ignore', 'pipe', 'inherit'] });
  const configDir = tempDir('kagent-config-');
  const kagent = spawn(process.execPath, ['--import', REPORT_RSS, bin, ...args], {
    cwd: root,
    // Nothing listens on port 9: had kagent tried to send, it would fail with exit 7, not 2.
    env: {
      PATH: process.env.PATH,
      HOME: configDir,
      KAGENT_CONFIG_DIR: configDir,
      KAGENT_API_KEY: 'ka_test_bounded',
      KAGENT_BASE_URL: 'http://127.0.0.1:9/api/v1',
      NO_COLOR: '1',
    },
    stdio: [generator.stdout, 'ignore', 'pipe'],
  });
  let stderr = '';
  kagent.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => kagent.on('close', resolve));
  generator.kill();
  const rss = /maxrss-kb=(\d+)/.exec(stderr);
  return { code, stderr, maxRssMb: rss ? Number(rss[1]) / 1024 : Infinity };
}

beforeAll(() => ensureBuilt());

describe('600 MB on stdin', () => {
  it.each([
    ['doc create --file -', ['doc', 'create', '--title', 'Big', '--file', '-'], 'more than 500,000 characters'],
    ['doc edit --ops -', ['doc', 'edit', 'dc_x', '--ops', '-'], 'more than 8,388,608 bytes'],
    ['agent memory --file -', ['agent', 'memory', '--file', '-'], 'more than 20,000 characters'],
    ['api --input -', ['api', 'POST', '/docs', '--input', '-'], 'more than 16,777,216 bytes'],
  ])(
    '%s is refused with exit 2 and flat memory',
    async (_name, args, bound) => {
      const r = await pipe600MB(args);
      expect(r.stderr).toContain(bound);
      expect(r.code).toBe(2);
      // Measured 52–69 MB (Node 20): Node itself is about 45 MB; the 16 MiB cap of `api --input` is the largest buffer.
      expect(r.maxRssMb).toBeLessThan(100);
    },
    60_000,
  );
});
