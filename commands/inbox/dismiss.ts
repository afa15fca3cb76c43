import { markCommand } from './shared.js';

export default markCommand('dismiss', 'dismissed', 'Dismiss inbox items: they leave the inbox');
