// The program of the --jq worker thread (src/io/jq.ts starts it), as source
// text: a worker made from text needs no file of its own, so the same code runs
// from the sources and from the bundle. It loads jq-wasm's Emscripten build
// (one file, the WebAssembly inside) with four small changes, each checked, so
// that jq runs as the jq command does:
// - its environment ($ENV, env) is the run's, not Emscripten's stand-in
//   (HOME=/home/web_user);
// - stdin is read with an index, not by copying what is left after each byte;
// - stdout goes out in 64 KiB pieces as it comes (so `repeat(.) | head` ends,
//   and memory stays flat), waiting while the main thread has 4 pieces unwritten;
// - the exit status is kept: `halt_error` exits 5 as jq does.
// One engine serves every run of the process; one that ran out of memory is
// dead, and the main thread ends its worker.
export const JQ_WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const { dirname } = require('node:path');
const { file, env, flow } = workerData;
const unwritten = new Int32Array(flow);

let source = readFileSync(file, 'utf8');
function change(from, to) {
  const at = source.indexOf(from);
  if (at < 0) throw new Error('this jq-wasm build is not the one kagent knows (' + from.slice(0, 40) + ')');
  source = source.slice(0, at) + to + source.slice(at + from.length);
}
change('var ENV = {};', 'var ENV = Module.kagentEnv;');
const open = 'preRun() { FS.init(';
const close = '); }, raw(';
const from = source.indexOf(open);
const to = source.indexOf(close, from);
if (from < 0 || to < 0) throw new Error('this jq-wasm build is not the one kagent knows (preRun)');
source = source.slice(0, from + open.length) + 'Module.kagentStdin, Module.kagentStdout, Module.kagentStderr' + source.slice(to);
const heapMax = Number(/var getHeapMax = \(\) => (\d+);/.exec(source)?.[1] ?? 0);

let input = new Uint8Array(0);
let read = 0;
let out = new Uint8Array(65536);
let outLength = 0;
let err = '';
let job = 0;
const decoder = new TextDecoder();
// Emscripten says "Aborted()" with console.error, which would reach the process's stderr past kagent's report.
console.error = () => {};

function send(text) {
  if (text === '') return;
  while (Atomics.load(unwritten, 0) >= 4) Atomics.wait(unwritten, 0, Atomics.load(unwritten, 0), 100);
  Atomics.add(unwritten, 0, 1);
  parentPort.postMessage({ job, out: text });
}
function flush(end) {
  const text = decoder.decode(out.subarray(0, outLength), { stream: !end });
  outLength = 0;
  send(text);
}

const realEnv = { USER: undefined, LOGNAME: undefined, PATH: undefined, PWD: undefined, HOME: undefined, LANG: undefined, _: undefined };
for (const [name, value] of Object.entries(env)) if (typeof value === 'string') realEnv[name] = value;
const settings = {
  kagentEnv: realEnv,
  kagentStdin: () => (read < input.length ? input[read++] : null),
  kagentStdout: (byte) => {
    if (byte === null || byte === undefined) return;
    out[outLength++] = byte;
    if (outLength === out.length) flush(false);
  },
  kagentStderr: (byte) => {
    if (byte !== null && byte !== undefined && err.length < 65536) err += String.fromCharCode(byte);
  },
};

const loaded = { exports: {} };
new Function('module', 'exports', 'require', '__filename', '__dirname', source)(loaded, loaded.exports, require, file, dirname(file));
const factory = loaded.exports.default || loaded.exports;
const ready = factory(settings);

parentPort.on('message', async (message) => {
  const engine = await ready;
  job = message.job;
  input = new TextEncoder().encode(message.input);
  read = 0;
  outLength = 0;
  err = '';
  try {
    const status = engine.callMain(['-M', ...message.flags, message.filter, '/dev/stdin']);
    flush(true);
    parentPort.postMessage({ job, status, stderr: new TextDecoder().decode(Buffer.from(err, 'latin1')) });
  } catch (error) {
    parentPort.postMessage({
      job,
      aborted: String(error && error.message || error),
      stderr: new TextDecoder().decode(Buffer.from(err, 'latin1')),
      heap: engine.HEAPU8 ? engine.HEAPU8.length : 0,
      heapMax,
    });
  }
});
`;
