// The doctor group lives in the new layout; the loader still imports src/commands/<group>.ts.
export { default } from '../../commands/doctor/index.js';
