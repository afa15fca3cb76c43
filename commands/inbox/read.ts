import { markCommand } from './shared.js';

export default markCommand('read', 'read', 'Mark inbox items read');
