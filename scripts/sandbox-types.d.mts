// Types of scripts/sandbox-types.mjs, for test/unit/sandbox-types.test.ts.
export const TYPES_FILE: string;
export function sandboxTypes(source?: string): Promise<string>;
export function writeSandboxTypes(options?: { check?: boolean }): Promise<boolean>;
