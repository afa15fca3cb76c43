// kagent space list / show / create / edit / delete. A space is named by id or by
// name everywhere (resolveSpace, also used by other groups for --space).
import { defineGroup } from '../../src/kit/define.js';
import list from './list.js';
import show from './show.js';
import create from './create.js';
import edit from './edit.js';
import remove from './delete.js';

export default defineGroup({
  description: 'Spaces hold watches, library items, documents and conversations. Name a space by its id or its name.',
  examples: [
    'kagent space list',
    'kagent space create Research --description "Papers and notes"',
    'kagent space delete Research --yes',
  ],
  commands: [list, show, create, edit, remove],
});
