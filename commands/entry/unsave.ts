import { savedCommand } from './shared.js';

export default savedCommand('unsave', false);
