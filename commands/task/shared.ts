// What several `kagent task` verbs share.
import type { TaskDetail } from '../../src/api/shapes.js';

/** The command that opens what a finished task produced. */
/** The command that shows a task's result: its words, then the id (quoted where it is shown). */
export function resultCommand(result: TaskDetail['result']): [string, string] | undefined {
  if (!result) return undefined;
  const verbs: Record<string, string> = {
    watch: 'watch show',
    media: 'media show',
    doc: 'doc show',
    task: 'task show',
  };
  const verb = verbs[result.kind];
  return verb ? [verb, result.id] : undefined;
}

export function percent(progress: number | null | undefined): string {
  return typeof progress === 'number' ? `${Math.round(progress * 100)}%` : '';
}
