// The doctor's report: --json as it is; on a terminal one line per check with
// ✓ / ! / ✗ and the details of a problem under it; piped `status<TAB>check<TAB>text`
// lines (details as `-<TAB>check<TAB>text`).
import type { Context } from '../context.js';
import type { Formatter } from '../io/format.js';
import { printBody } from '../io/outcome.js';
import { sanitizeLine } from '../io/sanitize.js';
import type { DoctorReport, Status } from './run.js';

function markOf(status: Status, f: Formatter): string {
  if (status === 'ok') return f.green('✓');
  if (status === 'warn') return f.yellow('!');
  return f.red('✗');
}

export async function printDoctorReport(
  ctx: Pick<Context, 'io' | 'flags' | 'clock' | 'serviceClock'>,
  report: DoctorReport,
): Promise<void> {
  await printBody(ctx, report, { terminal: terminalReport, piped: pipedReport });
}

/** The config's details (where each value came from) are always worth seeing; others only when something is wrong. */
function detailsOf(check: DoctorReport['checks'][number]): string[] {
  return check.status !== 'ok' || check.name === 'config' ? check.details : [];
}

function pipedReport(report: DoctorReport): string {
  const lines: string[] = [];
  for (const check of report.checks) {
    lines.push(`${check.status}\t${check.name}\t${sanitizeLine(check.summary)}`);
    for (const detail of detailsOf(check)) lines.push(`-\t${check.name}\t${sanitizeLine(detail)}`);
  }
  return `${lines.join('\n')}\n`;
}

function terminalReport(report: DoctorReport, f: Formatter): string {
  const lines: string[] = [];
  for (const check of report.checks) {
    const mark = markOf(check.status, f);
    // Wrapped to the terminal at word boundaries, under the summary and under the detail text.
    lines.push(f.wrap(`${mark} ${f.bold(check.name.padEnd(10))} ${sanitizeLine(check.summary)}`, { hanging: 13 }));
    for (const detail of detailsOf(check))
      lines.push(f.wrap(`    ${f.dim('·')} ${sanitizeLine(detail)}`, { hanging: 6 }));
  }
  const problems = report.checks.filter((c) => c.status === 'fail').length;
  lines.push(
    '',
    problems === 0 ? f.green('No problems found.') : f.red(`${problems} problem${problems === 1 ? '' : 's'} found.`),
  );
  return `${lines.join('\n')}\n`;
}
