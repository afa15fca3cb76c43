#!/usr/bin/env node
// Launcher: checks that this Node is one package.json's "engines" names, then
// answers `--version` and the root help itself (dist/front.cjs) or hands the
// command line to the program (dist/cli.js). CommonJS (bin/package.json says
// so), and plain JavaScript an old Node still parses: an old Node is told what
// kagent needs instead of failing somewhere inside it, and `--version` and the
// help never start Node's ES module loader (~5 ms on Node 22, docs/performance.md).
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

// Read as text: a require() of the JSON costs more start-up.
const needs = (JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).engines || {}).node;

if (needs && nodeFits(process.versions.node, needs) === false) {
  process.stderr.write(
    `kagent needs Node ${needs}, but this is Node ${process.versions.node}: run it with a supported Node.\n`,
  );
  process.exitCode = 2;
} else {
  const argv = process.argv.slice(2);
  // The front answers only flags (and `help`); a command line naming a command skips reading it.
  const front = argv.every((arg) => arg.startsWith('-') || arg === 'help') && require('../dist/front.cjs');
  if (!front || !front.answerWithoutProgram(argv)) import('../dist/cli.js');
}

/**
 * Whether `version` (x.y.z) is in `range`, for the forms an "engines" range is
 * written in: ranges joined by ||, each of comparators >=, >, <=, <, =, ^ or ~
 * before a version (x, x.y or x.y.z). undefined for a form it does not know:
 * then kagent runs, as it would without the check.
 */
function nodeFits(version, range) {
  const have = version.split('.').map(Number);
  const compare = (a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
  const sets = range.split('||').map((set) =>
    set
      .trim()
      .split(/\s+/)
      .map((comparator) => /^(>=|<=|>|<|=|\^|~)?v?(\d+)(?:\.(\d+)(?:\.(\d+))?)?$/.exec(comparator)),
  );
  if (sets.some((set) => set.some((match) => !match))) return undefined;
  const fits = ([, op = '=', ...given]) => {
    const parts = given.filter((part) => part !== undefined).map(Number);
    const low = [parts[0], parts[1] || 0, parts[2] || 0];
    // The first version past a partial one: 20 → 21.0.0, 20.19 → 20.20.0.
    let past;
    if (parts.length === 2) past = [parts[0], parts[1] + 1, 0];
    else if (parts.length === 1) past = [parts[0] + 1, 0, 0];
    const at = compare(have, low);
    if (op === '>=') return at >= 0;
    if (op === '<') return at < 0;
    if (op === '>') return past ? compare(have, past) >= 0 : at > 0;
    if (op === '<=') return past ? compare(have, past) < 0 : at <= 0;
    if (op === '=') return at >= 0 && (past ? compare(have, past) < 0 : at === 0);
    // ^ keeps the first non-zero part of the version given, ~ the minor (or the major when only it is given).
    let high;
    if (op === '~') high = parts.length === 1 ? [low[0] + 1, 0, 0] : [low[0], low[1] + 1, 0];
    else if (low[0] > 0 || parts.length === 1) high = [low[0] + 1, 0, 0];
    else if (low[1] > 0 || parts.length === 2) high = [0, low[1] + 1, 0];
    else high = [0, 0, low[2] + 1];
    return at >= 0 && compare(have, high) < 0;
  };
  return sets.some((set) => set.every(fits));
}
