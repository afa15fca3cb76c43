// The house rules of docs/architecture.md, checked on the sources: which folder
// may import which, no import cycle that runs when modules load, no command
// reaching into another group, and files small enough to read (a function's
// complexity is eslint's: sonarjs/cognitive-complexity and no-nested-ternary).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles, importEdges, sourceFiles, type ImportEdge } from '../helpers/imports.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const files = sourceFiles(root, ['src', 'commands']);
const edges = importEdges(root, files);

/** 'commands/lib/upload.ts' → 'commands'; 'src/io/table.ts' → 'io'; 'src/main.ts' → 'main'. */
function area(file: string): string {
  if (file.startsWith('commands/')) return 'commands';
  const parts = file.split('/');
  return parts.length > 2 ? (parts[1] as string) : (parts[1] as string).replace(/\.ts$/, '');
}

/**
 * What each area may import (besides itself). Layers only point down: main → cli → commands →
 * chat → follow/actions → kit/views/doctor/docsync → io/http/api/config/upload → context/errors. The program (cli/)
 * reaches commands only through src/cli/groups.ts, by one template import (checked below).
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  errors: [],
  lazy: ['api'],
  context: ['api', 'errors', 'http', 'io', 'config'],
  api: ['lazy', 'errors', 'context', 'http', 'config'],
  http: ['lazy', 'errors', 'context', 'api', 'config'],
  config: ['lazy', 'errors', 'context', 'http', 'api'],
  io: ['lazy', 'errors', 'context', 'api', 'config', 'http'],
  upload: ['lazy', 'errors', 'context', 'api', 'io', 'http', 'config'],
  kit: ['lazy', 'errors', 'context', 'api', 'io', 'http', 'config'],
  views: ['lazy', 'errors', 'context', 'api', 'io', 'http', 'config'],
  follow: ['lazy', 'errors', 'context', 'api', 'io', 'http', 'config', 'views'],
  actions: ['lazy', 'errors', 'context', 'api', 'io', 'http', 'config', 'views'],
  chat: ['lazy', 'errors', 'context', 'api', 'io', 'http', 'config', 'kit', 'views', 'follow', 'actions'],
  docsync: ['lazy', 'errors', 'context', 'api', 'io', 'http', 'config', 'kit'],
  doctor: ['lazy', 'errors', 'context', 'api', 'io', 'http', 'config'],
  'raw-api': ['lazy', 'errors', 'context', 'api', 'io', 'http', 'config', 'kit'],
  auth: ['lazy', 'errors', 'context', 'api', 'io', 'http', 'config'],
  inbox: ['lazy', 'errors', 'context', 'api', 'io', 'http', 'config', 'kit'],
  watch: ['lazy', 'errors', 'context', 'api', 'io', 'http', 'config', 'kit', 'views', 'follow'],
  sandbox: ['api', 'upload', 'lazy'],
  commands: [
    'lazy',
    'errors',
    'context',
    'api',
    'io',
    'http',
    'config',
    'kit',
    'views',
    'follow',
    'actions',
    'chat',
    'docsync',
    'upload',
    'sandbox',
    'doctor',
    'raw-api',
    'watch',
    'auth',
    'inbox',
    'cli',
  ],
  cli: ['lazy', 'errors', 'context', 'api', 'io', 'http', 'config', 'kit', 'commands'],
  main: ['cli'],
};

const own = (edge: ImportEdge) => !edge.to.endsWith('.json');

describe('layers', () => {
  it('every area is known to the rules', () => {
    const unknown = [...new Set(files.map(area))].filter((name) => !(name in MAY_IMPORT));
    expect(unknown).toEqual([]);
  });

  it('each folder imports only the layers below it (type imports included)', () => {
    const wrong = edges
      .filter(own)
      .filter(
        (edge) => area(edge.from) !== area(edge.to) && !(MAY_IMPORT[area(edge.from)] ?? []).includes(area(edge.to)),
      )
      .map((edge) => `${edge.from} → ${edge.to}${edge.typeOnly ? ' (type)' : ''}`);
    expect(wrong).toEqual([]);
  });

  it('src/ reaches commands/ only through src/cli/groups.ts, and only a group index', () => {
    const wrong = edges.filter((edge) => edge.to.startsWith('commands/') && !edge.from.startsWith('commands/'));
    expect(
      wrong.every(
        (edge) => edge.from === 'src/cli/groups.ts' && /^commands\/[a-z]+\/index\.ts$/.test(edge.to) && edge.dynamic,
      ),
    ).toBe(true);
    expect(wrong.length).toBeGreaterThanOrEqual(20);
  });

  it('a command group never imports another group’s files', () => {
    const group = (file: string) => file.split('/')[1];
    const wrong = edges.filter(
      (edge) =>
        edge.from.startsWith('commands/') && edge.to.startsWith('commands/') && group(edge.from) !== group(edge.to),
    );
    expect(wrong.map((edge) => `${edge.from} → ${edge.to}`)).toEqual([]);
  });

  it('no import cycle among modules as they load (static, non-type imports)', () => {
    const found = cycles(edges.filter((edge) => !edge.typeOnly && !edge.dynamic));
    expect(found.map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it('the checker sees cycles and wrong layers (it can fail)', () => {
    const fake: ImportEdge[] = [
      { from: 'src/a.ts', to: 'src/b.ts', typeOnly: false, dynamic: false },
      { from: 'src/b.ts', to: 'src/a.ts', typeOnly: false, dynamic: false },
    ];
    expect(cycles(fake)).toHaveLength(1);
    expect(MAY_IMPORT.io).not.toContain('views');
  });
});

/**
 * What in a module's text reaches the API: the client taken from the context
 * (`ctx.api()`, a Pick of `'api'`), one of its calls, or the modules that poll
 * and paginate through it.
 */
