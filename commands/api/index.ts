// `kagent api METHOD PATH`: any request to the API with the profile's
// credentials; the request is read and sent by src/raw-api/.
import { defineGroup } from '../../src/kit/define.js';
import { idempotencyKeyOption } from '../../src/kit/options.js';
import { sendRawRequest } from '../../src/raw-api/send.js';

export default defineGroup({
  description: [
    'Sends METHOD PATH (relative to the base URL: /me, docs/doc_8f2k3xq9mz, /api/v1/media?limit=5) with your API key, and prints the JSON answer: pretty on a terminal, compact when piped, filtered by --jq. ' +
      'The method is -X/--method, or the METHOD before PATH; without either it is POST when fields (-f, -F) or --input give a body, else GET, as with `gh api`. Errors exit like every command (404 → 4, 409 → 5, …) with `error: <message> (<CODE>)` on stderr.',
    'Fields build the JSON body: -f key=value sends a string, -F key=value a typed value (numbers, true, false, null; @file or @- reads a file or stdin as a string). ' +
      '`key[]=value` appends to a list, `key[sub]=value` nests. With fields and no method the request is a POST; for GET, DELETE and HEAD (-X GET), and whenever --input gives the body, fields become query parameters instead.',
    '--paginate follows nextCursor for a GET that answers {items, nextCursor} and prints every item as one JSON array. ' +
      '-i prints the status line and headers first (also for an error answer, with its body). ' +
      'Create-style operations (POST /docs, /media, /spaces, …) get a random Idempotency-Key unless you give one (--idempotency-key or -H), so retries never do the work twice. ' +
      'The published description, GET /openapi.json, needs no key: it is fetched even when none is configured.',
  ].join('\n\n'),
  arguments: [
    {
      name: 'method',
      description:
        'GET, POST, PUT, PATCH, DELETE, HEAD or OPTIONS (or the PATH alone: then -X, else POST with fields, else GET)',
    },
    { name: 'path', description: 'the path under the base URL, with a query string if you like', optional: true },
  ],
  options: [
    { flags: '-X, --method <method>', description: 'the HTTP method (default: POST with fields or --input, else GET)' },
    { flags: '-f, --raw-field <key=value>', description: 'a string field (repeatable)', repeatable: true },
    {
      flags: '-F, --field <key=value>',
      description: 'a typed field: number, true, false, null, or @file (repeatable)',
      repeatable: true,
    },
    { flags: '-H, --header <header>', description: 'an extra header, "Name: value" (repeatable)', repeatable: true },
    { flags: '--input <file>', description: 'the JSON body from this file, or - for stdin' },
    { flags: '--paginate', description: 'GET every page (following nextCursor) and print all items as one JSON array' },
    idempotencyKeyOption('sent as Idempotency-Key; reruns within 24 h return the first result', 'api'),
    { flags: '-i, --include', description: 'print the status line and response headers before the body' },
  ],
  examples: [
    'kagent api /me',
    'kagent api GET /docs -F limit=5 --jq ".items[].title"',
    '# fields without a method make a POST, as with gh api',
    'kagent api /spaces -f name=Research',
    'kagent api -X GET /docs/search -f q=battery',
    'kagent api POST /docs -f title="Notes" -f markdown="# Notes"',
    'kagent api POST /watches -f intent="Rust releases" -f type=sources -f "urls[]=https://blog.rust-lang.org/"',
    'kagent api PATCH /docs/doc_8f2k3xq9mz --input patch.json',
    'kagent api GET /library --paginate --jq "length"',
    'kagent api -i DELETE /docs/doc_8f2k3xq9mz',
  ],
  run: (ctx, opts, args) => sendRawRequest(ctx, opts, args),
});
