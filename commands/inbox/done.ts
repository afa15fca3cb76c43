import { markCommand } from './shared.js';

export default markCommand('done', 'done', 'Mark inbox items done: they leave the inbox');
