// kagent doctor: will kagent work here? Config and where each value came from,
// DNS, proxy, the service reachable (TLS), the key accepted, clock skew, the
// rate-limit budget, and the service's OpenAPI description against the shapes
// kagent assumes. Exit 0 when all is well; 1 with a line per problem.
import { CliError, ExitCode } from '../../src/errors.js';
import { defineGroup } from '../../src/kit/define.js';
import { runDoctor } from '../../src/doctor/run.js';
import { printDoctorReport } from '../../src/doctor/print.js';

export default defineGroup({
  description:
    'Checks, in order: the config and profile in use (and where each value came from); DNS for the base URL; the proxy from ' +
    'HTTPS_PROXY/HTTP_PROXY/NO_PROXY; that the service answers (over TLS for https) and accepts the key; the clock against the ' +
    "service's Date header; the rate-limit budget; and the service's OpenAPI document (at {base}/openapi.json and the usual " +
    'places, or --spec) compared with the shapes kagent assumes. Exit status 0 when all is well, 1 with a line per problem. ' +
    '--json prints the whole report for CI.',
  options: [
    { flags: '--spec <url-or-file>', description: "the service's OpenAPI document (JSON), instead of looking for it" },
  ],
  examples: [
    'kagent doctor',
    'kagent doctor --json | jq ".checks[] | select(.status != \\"ok\\")"',
    'kagent doctor --spec https://example.com/api/v1/openapi.json',
  ],
  async run(ctx, opts) {
    const report = await runDoctor(ctx, { spec: opts.spec });
    await printDoctorReport(ctx, report);
    const problems = report.checks.filter((c) => c.status === 'fail').length;
    if (problems > 0) {
      throw new CliError(`${problems} problem${problems === 1 ? '' : 's'} found`, {
        exitCode: ExitCode.ERROR,
        code: 'DOCTOR_PROBLEMS',
        hint: 'see the lines marked ✗ (or "fail") above',
      });
    }
  },
});
