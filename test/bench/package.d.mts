// Types of test/bench/package.mjs, for the tests that use it.
export function installedPackages(nodeModules: string): string[];
export function folderBytes(dir: string): number;
export interface Installed {
  dir: string;
  home: string;
  env: NodeJS.ProcessEnv;
  tarball: string;
  /** What `npm pack --json` reported for the tarball. */
  packed: {
    filename: string;
    size: number;
    unpackedSize: number;
    entryCount: number;
    files: Array<{ path: string; size: number }>;
  };
  prefix: string;
  bin: string;
  manDir: string;
  packageDir: string;
  installStderr: string;
  installMs: number;
  packages: string[];
  bytes: number;
  remove(): void;
}
export interface Packed {
  dir: string;
  /** The clean copy of the repository that was packed (dist/ built in it). */
  copy: string;
  home: string;
  env: NodeJS.ProcessEnv;
  tarball: string;
  packed: Installed['packed'];
  remove(): void;
}
export function pack(env?: Record<string, string>): Packed;
export function packAndInstall(): Installed;
