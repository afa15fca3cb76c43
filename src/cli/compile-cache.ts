// Node's module compile cache (Node 22.1 and later): V8 keeps the compiled code
// of every module kagent loads (each chunk of the bundle) in
// `<cache dir>/compile-cache`, and the next run starts from it instead of
// parsing and compiling again. Node checks each entry against its own version
// and the file's content, so another Node or a new kagent just compiles afresh.
// Node 20 has no such cache: there modules are compiled on every run.
import nodeModule from 'node:module';
import { join } from 'node:path';
import { defaultCacheDir } from '../config/cache-dir.js';

interface CompileCacheApi {
  enableCompileCache?: (dir?: string) => { status: number; message?: string; directory?: string };
  constants?: { compileCacheStatus?: { ENABLED: number; ALREADY_ENABLED: number } };
}

const api = nodeModule as unknown as CompileCacheApi;

/** Whether this Node has the module compile cache (22.1+). */
export const hasCompileCache = typeof api.enableCompileCache === 'function';

export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(defaultCacheDir(env), 'compile-cache');
}

/**
 * Turns the compile cache on for every module loaded from now on. Never fails a
 * command: an unwritable directory (or NODE_DISABLE_COMPILE_CACHE=1) only means
 * modules are compiled as usual. Answers whether the cache is on.
 */
export function enableCompileCache(env: NodeJS.ProcessEnv = process.env): boolean {
  if (!hasCompileCache) return false;
  try {
    const { status } = api.enableCompileCache!(compileCacheDir(env));
    const statuses = api.constants?.compileCacheStatus;
    return status === statuses?.ENABLED || status === statuses?.ALREADY_ENABLED;
  } catch {
    return false;
  }
}
