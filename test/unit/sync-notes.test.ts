// lib sync's note, read back: exactly the notes syncNote writes for the prefix
// give their path; every other note (another prefix, JSON written otherwise, a
// path with an empty or dot part, anything around it) gives none.
import { describe, expect, it } from 'vitest';
import { pathOfNote, syncNote } from '../../src/upload/sync-names.js';

describe('pathOfNote', () => {
  it('reads back every path syncNote wrote, for any prefix', () => {
    for (const prefix of ['docs', 'org/repo', 'with "quotes"', 'back\\slash', 'é ü'])
      for (const rel of [
        'README.md',
        'guide/intro.md',
        'a:b/100%.md',
        'x\\y/z.txt',
        'é/ü.md',
        'say "hi".md',
        'tab\there.md',
      ])
        expect(pathOfNote(prefix, syncNote(prefix, rel))).toBe(rel);
  });

  it('gives nothing for a note sync did not write for this prefix', () => {
    for (const note of [
      'kagent lib sync "site" "README.md"', // another prefix
      'kagent lib sync "docsx" "README.md"',
      'kagent lib sync "docs" "README.md" ', // anything after
      ' kagent lib sync "docs" "README.md"', // anything before
      'kagent lib sync "docs"  "README.md"',
      'kagent lib sync "docs" "READ\\u004dE.md"', // JSON written otherwise than JSON.stringify writes it
      'kagent lib sync "d\\u006fcs" "README.md"',
      'kagent lib sync "docs" "README.md" "x"',
      'kagent lib sync "docs" 123',
      'kagent lib sync "docs" ["README.md"]',
      'kagent lib sync "docs" "README.md',
      'kagent lib sync "docs" ""',
      'kagent lib sync "docs" "guide//x.md"',
      'kagent lib sync "docs" "../x.md"',
      'kagent lib sync "docs" "guide/./x.md"',
      'kagent lib sync "docs" "/x.md"',
      'kagent lib sync "docs"',
      'README.md',
      '',
    ])
      expect(pathOfNote('docs', note), note).toBeUndefined();
  });
});