function apiReaches(text: string): string[] {
  const code = text.replace(/^\s*\/\/.*$|\/\*[\s\S]*?\*\//gm, '');
  const found = [
    ...code.matchAll(/\.api\s*\(|'api'|\.(?:call|callFull|paginate)\s*\(|\/http\/(?:poll|paginate)\.js'/g),
  ];
  return found.map((match) => match[0]);
}

describe('rooms', () => {
  it('src/views renders and never calls the API (the follow and decide loops live in src/follow and src/actions)', () => {
    const views = files.filter((file) => file.startsWith('src/views/'));
    expect(views.length).toBeGreaterThanOrEqual(5);
    const calling = views.flatMap((file) =>
      apiReaches(readFileSync(join(root, file), 'utf8')).map((what) => `${file}: ${what}`),
    );
    expect(calling).toEqual([]);
  });

  it('the rule sees a call, the client taken from the context and a poller (it can fail)', () => {
    const fake = [
      "import { poll } from '../http/poll.js';",
      "type C = Pick<Context, 'io' | 'api'>;",
      'const api = await ctx.api();',
      "await api.call('getTask', { params: { id } });",
      "for await (const x of api.paginate('listInbox', {})) void x;",
      '// a comment may say api.call( without calling it',
    ].join('\n');
    expect(apiReaches(fake)).toEqual(["/http/poll.js'", "'api'", '.api(', '.call(', '.paginate(']);
  });
});

/**
 * In the sandbox, routes depend on the model modules and never the other way:
 * only the sandbox's entry reaches the routes (through routes/index.ts), and a
 * route module never imports another one.
 */
function wrongSandboxRouteEdges(all: ImportEdge[]): string[] {
  const route = (file: string) => file.startsWith('src/sandbox/routes/');
  return all
    .filter((edge) => edge.from.startsWith('src/sandbox/') && route(edge.to))
    .filter(
      (edge) =>
        !(edge.from === 'src/sandbox/index.ts' && edge.to === 'src/sandbox/routes/index.ts') &&
        edge.from !== 'src/sandbox/routes/index.ts',
    )
    .map((edge) => `${edge.from} → ${edge.to}${edge.typeOnly ? ' (type)' : ''}`);
}

/** Areas whose routes file imports nothing from their model folder (the account's model is the world's own record). */
function areasWithoutModel(all: ImportEdge[], sources: string[]): string[] {
  const WORLD_ONLY = new Set(['account', 'index']);
  return sources
    .map((file) => /^src\/sandbox\/routes\/(\w+)\.ts$/.exec(file)?.[1])
    .filter((area): area is string => area !== undefined && !WORLD_ONLY.has(area))
    .filter(
      (area) =>
        !all.some(
          (edge) => edge.from === `src/sandbox/routes/${area}.ts` && edge.to.startsWith(`src/sandbox/${area}/`),
        ),
    );
}

describe('sandbox', () => {
  const sandboxEdges = edges.filter(
    (edge) => edge.from.startsWith('src/sandbox/') && edge.to.startsWith('src/sandbox/'),
  );

  it('routes depend on the models, never the other way (type imports included)', () => {
    expect(wrongSandboxRouteEdges(sandboxEdges)).toEqual([]);
    // The rule has something to hold: every route module is gathered, and each imports models.
    const gathered = sandboxEdges.filter((edge) => edge.from === 'src/sandbox/routes/index.ts').map((edge) => edge.to);
    expect(gathered).toEqual(
      expect.arrayContaining([
        'src/sandbox/routes/actions.ts',
        'src/sandbox/routes/conversations.ts',
        'src/sandbox/routes/watches.ts',
        'src/sandbox/routes/agent.ts',
      ]),
    );
    expect(
      sandboxEdges.some(
        (edge) => edge.from === 'src/sandbox/routes/actions.ts' && edge.to === 'src/sandbox/actions/state.ts',
      ),
    ).toBe(true);
  });

  it('every area is laid out alike: routes/<area>.ts calls the model in its own folder <area>/', () => {
    expect(areasWithoutModel(sandboxEdges, files)).toEqual([]);
    // The rule has something to hold, and it can fail: a route with no model folder is named.
    expect(files.filter((file) => /^src\/sandbox\/routes\/\w+\.ts$/.test(file)).length).toBeGreaterThanOrEqual(11);
    expect(areasWithoutModel([], ['src/sandbox/routes/docs.ts'])).toEqual(['docs']);
  });

  it('the route rule sees a model importing a route, and one route importing another (it can fail)', () => {
    const fake: ImportEdge[] = [
      { from: 'src/sandbox/agent/compose.ts', to: 'src/sandbox/routes/actions.ts', typeOnly: false, dynamic: false },
      {
        from: 'src/sandbox/routes/actions.ts',
        to: 'src/sandbox/routes/conversations.ts',
        typeOnly: true,
        dynamic: false,
      },
      { from: 'src/sandbox/routes/index.ts', to: 'src/sandbox/routes/actions.ts', typeOnly: false, dynamic: false },
      { from: 'src/sandbox/index.ts', to: 'src/sandbox/routes/index.ts', typeOnly: false, dynamic: false },
    ];
    expect(wrongSandboxRouteEdges(fake)).toEqual([
      'src/sandbox/agent/compose.ts → src/sandbox/routes/actions.ts',
      'src/sandbox/routes/actions.ts → src/sandbox/routes/conversations.ts (type)',
    ]);
  });
});

/** The completion scripts are text templates, not logic: exempt from the command size rule. */
const COMMAND_TEMPLATES = new Set([
  'commands/completion/bash.ts',
  'commands/completion/zsh.ts',
  'commands/completion/tree.ts',
]);
const MAX_COMMAND_LINES = 150;

/** Where a source reads the process's working directory or platform (comments aside). */
function processReads(code: string): string[] {
  const bare = code.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '');
  return [...bare.matchAll(/process\s*\.\s*(cwd|platform)\b/g)].map((match) => `process.${match[1]}`);
}

describe('commands', () => {
  const commandFiles = files.filter((file) => file.startsWith('commands/'));

  it(`a command file declares and delegates: at most ${MAX_COMMAND_LINES} lines (the completion templates aside)`, () => {
    const long = commandFiles
      .filter((file) => !COMMAND_TEMPLATES.has(file))
      .map((file) => ({ file, lines: readFileSync(join(root, file), 'utf8').trimEnd().split('\n').length }))
      .filter(({ lines }) => lines > MAX_COMMAND_LINES);
    expect(long).toEqual([]);
    expect(commandFiles.length).toBeGreaterThanOrEqual(50);
  });

  it('commands/ reads neither process.cwd() nor process.platform: both come from the context', () => {
    const reads = commandFiles.flatMap((file) =>
      processReads(readFileSync(join(root, file), 'utf8')).map((what) => `${file}: ${what}`),
    );
    expect(reads).toEqual([]);
  });

  it('the rule sees process.cwd() and process.platform, not a comment about them (it can fail)', () => {
    const fake = [
      '// process.cwd() is read by the context',
      "const rel = process.platform === 'win32' ? a : b;",
      'const dir = process .cwd();',
      'const env = process.env;',
    ].join('\n');
    expect(processReads(fake)).toEqual(['process.platform', 'process.cwd']);
  });
});

/** The declarative shapes (one line a bound) are exempt from the file size rule. */
const LONG_FILES_ALLOWED = new Set(['src/api/shapes.ts']);
const MAX_FILE_LINES = 450;

describe('sizes', () => {
  it(`no source file over ${MAX_FILE_LINES} lines (but the shapes)`, () => {
    const long = files
      .filter((file) => !LONG_FILES_ALLOWED.has(file))
      .map((file) => ({ file, lines: readFileSync(join(root, file), 'utf8').split('\n').length }))
      .filter(({ lines }) => lines > MAX_FILE_LINES);
    expect(long).toEqual([]);
  });
});
