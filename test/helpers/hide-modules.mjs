// A preload (`node --import ./test/helpers/hide-modules.mjs …`) that makes the
// packages named in KAGENT_HIDE_MODULES (comma-separated) impossible to load, as
// on a machine where they are not installed or their native binary does not
// load. Both ways in are closed: `import` (a module resolve hook) and
// `require` (Node's CommonJS resolver), for the package and its subpaths.
import Module from 'node:module';

const hidden = (process.env.KAGENT_HIDE_MODULES ?? '')
  .split(',')
  .map((name) => name.trim())
  .filter(Boolean);

if (hidden.length > 0 && typeof Module.registerHooks === 'function') {
  // Node 22.15+: one synchronous hook for import and require alike (module.register is deprecated from Node 26).
  const isHidden = (specifier) => hidden.some((name) => specifier === name || specifier.startsWith(`${name}/`));
  Module.registerHooks({
    resolve(specifier, context, next) {
      if (isHidden(specifier))
        throw Object.assign(new Error(`Cannot find package '${specifier}' (hidden by KAGENT_HIDE_MODULES)`), {
          code: 'ERR_MODULE_NOT_FOUND',
        });
      return next(specifier, context);
    },
  });
} else if (hidden.length > 0) {
  const isHidden = (specifier) => hidden.some((name) => specifier === name || specifier.startsWith(`${name}/`));
  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    if (isHidden(request))
      throw Object.assign(new Error(`Cannot find module '${request}' (hidden by KAGENT_HIDE_MODULES)`), {
        code: 'MODULE_NOT_FOUND',
      });
    return resolveFilename.call(this, request, ...rest);
  };
  const hooks = `
    let hidden = [];
    export function initialize(data) { hidden = data.hidden; }
    export async function resolve(specifier, context, next) {
      if (hidden.some((name) => specifier === name || specifier.startsWith(name + '/'))) {
        throw Object.assign(new Error("Cannot find package '" + specifier + "' (hidden by KAGENT_HIDE_MODULES)"), { code: 'ERR_MODULE_NOT_FOUND' });
      }
      return next(specifier, context);
    }`;
  Module.register(`data:text/javascript,${encodeURIComponent(hooks)}`, { data: { hidden } });
}
