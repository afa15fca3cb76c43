import { savedCommand } from './shared.js';

export default savedCommand('save', true);
