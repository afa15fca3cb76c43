// What the GitHub Actions runner would do with a step's output: the workflow
// commands it would act on, lines between `::stop-commands::TOKEN` and
// `::TOKEN::` aside (as the runner reads them: a line's leading blanks trimmed),
// and the legacy form, `##[command]` anywhere in a line.
export function commandsRun(output: string): string[] {
  const run: string[] = [];
  let stoppedBy: string | undefined;
  for (const line of output.split('\n')) {
    const trimmed = line.trimStart();
    if (stoppedBy !== undefined) {
      if (trimmed === `::${stoppedBy}::`) stoppedBy = undefined;
      continue;
    }
    if (trimmed.includes('##[')) {
      run.push(trimmed.slice(trimmed.indexOf('##[')));
      continue;
    }
    if (!trimmed.startsWith('::')) continue;
    const stop = /^::stop-commands::(.+)$/.exec(trimmed);
    if (stop) stoppedBy = stop[1];
    else run.push(trimmed);
  }
  return run;
}

/** The output with kagent's frames (`::stop-commands::TOKEN`, `::TOKEN::`) taken out. */
export function withoutFrames(output: string): string {
  const token = /::stop-commands::([0-9a-f]{32})\n/.exec(output)?.[1];
  if (token === undefined) return output;
  return output.split(`::stop-commands::${token}\n`).join('').split(`::${token}::\n`).join('');
}
