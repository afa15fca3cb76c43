// The two parts of undici kagent uses, behind one import: the bundle then keeps
// them (and the undici core they share) in one chunk instead of three files,
// each of which Node's ESM loader would resolve, read and link on its own.
export { default as Agent } from 'undici/lib/dispatcher/agent.js';
export { default as request } from 'undici/lib/api/api-request.js';
