// Types of test/bench/timing.mjs, for the tests that use it.
export function benchEnv(extra?: Record<string, string>): NodeJS.ProcessEnv;
export interface Run {
  ms: number;
  code: number | null;
  stdout: string;
  stderr: string;
}
export function runOnce(argv: string[], env?: Record<string, string> | (() => Record<string, string>)): Promise<Run>;
export function median(values: number[]): number;
